import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { Message } from "../conversation/messages.js";
import { readLinesBackward } from "./lines-backward.js";
import { entrySchema, headerSchema, SESSION_FILE_VERSION, sessionFile, type SessionEntry, type SessionModelUsage } from "./session-file.js";

export interface LoadedSession {
  sessionId: string;
  history: Message[];
  /** The stored `tool_use_result` of the history's tool calls, by tool_use id (for views, not the model). */
  toolUseResults: Record<string, unknown>;
  modelUsage: SessionModelUsage;
  totalCostUsd: number;
  /** Problems found while loading (skipped lines, repaired history); never fatal. */
  diagnostics: string[];
}

export class SessionNotFoundError extends Error {
  readonly code = "session_not_found";
}

/**
 * The file is there but is not a session this agentwire can continue (a damaged first line, a
 * newer format). Resuming it would append to a file whose shape is unknown, so it is refused and
 * the file is left as it is.
 */
export class SessionUnreadableError extends Error {
  readonly code = "session_unreadable";
}

// Entries are written by JSON.stringify with `type` first, so a line's kind shows in its first bytes.
const TURN_END_PREFIX = Buffer.from('{"type":"turn_end"');

/**
 * The conversation `--resume` continues: read from the end of the file back to the last
 * compaction (which holds the whole conversation as it went on), plus the last `turn_end` for
 * the cumulative cost. What lies before is never read: a long session's file keeps every
 * message for export and audit, but resuming it costs only its tail.
 */
export function loadSession(home: string, cwd: string, sessionId: string): LoadedSession {
  return loadSessionFile(sessionFile(home, cwd, sessionId), sessionId);
}

export function loadSessionFile(file: string, sessionId: string): LoadedSession {
  const diagnostics: string[] = [];
  const problem = readHeader(file, sessionId);
  if (problem)
    throw new SessionUnreadableError(`Session ${sessionId} cannot be continued: ${problem} (${file}). The file was left unchanged.`);
  // Collected backwards, reversed at the end.
  const tail: Message[] = [];
  const toolUseResults: Record<string, unknown> = {};
  const problems: string[] = [];
  let base: Message[] | undefined;
  let usage: { modelUsage: SessionModelUsage; totalCostUsd: number } | undefined;
  let isLastLine = true;
  readLinesBackward(file, (line, offset) => {
    const wasLast = isLastLine;
    isLastLine = false;
    if (offset === 0) return false;
    // Past the last compaction only the cost is still missing: parse nothing else.
    if (base !== undefined && !line.subarray(0, TURN_END_PREFIX.length).equals(TURN_END_PREFIX)) return true;
    if (line.length === 0 || line.every((byte) => byte === 0x20 || byte === 0x0d || byte === 0x09)) return true;
    const entry = parseEntry(line, offset, wasLast, problems);
    if (entry?.type === "turn_end") usage ??= { modelUsage: entry.model_usage, totalCostUsd: entry.total_cost_usd };
    else if (entry?.type === "compaction" && base === undefined) base = entry.messages;
    else if (entry?.type === "message" && base === undefined) {
      tail.push(entry.message);
      Object.assign(toolUseResults, entry.tool_use_results);
    }
    return base === undefined || usage === undefined;
  });
  diagnostics.push(...problems.reverse());
  const history = [...(base ?? []), ...tail.reverse()];
  return {
    sessionId,
    history: repairHistory(history, diagnostics),
    toolUseResults,
    modelUsage: usage?.modelUsage ?? {},
    totalCostUsd: usage?.totalCostUsd ?? 0,
    diagnostics,
  };
}

function parseEntry(line: Buffer, offset: number, isLast: boolean, problems: string[]): SessionEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString("utf8"));
  } catch {
    problems.push(isLast ? `ignored a truncated last line (${line.length} bytes)` : `skipped an unreadable line at byte ${offset}`);
    return undefined;
  }
  const entry = entrySchema().safeParse(value);
  if (!entry.success) {
    problems.push(`skipped an invalid entry at byte ${offset}`);
    return undefined;
  }
  return entry.data;
}

/**
 * The first line, read on its own: what is wrong with it, or undefined when it is a header this
 * agentwire reads. Throws SessionNotFoundError when there is no such file.
 */
function readHeader(file: string, sessionId: string): string | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, "r");
  } catch {
    throw new SessionNotFoundError(`No conversation found with session ID: ${sessionId} (looked in ${file})`);
  }
  try {
    if (!fstatSync(descriptor).isFile()) return "it is not a regular file";
    const head = Buffer.alloc(4096);
    const length = readSync(descriptor, head, 0, head.length, 0);
    const firstLine = head.subarray(0, length).toString("utf8").split("\n")[0] ?? "";
    let value: unknown;
    try {
      value = JSON.parse(firstLine);
    } catch {
      return "its first line is not a session header (not JSON)";
    }
    const header = headerSchema().safeParse(value);
    if (!header.success) return "its first line is not a session header";
    if (header.data.version > SESSION_FILE_VERSION)
      return `its format (version ${header.data.version}) is newer than this agentwire reads (${SESSION_FILE_VERSION})`;
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * A session that ended mid-tool (crash, kill) has tool_use blocks without results; the API
 * rejects such a history, so each gets an error result saying what happened.
 */
function repairHistory(history: Message[], diagnostics: string[]): Message[] {
  const answered = new Set(
    history.flatMap((message) =>
      message.role === "user" ? message.content.flatMap((block) => (block.type === "tool_result" ? [block.toolUseId] : [])) : [],
    ),
  );
  const repaired: Message[] = [];
  history.forEach((message, position) => {
    repaired.push(message);
    if (message.role !== "assistant") return;
    const missing = message.content.filter((block) => block.type === "tool_use" && !answered.has(block.id));
    if (missing.length === 0) return;
    diagnostics.push(`added results for ${missing.length} tool call(s) that never finished`);
    const results = missing.map((block) => ({
      type: "tool_result" as const,
      toolUseId: block.type === "tool_use" ? block.id : "",
      content: "The session ended before this tool call finished; it may or may not have run.",
      isError: true,
    }));
    const next = history[position + 1];
    if (next?.role === "user") next.content.unshift(...results);
    else repaired.push({ role: "user", content: results });
  });
  return repaired;
}
