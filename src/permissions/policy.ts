import type { z } from "zod";
import type { PermissionModeSchema } from "../../protocol/commands.js";
import { isReadOnlyCommand } from "./shell/bash-classifier.js";
import { pathsOutsideRoots } from "./shell/command-paths.js";
import { programsInsideRoots } from "./shell/program-lookup.js";
import { isSameOrInside } from "../paths/real-path.js";
import { assessRisk } from "./risk-sentinel.js";
import { lineGitRisk } from "./shell/git-config-risk.js";
import { allowRulesCover, allowRulesCoverWithoutJudgement, anyRuleMatches, commandOf, targetHost, targetPath } from "./rules.js";
import type { PermissionRule } from "./rule-syntax.js";
import type { ToolTraits } from "../conversation/tool-traits.js";

/**
 * Claude Code's modes, plus agentwire's simple names: `interactive` = default (ask the host),
 * `auto` = approve everything except what the risk sentinel flags and file edits outside the
 * workspace roots, `deny` = dontAsk.
 */
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

export interface PermissionRules {
  allow: PermissionRule[];
  deny: PermissionRule[];
  ask: PermissionRule[];
}

export interface PermissionQuestion {
  toolName: string;
  input: Record<string, unknown>;
  /** What the tool does (from its definition). */
  traits: ToolTraits;
  mode: PermissionMode;
  rules: PermissionRules;
  /** The working directory followed by --add-dir roots. */
  roots: string[];
  /** Where a shell command would start (Bash's current directory); the first root when absent. */
  commandDirectory?: string;
  /**
   * The host vouched for the project for this run (`--trust-project`): git commands an allow rule
   * covers may run what the repository's git configuration names (hooks, filters, fsmonitor).
   */
  projectVouched?: boolean;
  /**
   * The agentwire home wherever AGENTWIRE_HOME puts it (its settings, skills and cached code
   * decide what agentwire runs and may do): writing into it is a risk like writing ~/.agentwire.
   */
  agentwireHome?: string;
}

export type PermissionVerdict =
  /**
   * `judgedReadOnly`: nothing but the read-only judgement of a shell command approved it (no
   * rule, no person, no mode that approves everything). A judgement can be wrong, so such a
   * command runs confined where the machine allows (see src/tools/confinement-arguments.ts).
   */
  | { behavior: "allow"; reason: string; judgedReadOnly?: true }
  | { behavior: "deny"; message: string; reason: string }
  | { behavior: "ask"; reason: string; reasonType: "rule" | "mode" | "workingDir" | "risk" };

/**
 * Decision for one tool call, in this order: deny rules, then plan mode (which refuses anything
 * that is not read-only, whatever the allow rules say: nothing changes in plan mode, so a risky
 * write is refused there, not asked about), then the risk sentinel (which even explicit allow
 * rules and edit modes cannot skip — only bypassPermissions can), then ask and allow rules, then
 * the mode. `ask` means a host must decide; with nobody to ask, the caller turns it into a denial
 * at once. Reads the filesystem only to resolve symlinks in paths, to count a file's hard links
 * and, for a read-only command that runs git, to read the repository's configuration.
 */
