import { randomUUID } from "../text/random-uuid.js";
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../conversation/messages.js";
import { releaseSessionLock } from "./session-lock.js";
import { storedToolDetails } from "./stored-tool-details.js";
import { fileExists, projectKey, SESSION_FILE_VERSION, sessionFile, type SessionHeader, type SessionModelUsage } from "./session-file.js";

export interface SessionFork {
  from: string;
  messages: Message[];
  totalCostUsd: number;
  modelUsage: SessionModelUsage;
}

/** Writes one session's file (see session-file.ts for its format). */
export class SessionStore {
  private headerWritten: boolean;
  private headerUpgraded = false;
  /** Whether a resumed file's end has been checked for a line cut short by a crash. */
  private endingChecked: boolean;
  /** A fork's copied conversation and cost, written with the header. */
  private seed: unknown[];
  /** Structured tool results waiting for the message that carries their tool_result blocks. */
  private readonly toolDetails = new Map<string, unknown>();

  constructor(
    readonly file: string,
    private readonly header: SessionHeader,
    existing: boolean,
    seed: unknown[] = [],
  ) {
    this.headerWritten = existing;
    this.endingChecked = !existing;
    this.seed = seed;
  }

  /**
   * The store of a new or resumed session. `fork`: a new session that starts as a copy of
   * another's conversation and cost (`--fork-session`); the copy is written with the first entry.
   */
  static create(home: string, cwd: string, sessionId: string, agentwireVersion: string, fork?: SessionFork): SessionStore {
    const file = sessionFile(home, cwd, sessionId);
    const now = new Date().toISOString();
    const header: SessionHeader = {
      type: "session",
      version: SESSION_FILE_VERSION,
      session_id: sessionId,
      cwd,
      created_at: now,
      agentwire_version: agentwireVersion,
      ...(fork ? { forked_from: fork.from } : {}),
    };
    const seed = fork
      ? [
          ...fork.messages.map((message) => ({ type: "message", message, timestamp: now })),
          { type: "turn_end", total_cost_usd: fork.totalCostUsd, model_usage: fork.modelUsage, timestamp: now },
        ]
      : [];
    return new SessionStore(file, header, fileExists(file), seed);
  }

  /** Gives up the session's lock (see session-lock.ts), if this process holds it. */
  close(): void {
    releaseSessionLock(this.file);
  }

  /** A tool call's structured result (`tool_use_result`), stored with the message that answers the call. */
  noteToolDetails(toolUseId: string, details: unknown): void {
    this.toolDetails.set(toolUseId, storedToolDetails(details));
  }

  appendMessage(message: Message): void {
    const details: Record<string, unknown> = {};
    if (message.role === "user") {
      for (const block of message.content) {
        if (block.type !== "tool_result" || !this.toolDetails.has(block.toolUseId)) continue;
        details[block.toolUseId] = this.toolDetails.get(block.toolUseId);
        this.toolDetails.delete(block.toolUseId);
      }
    }
    this.append({
      type: "message",
      message,
      timestamp: new Date().toISOString(),
      ...(Object.keys(details).length > 0 ? { tool_use_results: details } : {}),
    });
  }

  /** The conversation continues from `messages` (compaction, or an empty one after /clear). */
  appendCompaction(trigger: "auto" | "manual" | "clear", preTokens: number, postTokens: number, messages: Message[]): void {
    this.upgradeHeader();
    this.append({
      type: "compaction",
      trigger,
      pre_tokens: preTokens,
      post_tokens: postTokens,
      messages,
      timestamp: new Date().toISOString(),
    });
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
      if (match)
        writeSync(
          descriptor,
          Buffer.from(`"version":${SESSION_FILE_VERSION}`),
          0,
          undefined,
          Buffer.byteLength(line.slice(0, match.index)),
        );
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
      text = [this.header, ...this.seed].map((line) => `${JSON.stringify(line)}\n`).join("") + text;
      this.headerWritten = true;
      this.seed = [];
    }
    appendFileSync(this.file, text, { mode: 0o600 });
  }
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
  // Only regular files: a dangling link or a folder named `*.jsonl` is not a session to continue.
  const newest = names
    .flatMap((name) => {
      try {
        const stats = statSync(join(directory, name));
        return stats.isFile() ? [{ name, mtime: stats.mtimeMs }] : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.mtime - a.mtime)[0];
  return newest?.name.slice(0, -".jsonl".length);
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
