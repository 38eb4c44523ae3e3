import path from "node:path";
import type { PermissionVerdict } from "./policy.js";
import { commandOf, targetHost, targetPath, type RuleTarget } from "./rules.js";

type AskVerdict = Extract<PermissionVerdict, { behavior: "ask" }>;

/**
 * What would have let a refused call run, for the model to pass on to the user: the flag or rule
 * that covers this call and no more than it needs. It never names a mode that would not help
 * (acceptEdits does nothing for Bash).
 */
export function whatWouldAllow(call: Omit<RuleTarget, "cwd">, verdict: AskVerdict, cwd: string): string {
  const target: RuleTarget = { ...call, cwd };
  const command = commandOf(target);
  switch (verdict.reasonType) {
    case "workingDir": {
      const file = targetPath(target);
      return file === undefined ? `--add-dir with the directory it needs` : `--add-dir ${quoteIfNeeded(path.dirname(file))}`;
    }
    case "risk":
      return command === undefined
        ? `an --allowedTools "${call.toolName}" rule, after checking the call is safe`
        : `an --allowedTools "${call.toolName}(${command})" rule for exactly this command, after checking it is safe`;
    case "rule":
      return "removing the ask rule that matches it, or a host that can answer the question";
    case "mode":
      if (call.traits.kind === "edit") return `--permission-mode acceptEdits or --allowedTools "${call.toolName}"`;
      if (command !== undefined) return `--allowedTools "${call.toolName}(${commandPrefix(command)}:*)" or --dangerously-skip-permissions`;
      if (call.traits.urlField !== undefined) return `--allowedTools "${call.toolName}(domain:${targetHost(target) ?? "HOST"})"`;
      return `--allowedTools "${call.toolName}"`;
  }
}

/** `npm test -- --watch` → `npm test`: the program and its subcommand, as a prefix rule names them. */
function commandPrefix(command: string): string {
  const words = command.trim().split(/\s+/);
  const [program, subcommand] = words;
  if (subcommand !== undefined && /^[a-z][\w:-]*$/i.test(subcommand)) return `${program} ${subcommand}`;
  return program ?? command;
}

function quoteIfNeeded(directory: string): string {
  return /^[\w./-]+$/.test(directory) ? directory : `"${directory}"`;
}
