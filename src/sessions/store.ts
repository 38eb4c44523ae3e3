import { randomUUID } from "node:crypto";
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { MessageSchema, type Message } from "../conversation/messages.js";
import { ModelUsageEntrySchema } from "../../protocol/events.js";

/**
 * Sessions are append-only JSONL files: a header line, then one line per committed message, one
 * per finished turn (cumulative cost, which `--resume` reads back) and, from version 2, one per
 * compaction (the conversation as it continues; the messages before it stay in the file for
 * export and audit). Writes are synchronous appends of whole lines, so a crash can at worst
 * truncate the last line, which load tolerates.
 *
 * Versions: 1 had no compaction entries, so every version-1 file is a valid version-2 file; its
 * header is upgraded in place (the digit, same length) before the first version-2 entry.
 */
export const SESSION_FILE_VERSION = 2;

const HeaderSchema = z.object({
  type: z.literal("session"),
  version: z.number().int(),
  session_id: z.string(),
  cwd: z.string(),
  created_at: z.string(),
  agentwire_version: z.string(),
});
const MessageEntrySchema = z.object({ type: z.literal("message"), message: MessageSchema, timestamp: z.string() });
const TurnEndEntrySchema = z.object({
  type: z.literal("turn_end"),
  total_cost_usd: z.number(),
  model_usage: z.record(z.string(), ModelUsageEntrySchema),
  timestamp: z.string(),
});
const CompactionEntrySchema = z.object({
  type: z.literal("compaction"),
  trigger: z.enum(["auto", "manual", "clear"]),
  pre_tokens: z.number(),
  post_tokens: z.number(),
  /** The whole conversation from here on (a summary and what was kept; empty after /clear). */
  messages: z.array(MessageSchema),
  timestamp: z.string(),
});
const EntrySchema = z.discriminatedUnion("type", [MessageEntrySchema, TurnEndEntrySchema, CompactionEntrySchema]);

export type SessionModelUsage = z.infer<typeof TurnEndEntrySchema>["model_usage"];

export interface LoadedSession {
  sessionId: string;
  history: Message[];
  modelUsage: SessionModelUsage;
  totalCostUsd: number;
  /** Problems found while loading (skipped lines, repaired history); never fatal. */
  diagnostics: string[];
}

export class SessionNotFoundError extends Error {
  readonly code = "session_not_found";
}

/** `~/.agentwire` unless AGENTWIRE_HOME says otherwise. */
export function agentwireHome(env: NodeJS.ProcessEnv): string {
  return env.AGENTWIRE_HOME || join(homedir(), ".agentwire");
}

/** Claude Code's project key: every non-alphanumeric character of the cwd becomes "-". */
export function projectKey(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

export class SessionStore {
  private headerWritten: boolean;
  private headerUpgraded = false;
  /** Whether a resumed file's end has been checked for a line cut short by a crash. */
  private endingChecked: boolean;

  constructor(
    readonly file: string,
    private readonly header: z.infer<typeof HeaderSchema>,
    existing: boolean,
  ) {
    this.headerWritten = existing;
    this.endingChecked = !existing;
  }

  static create(home: string, cwd: string, sessionId: string, agentwireVersion: string): SessionStore {
    const file = sessionFile(home, cwd, sessionId);
    const header = {
      type: "session" as const,
      version: SESSION_FILE_VERSION,
      session_id: sessionId,
      cwd,
      created_at: new Date().toISOString(),
      agentwire_version: agentwireVersion,
    };
    return new SessionStore(file, header, fileExists(file));
  }

  appendMessage(message: Message): void {
    this.append({ type: "message", message, timestamp: new Date().toISOString() });
  }

  /** The conversation continues from `messages` (compaction, or an empty one after /clear). */
  appendCompaction(trigger: "auto" | "manual" | "clear", preTokens: number, postTokens: number, messages: Message[]): void {
    this.upgradeHeader();
    this.append({ type: "compaction", trigger, pre_tokens: preTokens, post_tokens: postTokens, messages, timestamp: new Date().toISOString() });
  }

  /** A version-1 file gets a version-2 header before its first compaction entry (a same-length rewrite). */
  private upgradeHeader(): void {
    if (!this.headerWritten || this.headerUpgraded) return;
    this.headerUpgraded = true;
    const descriptor = openSync(this.file, "r+");
    try {
      const head = Buffer.alloc(256);
      const { length } = head.subarray(0, readSync(descriptor, head, 0, head.length, 0));
      const line = head.subarray(0, length).toString("utf8");
      const match = /"version":1(?=[,}])/.exec(line.split("\n")[0] ?? "");
      if (match) writeSync(descriptor, Buffer.from(`"version":${SESSION_FILE_VERSION}`), 0, undefined, Buffer.byteLength(line.slice(0, match.index)));
    } finally {
      closeSync(descriptor);
    }
  }

  appendTurnEnd(totalCostUsd: number, modelUsage: SessionModelUsage): void {
    this.append({ type: "turn_end", total_cost_usd: totalCostUsd, model_usage: modelUsage, timestamp: new Date().toISOString() });
  }

  private append(entry: unknown): void {
    let text = `${JSON.stringify(entry)}\n`;
    if (!this.endingChecked) {
      // A crash mid-write leaves a last line without its newline; appending straight after it
      // would glue the next entry to the fragment and lose both. The fragment stays, on its own
      // line, where load skips it with a diagnostic.
      if (!endsWithNewline(this.file)) text = `\n${text}`;
      this.endingChecked = true;
    }
    if (!this.headerWritten) {
      mkdirSync(join(this.file, ".."), { recursive: true, mode: 0o700 });
      text = `${JSON.stringify(this.header)}\n${text}`;
      this.headerWritten = true;
    }
    appendFileSync(this.file, text, { mode: 0o600 });
  }
}

