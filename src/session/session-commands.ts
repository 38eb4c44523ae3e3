import type { AgentEvent } from "../agent/events.js";
import type { TurnOutcome } from "../agent/loop.js";
import type { UserMessage } from "../conversation/messages.js";
import type { SessionParts } from "./session-parts.js";

/** A prompt the session answers itself, not the model. */
export interface SessionCommand {
  name: "compact" | "clear";
  args: string;
}

/** `/compact [instructions]` or `/clear` as the whole prompt, or undefined. */
export function sessionCommand(prompt: UserMessage): SessionCommand | undefined {
  if (prompt.content.length !== 1 || prompt.content[0]!.type !== "text") return undefined;
  const match = /^\/(compact|clear)(?:\s+([\s\S]*))?$/.exec(prompt.content[0]!.text.trim());
  return match ? { name: match[1] as SessionCommand["name"], args: match[2]?.trim() ?? "" } : undefined;
}

/**
 * `/compact [instructions]` and `/clear`: what happened, as the turn's outcome (no model turn
 * runs for them). `/clear` starts the conversation over in the same session; the file keeps
 * what came before.
 */
export async function runSessionCommand(
  command: SessionCommand,
  parts: SessionParts,
  model: string,
  emit: (event: AgentEvent) => void,
  signal: AbortSignal,
): Promise<TurnOutcome> {
  const { history } = parts;
  if (command.name === "clear") {
    const before = history.length;
    history.length = 0;
    parts.skills.forgetLoaded();
    await parts.hooks.restart(model, signal);
    parts.persistence.cleared(emit);
    return done(`Cleared the conversation (${before} messages); the session goes on from here.`);
  }
  const state =
    history.length === 0
      ? "unchanged"
      : await parts.contextKeeper.compact(
          history,
          { trigger: "manual", instructions: command.args || undefined, force: true },
          signal,
          emit,
        );
  if (state === "compacted") return done("Compacted the conversation.");
  if (state === "unchanged") return done("Nothing to compact yet.");
  return {
    terminalReason: "api_error",
    stopReason: null,
    numTurns: 0,
    resultText: "",
    error: { kind: "unknown", status: null, message: "Compacting the conversation failed; it is unchanged." },
  };
}

function done(resultText: string): TurnOutcome {
  return { terminalReason: "completed", stopReason: null, numTurns: 0, resultText };
}
