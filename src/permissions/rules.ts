import path from "node:path";
import { bashRuleRestricts, bashRulesAllow } from "./bash-rules.js";
import { pathRuleMatches } from "./path-rules.js";
import type { ToolTraits } from "../conversation/tool-traits.js";

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
  return values.flatMap(splitTopLevel).filter((value) => value.trim() !== "").map(parseRule);
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

export interface RuleTarget {
  toolName: string;
  input: Record<string, unknown>;
  cwd: string;
  /** What the tool does; decides which rules and checks apply. */
  traits: ToolTraits;
}

/**
 * In Claude Code's rule syntax `Edit(…)` and `Read(…)` name a family: every file tool that edits,
 * every file tool that reads (Read, Grep, Glob, LS). Other names match their tool only.
 */
const RULE_FAMILIES: Record<string, ToolTraits["kind"]> = { Edit: "edit", Read: "read" };

/** Whether a rule naming `ruleName` applies to this tool (by name, family or MCP server). */
export function ruleCoversTool(ruleName: string, tool: { name: string; traits: ToolTraits }): boolean {
  if (ruleName === tool.name) return true;
  const family = RULE_FAMILIES[ruleName];
  if (family !== undefined && tool.traits.kind === family && tool.traits.pathField !== undefined) return true;
  // `mcp__server` and `mcp__server__*` cover every tool of that server.
  if (ruleName.startsWith("mcp__")) {
    const prefix = ruleName.endsWith("__*") ? ruleName.slice(0, -1) : `${ruleName}__`;
    return tool.name.startsWith(prefix);
  }
  return false;
}

/**
 * Deny and ask rules: whether any rule matches any part of the call (for Bash, any command in
 * the line; for paths, the path as named or as it resolves through symlinks).
 */
export function anyRuleMatches(rules: readonly PermissionRule[], target: RuleTarget): boolean {
  const contents = ruleContents(rules, target);
  if (contents === "whole tool") return true;
  if (contents.length === 0) return false;
  const command = commandOf(target);
  if (command !== undefined) return bashRuleRestricts(contents, command);
  const filePath = targetPath(target);
  return filePath !== undefined && contents.some((content) => pathRuleMatches(content, filePath, target.cwd, "restrict"));
}

/**
 * Allow rules: whether the rules together cover the whole call (for Bash, every command in the
 * line is allowed by some rule or is read-only; for paths, the real path is covered).
 */
export function allowRulesCover(rules: readonly PermissionRule[], target: RuleTarget): boolean {
  const contents = ruleContents(rules, target);
  if (contents === "whole tool") return true;
  if (contents.length === 0) return false;
  const command = commandOf(target);
  if (command !== undefined) return bashRulesAllow(contents, command);
  const filePath = targetPath(target);
  return filePath !== undefined && contents.some((content) => pathRuleMatches(content, filePath, target.cwd, "allow"));
}

/** The contents of the rules for this tool, or "whole tool" when one of them names the tool alone. */
function ruleContents(rules: readonly PermissionRule[], target: RuleTarget): string[] | "whole tool" {
  const relevant = rules.filter((rule) => ruleCoversTool(rule.toolName, { name: target.toolName, traits: target.traits }));
  if (relevant.some((rule) => rule.content === undefined || rule.content === "*")) return "whole tool";
  return relevant.map((rule) => rule.content!);
}

/** The shell command of a command-running call (Bash), or undefined for other tools. */
export function commandOf(target: Pick<RuleTarget, "input" | "traits">): string | undefined {
  const field = target.traits.commandField;
  return field === undefined ? undefined : String(target.input[field] ?? "");
}

/** The file or directory a call touches, for path rules and workspace checks (Grep, Glob and LS default to the cwd). */
export function targetPath(target: RuleTarget): string | undefined {
  const field = target.traits.pathField;
  const value = field === undefined ? undefined : target.input[field];
  if (typeof value !== "string" || value === "") return target.traits.pathDefaultsToCwd ? target.cwd : undefined;
  return path.resolve(target.cwd, value);
}