export function sessionFile(home: string, cwd: string, sessionId: string): string {
  return join(home, "projects", projectKey(cwd), `${sessionId}.jsonl`);
}

export function sessionExists(home: string, cwd: string, sessionId: string): boolean {
  return fileExists(sessionFile(home, cwd, sessionId));
}

/** The most recently written session of this cwd, for `--continue`. */
export function newestSessionId(home: string, cwd: string): string | undefined {
  const directory = join(home, "projects", projectKey(cwd));
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return undefined;
  }
  const newest = names
    .map((name) => ({ name, mtime: statSync(join(directory, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)[0];
  return newest?.name.slice(0, -".jsonl".length);
}

export function loadSession(home: string, cwd: string, sessionId: string): LoadedSession {
  const file = sessionFile(home, cwd, sessionId);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new SessionNotFoundError(`No conversation found with session ID: ${sessionId} (looked in ${file})`);
  }
  const lines = text.split("\n");
  const diagnostics: string[] = [];
  const history: Message[] = [];
  let modelUsage: SessionModelUsage = {};
  let totalCostUsd = 0;
  const lastContentIndex = lines.findLastIndex((line) => line.trim() !== "");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const isLast = index === lastContentIndex;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      diagnostics.push(isLast ? `ignored a truncated last line (${line.length} characters)` : `skipped unreadable line ${index + 1}`);
      return;
    }
    if (index === 0) {
      const header = HeaderSchema.safeParse(value);
      if (!header.success) diagnostics.push("the header line is not a valid session header");
      else if (header.data.version > SESSION_FILE_VERSION) diagnostics.push(`session file version ${header.data.version} is newer than this agentwire (${SESSION_FILE_VERSION})`);
      return;
    }
    const entry = EntrySchema.safeParse(value);
    if (!entry.success) {
      diagnostics.push(`skipped invalid entry on line ${index + 1}`);
      return;
    }
    if (entry.data.type === "message") history.push(entry.data.message);
    else if (entry.data.type === "compaction") history.splice(0, history.length, ...entry.data.messages);
    else {
      modelUsage = entry.data.model_usage;
      totalCostUsd = entry.data.total_cost_usd;
    }
  });
  return { sessionId, history: repairHistory(history, diagnostics), modelUsage, totalCostUsd, diagnostics };
}

/**
 * A session that ended mid-tool (crash, kill) has tool_use blocks without results; the API
 * rejects such a history, so each gets an error result saying what happened.
 */
function repairHistory(history: Message[], diagnostics: string[]): Message[] {
  const answered = new Set(
    history.flatMap((message) => (message.role === "user" ? message.content.flatMap((block) => (block.type === "tool_result" ? [block.toolUseId] : [])) : [])),
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

export function newSessionId(): string {
  return randomUUID();
}

/** True for an empty file too: only a non-empty last line without "\n" needs one. */
function endsWithNewline(file: string): boolean {
  const descriptor = openSync(file, "r");
  try {
    const size = fstatSync(descriptor).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(descriptor, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(descriptor);
  }
}

function fileExists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
