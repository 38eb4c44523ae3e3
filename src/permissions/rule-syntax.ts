import type { ToolTraits } from "../conversation/tool-traits.js";
import { ownEntry } from "../validation/own-entry.js";

// Reading rules and naming the tools they cover, apart from matching them against calls (rules.ts,
// which needs the shell parser): choosing a session's tools by deny rules needs only this part.

/**
 * Claude Code permission rules: `Tool` or `Tool(content)`, e.g. `Read`, `Bash(npm run:*)`,
 * `Read(./src/**)`, `Edit(//tmp/**)`, `mcp__server__tool`, `mcp__server` (every tool of it).
 */
export interface PermissionRule {
  toolName: string;
  /** Undefined: the rule matches every call of the tool. */
  content: string | undefined;
}

export function parseRule(text: string): PermissionRule {
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  if (open === -1 || !trimmed.endsWith(")")) return { toolName: trimmed, content: undefined };
  return { toolName: trimmed.slice(0, open), content: trimmed.slice(open + 1, -1) };
}

/** `--allowedTools "Read,Bash(git log:*)" Edit` → rules; commas inside parentheses are kept. */
export function parseRuleList(values: string[]): PermissionRule[] {
  return values
    .flatMap(splitTopLevel)
    .filter((value) => value.trim() !== "")
    .map(parseRule);
}

function splitTopLevel(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const character of value) {
    if (character === "(") depth++;
    if (character === ")") depth = Math.max(0, depth - 1);
    if ((character === "," || character === " ") && depth === 0) {
      parts.push(current);
      current = "";
    } else current += character;
  }
  parts.push(current);
  return parts;
}

/**
 * In Claude Code's rule syntax `Edit(…)` and `Read(…)` name a family: every file tool that edits,
 * every file tool that reads (Read, Grep, Glob, LS). Other names match their tool only.
 */
const RULE_FAMILIES: Record<string, ToolTraits["kind"]> = { Edit: "edit", Read: "read" };

/** Whether a rule naming `ruleName` applies to this tool (by name, family or MCP server). */
export function ruleCoversTool(ruleName: string, tool: { name: string; traits: ToolTraits }): boolean {
  if (ruleName === tool.name) return true;
  const family = ownEntry(RULE_FAMILIES, ruleName);
  if (family !== undefined && tool.traits.kind === family && tool.traits.pathField !== undefined) return true;
  return mcpServerNameCovers(ruleName, tool.name);
}

/** Whether `name` is `mcp__server` or `mcp__server__*`, covering every tool of that MCP server. */
export function mcpServerNameCovers(name: string, toolName: string): boolean {
  if (!name.startsWith("mcp__")) return false;
  const prefix = name.endsWith("__*") ? name.slice(0, -1) : `${name}__`;
  return toolName.startsWith(prefix);
}

/**
 * Whether a rule naming a whole tool (no specifier, or `*`) covers this tool: a deny rule of that
 * kind refuses every call, so the tool is not offered at all.
 */
export function wholeToolRuleCovers(rules: readonly PermissionRule[], tool: { name: string; traits: ToolTraits }): boolean {
  return rules.some((rule) => (rule.content === undefined || rule.content === "*") && ruleCoversTool(rule.toolName, tool));
}
