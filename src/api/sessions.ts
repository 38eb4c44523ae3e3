import { createReadStream } from "node:fs";
import { renderStream } from "../render/render-stream.js";
import { visibleMessage } from "../conversation/reminders.js";
import { messageEvents } from "../render/session-events.js";
import type { RenderOptions } from "../render/transcript-renderer.js";
import { loadSessionFile, SessionUnreadableError, type LoadedSession } from "../sessions/load-session.js";
import {
  findSessionFile,
  listSessions as listSessionFiles,
  removeSessionFile,
  summarizeSession,
  type SessionSummary,
} from "../sessions/session-catalog.js";
import { agentwireHome } from "../sessions/session-file.js";

export type { SessionSummary };

interface SessionLookup {
  /** The working directory whose sessions are meant (default: process.cwd()). */
  cwd?: string;
  /** Where AGENTWIRE_HOME is read (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** `$AGENTWIRE_HOME`, or `~/.agentwire`: where sessions, skills and the chat history live. */
export function agentwireHomeDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return agentwireHome(env);
}

/** The stored sessions of a working directory (`all`: of every one), newest first: what `resume` takes. */
export function listSessions(options: SessionLookup & { all?: boolean } = {}): SessionSummary[] {
  return listSessionFiles(agentwireHome(options.env ?? process.env), options.all ? undefined : (options.cwd ?? process.cwd()));
}

/** One stored session, found by id in any working directory's sessions; undefined when there is none. */
export function findSession(sessionId: string, options: Omit<SessionLookup, "cwd"> = {}): SessionSummary | undefined {
  const file = storedSessionFile(sessionId, { ...options, all: true });
  return file === undefined ? undefined : summarizeSession(file);
}

/** A stored session as readable lines (`agentwire render ID`); undefined when there is no such session. */
export async function renderSession(sessionId: string, options: SessionLookup & RenderOptions): Promise<string[] | undefined> {
  const file = storedSessionFile(sessionId, options);
  if (!file) return undefined;
  const lines: string[] = [];
  for await (const rendered of renderStream(createReadStream(file), options)) lines.push(...rendered);
  return lines;
}

/**
 * A stored session's conversation as it goes on (from its last compaction), each message as the
 * `assistant` / `user` line it was sent as: what a viewer shows of the earlier turns. Undefined
 * when there is no such session.
 */
export function sessionHistory(
  sessionId: string,
  options: SessionLookup & { all?: boolean } = {},
): Array<Record<string, unknown>> | undefined {
  const file = storedSessionFile(sessionId, options);
  if (!file) return undefined;
  let loaded: LoadedSession;
  try {
    loaded = loadSessionFile(file, sessionId);
  } catch (error) {
    // A file that is not a session this agentwire reads has no history to show.
    if (error instanceof SessionUnreadableError) return undefined;
    throw error;
  }
  return loaded.history.flatMap((message) => {
    const visible = visibleMessage(message);
    return visible ? messageEvents(visible, loaded.toolUseResults) : [];
  });
}

/** Removes a stored session; refused while a process has it open (its pid is returned then). */
export function deleteSession(
  sessionId: string,
  options: SessionLookup & { all?: boolean } = {},
): "deleted" | "not_found" | { inUseBy: number } {
  const file = storedSessionFile(sessionId, options);
  if (!file) return "not_found";
  const removed = removeSessionFile(file);
  return removed === "removed" ? "deleted" : removed;
}

/** The session's file in the working directory's sessions (`all`: in any), if there is one. */
function storedSessionFile(sessionId: string, options: SessionLookup & { all?: boolean }): string | undefined {
  return findSessionFile(agentwireHome(options.env ?? process.env), sessionId, options.all ? undefined : (options.cwd ?? process.cwd()));
}
