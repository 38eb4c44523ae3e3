import { closeSync, openSync, readdirSync, readSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { userMessageSchema } from "../conversation/messages.js";
import { userWords } from "../conversation/reminders.js";
import { readLinesBackward } from "./lines-backward.js";
import { headerSchema, projectKey, turnEndEntrySchema } from "./session-file.js";
import { sessionLockHolder } from "./session-lock.js";

/** One stored session, as `agentwire sessions list` shows it. */
export interface SessionSummary {
  sessionId: string;
  cwd: string;
  file: string;
  createdAt: string;
  /** When the file was last written. */
  updatedAt: string;
  bytes: number;
  /** The first user message, shortened: what the session was about. */
  title: string;
  /** Finished turns (user messages answered). */
  turns: number;
  totalCostUsd: number;
  forkedFrom?: string;
}

const TITLE_CHARS = 80;
// Enough for the header and the first prompt of any ordinary session; the rest is not read.
const HEAD_BYTES = 256 * 1024;

/** The sessions of one working directory (or of every one), newest first. */
export function listSessions(home: string, cwd: string | undefined): SessionSummary[] {
  const projects = join(home, "projects");
  const directories = cwd === undefined ? readDirectory(projects).map((name) => join(projects, name)) : [join(projects, projectKey(cwd))];
  return directories
    .flatMap((directory) =>
      readDirectory(directory)
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => join(directory, name)),
    )
    .flatMap((file) => {
      const summary = summarizeSession(file);
      return summary ? [summary] : [];
    })
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
}

/** A session's file by id: in the working directory's project first, then in any project. */
export function findSessionFile(home: string, sessionId: string, cwd: string | undefined): string | undefined {
  const name = `${sessionId}.jsonl`;
  const projects = join(home, "projects");
  const candidates = [...(cwd === undefined ? [] : [projectKey(cwd)]), ...readDirectory(projects)].map((project) =>
    join(projects, project, name),
  );
  return candidates.find((file) => {
    try {
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Reads the head (header, first prompt) and the tail (last cost) of a session file; undefined
 * when it is not one: a damaged header, a directory or a dangling link named `*.jsonl`, a file
 * that cannot be read. One bad entry must not hide the others.
 */
export function summarizeSession(file: string): SessionSummary | undefined {
  try {
    const stats = statSync(file);
    if (!stats.isFile()) return undefined;
    const lines = readHead(file).split("\n");
    const header = headerSchema().safeParse(safeJson(lines[0] ?? ""));
    if (!header.success) return undefined;
    const { turns, totalCostUsd } = countTurns(file);
    return {
      sessionId: header.data.session_id,
      cwd: header.data.cwd,
      file,
      createdAt: header.data.created_at,
      updatedAt: stats.mtime.toISOString(),
      bytes: stats.size,
      title: firstPrompt(lines.slice(1)),
      turns,
      totalCostUsd,
      ...(header.data.forked_from ? { forkedFrom: header.data.forked_from } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The user's own words in the first prompt (not the skills listing put before them). */
function firstPrompt(lines: string[]): string {
  for (const line of lines) {
    if (!line.startsWith('{"type":"message"')) continue;
    // A first message longer than the head that was read does not parse: no title from it.
    const entry = safeJson(line) as { message?: unknown } | undefined;
    const message = userMessageSchema().safeParse(entry?.message);
    if (!message.success) continue;
    const oneLine = userWords(message.data.content).replace(/\s+/g, " ").trim();
    if (oneLine === "") continue;
    return oneLine.length > TITLE_CHARS ? `${oneLine.slice(0, TITLE_CHARS - 1)}…` : oneLine;
  }
  return "";
}

const TURN_END_PREFIX = Buffer.from('{"type":"turn_end"');

/** Every line is looked at, but only the last turn_end is parsed (for the cumulative cost). */
function countTurns(file: string): { turns: number; totalCostUsd: number } {
  let turns = 0;
  let totalCostUsd: number | undefined;
  readLinesBackward(file, (line) => {
    if (!line.subarray(0, TURN_END_PREFIX.length).equals(TURN_END_PREFIX)) return true;
    turns++;
    if (totalCostUsd === undefined) {
      const entry = turnEndEntrySchema().safeParse(safeJson(line.toString("utf8")));
      if (entry.success) totalCostUsd = entry.data.total_cost_usd;
    }
    return true;
  });
  return { turns, totalCostUsd: totalCostUsd ?? 0 };
}

function readHead(file: string): string {
  const descriptor = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.subarray(0, readSync(descriptor, buffer, 0, HEAD_BYTES, 0)).toString("utf8");
  } finally {
    closeSync(descriptor);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readDirectory(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** Removes a session file, unless a process has the session open: then its pid, and nothing is removed. */
export function removeSessionFile(file: string): "removed" | { inUseBy: number } {
  const holder = sessionLockHolder(file);
  if (holder) return { inUseBy: holder.pid };
  rmSync(file);
  return "removed";
}
