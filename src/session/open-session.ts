import { SessionAccounting } from "./turn-accounting.js";
import type { Message } from "../conversation/messages.js";
import { loadSession, SessionNotFoundError, SessionUnreadableError } from "../sessions/load-session.js";
import { hostname } from "node:os";
import { acquireSessionLock } from "../sessions/session-lock.js";
import { newestSessionId, newSessionId, sessionExists, SessionStore } from "../sessions/store.js";
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
  /** A new conversation, a stored one continued, or a copy of one (SessionStart's `source`). */
  origin: "startup" | "resume" | "fork";
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
  /** `--fork-session`: the resumed conversation continues in a new session; the old file is left as it was. */
  fork?: boolean;
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
    if (error instanceof SessionUnreadableError) throw new SessionSetupError(error.message, "session_unreadable");
    throw error;
  }
  const fork =
    input.fork && loaded
      ? { from: loaded.sessionId, messages: loaded.history, totalCostUsd: loaded.totalCostUsd, modelUsage: loaded.modelUsage }
      : undefined;
  const sessionId = (fork ? undefined : loaded?.sessionId) ?? input.sessionId ?? newSessionId();
  let store: SessionStore | undefined;
  if (input.persist) {
    store = SessionStore.create(input.home, input.cwd, sessionId, AGENTWIRE_VERSION, fork);
    const holder = lockOrReportLater(store.file);
    if (holder) {
      throw new SessionSetupError(
        `Session ${sessionId} is in use by another agentwire process (pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}): two writers would mix their conversations in one file. Wait for it to finish, or add --fork-session to continue a copy.`,
        "invalid_arguments",
      );
    }
  }
  return {
    sessionId,
    history: loaded?.history ?? [],
    accounting: new SessionAccounting(loaded ? { modelUsage: loaded.modelUsage, totalCostUsd: loaded.totalCostUsd } : undefined, {
      contextWindow: input.contextWindow,
    }),
    store,
    diagnostics: loaded?.diagnostics ?? [],
    origin: fork ? "fork" : loaded ? "resume" : "startup",
  };
}

/**
 * The session's lock; when the folder cannot be written at all (AGENTWIRE_HOME is a file, a full
 * disk) nobody else can write it either, and the store reports the failure on its first write
 * (`session_not_persisted`) while the session goes on.
 */
function lockOrReportLater(file: string): ReturnType<typeof acquireSessionLock> {
  try {
    return acquireSessionLock(file);
  } catch {
    return undefined;
  }
}