export function decidePermission(question: PermissionQuestion): PermissionVerdict {
  const { toolName, input, rules, traits } = question;
  // A shell command's relative paths start where the shell is (after an earlier `cd`, always
  // inside a root), so that directory leads the roots and every check resolves them from there.
  const roots =
    traits.commandField !== undefined && question.commandDirectory !== undefined
      ? [question.commandDirectory, ...question.roots]
      : question.roots;
  const mode = canonicalMode(question.mode);
  const target = { toolName, input, cwd: roots[0]!, traits };
  if (anyRuleMatches(rules.deny, target)) {
    return { behavior: "deny", message: `Permission to use ${toolName} has been denied by a rule.`, reason: "deny rule" };
  }
  if (mode === "bypassPermissions") return { behavior: "allow", reason: "permissions bypassed" };
  const command = commandOf(target);
  const readOnlyCommand = command !== undefined && isReadOnlyCommand(command);
  const readsOnly = traits.kind === "read" || traits.sessionStateOnly === true;
  if (mode === "plan" && !readsOnly && !readOnlyCommand && traits.readsWeb !== true) {
    return {
      behavior: "deny",
      message: `${toolName} is not available in plan mode: it would change files or run commands. Describe the plan instead.`,
      reason: "plan mode",
    };
  }
  const risk = assessRisk({ input, traits }, roots, question.agentwireHome);
  if (risk) return finish(mode, { behavior: "ask", reason: risk, reasonType: "risk" });
  if (anyRuleMatches(rules.ask, target)) return finish(mode, { behavior: "ask", reason: "an ask rule matches", reasonType: "rule" });
  // A line that is read-only as a whole takes the read-only way below (confined, paths outside
  // asked, git's configuration checked) unless the allow rules name every command of it alone.
  const rulesAllow = readOnlyCommand ? allowRulesCoverWithoutJudgement(rules.allow, target) : allowRulesCover(rules.allow, target, roots);
  if (rulesAllow) {
    // A rule approves the command the user named, not the programs a repository's git
    // configuration adds to it (an archive can bring its own .git/config).
    const gitRisk = command !== undefined && question.projectVouched !== true ? lineGitRisk(command, roots[0]!) : undefined;
    if (gitRisk)
      return finish(mode, {
        behavior: "ask",
        reason: `${gitRisk}; an allow rule covers the command, not what the repository's configuration runs`,
        reasonType: "risk",
      });
    return { behavior: "allow", reason: "allow rule" };
  }
  // A fetch reaches another machine: reading a page is harmless to the workspace, but which hosts
  // the session talks to is the user's choice (a `domain:` rule), as in Claude Code.
  if (traits.urlField !== undefined && mode !== "auto") {
    const host = targetHost(target) ?? "an unnamed host";
    return finish(mode, { behavior: "ask", reason: `${toolName} would fetch from ${host}, which no allow rule names`, reasonType: "mode" });
  }

  const filePath = targetPath(target);
  const inside = filePath === undefined || roots.some((root) => isSameOrInside(filePath, root));
  const editsFiles = traits.kind === "edit";
  // auto approves what the risk sentinel let through, but a file edit outside the roots asks, as
  // a shell command's write there does (the sentinel); only an explicit bypass skips both.
  if (mode === "auto") {
    if (editsFiles && !inside)
      return finish(mode, { behavior: "ask", reason: "Path is outside allowed working directories", reasonType: "workingDir" });
    return { behavior: "allow", reason: "auto mode" };
  }
  if (readsOnly) {
    if (inside) return { behavior: "allow", reason: "read-only tool inside the workspace" };
    return finish(mode, { behavior: "ask", reason: "Path is outside allowed working directories", reasonType: "workingDir" });
  }
  if (readOnlyCommand) {
    const workspacePrograms = programsInsideRoots(command, roots);
    if (workspacePrograms.length > 0) {
      return finish(mode, {
        behavior: "ask",
        reason: `The command runs ${workspacePrograms.join(", ")} from the workspace (found first on PATH), not a system program`,
        reasonType: "mode",
      });
    }
    const outside = pathsOutsideRoots(command, roots);
    if (outside.length > 0)
      return finish(mode, {
        behavior: "ask",
        reason: `The command reads ${outside.join(", ")}, outside allowed working directories`,
        reasonType: "workingDir",
      });
    const gitRisk = lineGitRisk(command, roots[0]!);
    if (gitRisk) return finish(mode, { behavior: "ask", reason: gitRisk, reasonType: "risk" });
    return { behavior: "allow", reason: "read-only command", judgedReadOnly: true };
  }
  if (editsFiles && mode === "acceptEdits" && inside) return { behavior: "allow", reason: "acceptEdits mode" };
  return finish(mode, {
    behavior: "ask",
    reason: editsFiles
      ? inside
        ? "File edits need approval in this mode"
        : "Path is outside allowed working directories"
      : `${toolName} can change files or run commands`,
    reasonType: inside ? "mode" : "workingDir",
  });
}

/** `dontAsk` (and agentwire's `deny`) refuse whatever would need a question. */
function finish(mode: PermissionMode, verdict: Extract<PermissionVerdict, { behavior: "ask" }>): PermissionVerdict {
  if (mode === "dontAsk")
    return { behavior: "deny", message: `Permission denied: ${verdict.reason} (mode ${mode} does not ask).`, reason: verdict.reason };
  return verdict;
}

export function canonicalMode(mode: PermissionMode): PermissionMode {
  switch (mode) {
    case "interactive":
      return "default";
    case "deny":
      return "dontAsk";
    default:
      return mode;
  }
}
