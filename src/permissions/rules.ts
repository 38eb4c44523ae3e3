import path from "node:path";

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

export function ruleMatches(rule: PermissionRule, target: RuleTarget): boolean {
  if (!toolNameMatches(rule.toolName, target.toolName)) return false;
  if (rule.content === undefined || rule.content === "*") return true;
  if (target.toolName === "Bash") return bashRuleMatches(rule.content, String(target.input.command ?? ""));
  const filePath = targetPath(target);
  if (filePath !== undefined) return pathRuleMatches(rule.content, filePath, target.cwd);
  return false;
}

function toolNameMatches(ruleName: string, toolName: string): boolean {
  if (ruleName === toolName) return true;
  // `mcp__server` and `mcp__server__*` cover every tool of that server.
  if (ruleName.startsWith("mcp__")) {
    const prefix = ruleName.endsWith("__*") ? ruleName.slice(0, -1) : `${ruleName}__`;
    return toolName.startsWith(prefix);
  }
  return false;
}

/** `npm run:*` is a prefix rule (the command starts with `npm run`); anything else is exact. */
function bashRuleMatches(content: string, command: string): boolean {
  const normalized = command.trim();
  if (content.endsWith(":*")) {
    const prefix = content.slice(0, -2).trim();
    return normalized === prefix || normalized.startsWith(`${prefix} `);
  }
  if (content.endsWith("*")) return normalized.startsWith(content.slice(0, -1));
  return normalized === content.trim();
}

/**
 * Path rules follow Claude Code: `//abs/path` is absolute, `~/x` is in the home directory,
 * `/x` and `./x` are relative to the working directory; `**` spans directories, `*` does not.
 */
function pathRuleMatches(pattern: string, filePath: string, cwd: string): boolean {
  const base = pattern.startsWith("//")
    ? pattern.slice(1)
    : pattern.startsWith("~/")
      ? path.join(process.env.HOME ?? "~", pattern.slice(2))
      : path.join(cwd, pattern.replace(/^\.?\//, ""));
  return globToRegExp(path.normalize(base)).test(path.normalize(filePath));
}

function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index]!;
    if (character === "*" && glob[index + 1] === "*") {
      source += ".*";
      index++;
      if (glob[index + 1] === "/") index++;
    } else if (character === "*") source += "[^/]*";
    else if (character === "?") source += "[^/]";
    else source += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The file or directory a call touches, for path rules and workspace checks. */
export function targetPath(target: RuleTarget): string | undefined {
  const value = target.input.file_path ?? target.input.notebook_path ?? target.input.path;
  if (typeof value !== "string" || value === "") {
    return ["Glob", "Grep", "LS"].includes(target.toolName) ? target.cwd : undefined;
  }
  return path.resolve(target.cwd, value);
}
