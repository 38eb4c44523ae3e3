import path from "node:path";
import { bashRuleRestricts, bashRulesAllow, bashRulesAllowWithoutJudgement } from "./bash-rules.js";
import { domainRuleMatches, urlHost } from "./domain-rules.js";
import { pathRuleMatches } from "./path-rules.js";
import type { ToolTraits } from "../conversation/tool-traits.js";
import { ruleCoversTool, type PermissionRule } from "./rule-syntax.js";

export interface RuleTarget {
  toolName: string;
  input: Record<string, unknown>;
  cwd: string;
  /** What the tool does; decides which rules and checks apply. */
  traits: ToolTraits;
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
  if (command !== undefined) return bashRuleRestricts(contents, command, target.cwd);
  const host = targetHost(target);
  if (host !== undefined) return contents.some((content) => domainRuleMatches(content, host));
  const filePath = targetPath(target);
  return filePath !== undefined && contents.some((content) => pathRuleMatches(content, filePath, target.cwd, "restrict"));
}

/**
 * Allow rules: whether the rules together cover the whole call (for Bash, every command in the
 * line is allowed by some rule or is read-only and reads nothing outside `roots`; for paths, the
 * real path is covered).
 */
export function allowRulesCover(rules: readonly PermissionRule[], target: RuleTarget, roots: readonly string[]): boolean {
  const contents = ruleContents(rules, target);
  if (contents === "whole tool") return true;
  if (contents.length === 0) return false;
  const command = commandOf(target);
  if (command !== undefined) return bashRulesAllow(contents, command, roots);
  const host = targetHost(target);
  if (host !== undefined) return contents.some((content) => domainRuleMatches(content, host));
  const filePath = targetPath(target);
  return filePath !== undefined && contents.some((content) => pathRuleMatches(content, filePath, target.cwd, "allow"));
}

/**
 * Allow rules that cover a shell command on their own: every command in the line matches a rule,
 * with no help from the read-only judgement. False for tools that run no command.
 */
export function allowRulesCoverWithoutJudgement(rules: readonly PermissionRule[], target: RuleTarget): boolean {
  const command = commandOf(target);
  if (command === undefined) return false;
  const contents = ruleContents(rules, target);
  if (contents === "whole tool") return true;
  return contents.length > 0 && bashRulesAllowWithoutJudgement(contents, command);
}

/**
 * Whether a rule for this tool names the host itself (`WebFetch(domain:127.0.0.1)`). A rule for
 * the whole tool does not: it approves fetching, not reaching the machine's own network.
 */
export function rulesNameHost(rules: readonly PermissionRule[], tool: Pick<RuleTarget, "toolName" | "traits">, host: string): boolean {
  return rules.some(
    (rule) =>
      rule.content !== undefined &&
      ruleCoversTool(rule.toolName, { name: tool.toolName, traits: tool.traits }) &&
      domainRuleMatches(rule.content, host),
  );
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

/** The host a fetching call (WebFetch) would reach, for `domain:` rules; undefined for other tools or no URL. */
export function targetHost(target: Pick<RuleTarget, "input" | "traits">): string | undefined {
  const field = target.traits.urlField;
  const value = field === undefined ? undefined : target.input[field];
  return typeof value === "string" ? urlHost(value) : undefined;
}

/** The file or directory a call touches, for path rules and workspace checks (Grep, Glob and LS default to the cwd). */
export function targetPath(target: RuleTarget): string | undefined {
  const field = target.traits.pathField;
  const value = field === undefined ? undefined : target.input[field];
  if (typeof value !== "string" || value === "") return target.traits.pathDefaultsToCwd ? target.cwd : undefined;
  return path.resolve(target.cwd, value);
}
