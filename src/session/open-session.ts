import { SessionAccounting } from "../agent/turn-accounting.js";
import type { Message } from "../conversation/messages.js";
import { loadSession, newestSessionId, newSessionId, SessionNotFoundError, sessionExists, SessionStore } from "../sessions/store.js";
import { AGENTWIRE_VERSION } from "../version.js";
import { SessionSetupError } from "./session-options.js";

/** A session's stored past and where its future goes. */
export interface OpenedSession {
  sessionId: string;
  history: Message[];
  accounting: SessionAccounting;
  /** Undefined when persistence is off. */
  store: SessionStore | undefined;
  /** Problems found while loading a stored session (skipped lines, repaired history). */
  diagnostics: string[];
}

/**
 * Resolves `resume` / `continue` / `sessionId` against the sessions under `home`: loads the
 * history and cumulative cost of a resumed session, or starts a new one. Throws a
 * `SessionSetupError` for an unknown session or an id already in use.
 */
export function openSession(input: {
  home: string;
  cwd: string;
  resume: string | undefined;
  continue: boolean;
  sessionId: string | undefined;
  persist: boolean;
  contextWindow: number | undefined;
}): OpenedSession {
  if (input.sessionId && sessionExists(input.home, input.cwd, input.sessionId)) {
    throw new SessionSetupError(`Session ID ${input.sessionId} is already in use.`, "invalid_arguments");
  }
  const resumeId = input.resume ?? (input.continue ? newestSessionId(input.home, input.cwd) : undefined);
  if (input.continue && !resumeId) throw new SessionSetupError(`No conversation found to continue in ${input.cwd}`, "session_not_found");
  let loaded: ReturnType<typeof loadSession> | undefined;
  try {
    loaded = resumeId === undefined ? undefined : loadSession(input.home, input.cwd, resumeId);
  } catch (error) {
    if (error instanceof SessionNotFoundError) throw new SessionSetupError(error.message, "session_not_found");
    throw error;
  }
  const sessionId = loaded?.sessionId ?? input.sessionId ?? newSessionId();
  return {
    sessionId,
    history: loaded?.history ?? [],
    accounting: new SessionAccounting(loaded ? { modelUsage: loaded.modelUsage, totalCostUsd: loaded.totalCostUsd } : undefined, { contextWindow: input.contextWindow }),
    store: input.persist ? SessionStore.create(input.home, input.cwd, sessionId, AGENTWIRE_VERSION) : undefined,
    diagnostics: loaded?.diagnostics ?? [],
  };
}
