import path from "node:path";
import { bashRuleRestricts, bashRulesAllow } from "./bash-rules.js";
import { pathRuleMatches } from "./path-rules.js";

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
}

/**
 * As in Claude Code, a rule for one built-in tool also covers the tools that do the same kind
 * of thing: `Edit(…)` every file-editing tool, `Read(…)` every file-reading one.
 */
const COVERED_TOOLS: Record<string, readonly string[]> = {
  Edit: ["Edit", "Write", "MultiEdit", "NotebookEdit"],
  Read: ["Read", "Grep", "Glob", "LS"],
};

/** The tools a rule naming `toolName` applies to. */
export function toolsCoveredBy(toolName: string): readonly string[] {
  return COVERED_TOOLS[toolName] ?? [toolName];
}

/**
 * Deny and ask rules: whether any rule matches any part of the call (for Bash, any command in
 * the line; for paths, the path as named or as it resolves through symlinks).
 */
export function anyRuleMatches(rules: readonly PermissionRule[], target: RuleTarget): boolean {
  const contents = ruleContents(rules, target.toolName);
  if (contents === "whole tool") return true;
  if (contents.length === 0) return false;
  if (target.toolName === "Bash") return bashRuleRestricts(contents, String(target.input.command ?? ""));
  const filePath = targetPath(target);
  return filePath !== undefined && contents.some((content) => pathRuleMatches(content, filePath, target.cwd, "restrict"));
}

/**
 * Allow rules: whether the rules together cover the whole call (for Bash, every command in the
 * line is allowed by some rule or is read-only; for paths, the real path is covered).
 */
export function allowRulesCover(rules: readonly PermissionRule[], target: RuleTarget): boolean {
  const contents = ruleContents(rules, target.toolName);
  if (contents === "whole tool") return true;
  if (contents.length === 0) return false;
  if (target.toolName === "Bash") return bashRulesAllow(contents, String(target.input.command ?? ""));
  const filePath = targetPath(target);
  return filePath !== undefined && contents.some((content) => pathRuleMatches(content, filePath, target.cwd, "allow"));
}

/** The contents of the rules for this tool, or "whole tool" when one of them names the tool alone. */
function ruleContents(rules: readonly PermissionRule[], toolName: string): string[] | "whole tool" {
  const relevant = rules.filter((rule) => toolNameMatches(rule.toolName, toolName));
  if (relevant.some((rule) => rule.content === undefined || rule.content === "*")) return "whole tool";
  return relevant.map((rule) => rule.content!);
}

function toolNameMatches(ruleName: string, toolName: string): boolean {
  if (ruleName === toolName || COVERED_TOOLS[ruleName]?.includes(toolName)) return true;
  // `mcp__server` and `mcp__server__*` cover every tool of that server.
  if (ruleName.startsWith("mcp__")) {
    const prefix = ruleName.endsWith("__*") ? ruleName.slice(0, -1) : `${ruleName}__`;
    return toolName.startsWith(prefix);
  }
  return false;
}

/** The file or directory a call touches, for path rules and workspace checks (Grep, Glob and LS default to the cwd). */
export function targetPath(target: RuleTarget): string | undefined {
  const value = target.input.file_path ?? target.input.notebook_path ?? target.input.path;
  if (typeof value !== "string" || value === "") {
    return ["Glob", "Grep", "LS"].includes(target.toolName) ? target.cwd : undefined;
  }
  return path.resolve(target.cwd, value);
}
