import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TurnOutcome } from "../../agent/loop.js";
import { describeApiError } from "../wire/result.js";

/** How a subagent's loop ended, in the words of each line and counter that reports it. */
export type Ending =
  | { status: "completed"; patchStatus: "completed"; counted: "completed" }
  | { status: "failed" | "stopped"; patchStatus: "failed" | "killed"; counted: "failed" | "killed_by_user"; reason: string };

/** Pure: the loop's outcome (undefined: it threw) and whether it was stopped, as an Ending. */
export function endingOf(outcome: TurnOutcome | undefined, stopped: boolean, maxTurns: number): Ending {
  if (stopped) return { status: "stopped", patchStatus: "killed", counted: "killed_by_user", reason: "stopped by the user" };
  if (!outcome)
    return { status: "failed", patchStatus: "failed", counted: "failed", reason: "an internal error in agentwire (see stderr)" };
  switch (outcome.terminalReason) {
    case "completed":
    case "hook_stopped":
    case "stop_hook_prevented":
      return { status: "completed", patchStatus: "completed", counted: "completed" };
    case "max_turns":
      return failed(`it reached its limit of ${maxTurns} model requests`);
    case "budget_exhausted":
      return failed("the session's budget (--max-budget-usd) is spent");
    case "api_error":
      return failed(describeApiError(outcome.error));
    default:
      return failed(`it ended as ${outcome.terminalReason}`);
  }
}

function failed(reason: string): Ending {
  return { status: "failed", patchStatus: "failed", counted: "failed", reason };
}

/** Where a subagent's final report goes: the session's output directory, where hosts and Read can open it. */
export function reportFile(outputDirectory: string, agentId: string): string {
  return join(outputDirectory, "tasks", `${agentId}.output`);
}

/** Writes the report (or why there is none); returns its file. */
export function writeReport(file: string, text: string): string {
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(file, text, { mode: 0o600 });
  } catch {
    // The report is also in the tool result or the notification; a file that cannot be written only loses the copy.
  }
  return file;
}
