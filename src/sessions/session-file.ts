import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import * as z from "zod/mini";
import "../validation/english-issues.js";
import { lazySchema } from "../validation/lazy-schema.js";
import { messageSchema } from "../conversation/messages.js";
import { modelUsageFields } from "../../protocol/model-usage.js";

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

export const headerSchema = lazySchema(() =>
  z.object({
    type: z.literal("session"),
    version: z.int(),
    session_id: z.string(),
    cwd: z.string(),
    created_at: z.string(),
    agentwire_version: z.string(),
    /** `--fork-session`: the session this one was copied from. */
    forked_from: z.optional(z.string()),
  }),
);
const messageEntrySchema = lazySchema(() =>
  z.object({
    type: z.literal("message"),
    message: messageSchema(),
    timestamp: z.string(),
    /**
     * The structured results of the message's tool calls by tool_use id (stream-json's
     * `tool_use_result`: a diff, a command's exit code), so a transcript read back shows what was
     * shown live. Never sent to the model; absent in files written before it existed.
     */
    tool_use_results: z.optional(z.record(z.string(), z.unknown())),
  }),
);
/** One model's usage, as the result event has it (protocol/model-usage.ts). */
const modelUsageEntrySchema = lazySchema(() =>
  z.strictObject(
    modelUsageFields(
      () => z.int().check(z.nonnegative()),
      () => z.number().check(z.nonnegative()),
    ),
  ),
);

export const turnEndEntrySchema = lazySchema(() =>
  z.object({
    type: z.literal("turn_end"),
    total_cost_usd: z.number(),
    model_usage: z.record(z.string(), modelUsageEntrySchema()),
    timestamp: z.string(),
  }),
);
const compactionEntrySchema = lazySchema(() =>
  z.object({
    type: z.literal("compaction"),
    trigger: z.enum(["auto", "manual", "clear"]),
    pre_tokens: z.number(),
    post_tokens: z.number(),
    /** The whole conversation from here on (a summary and what was kept; empty after /clear). */
    messages: z.array(messageSchema()),
    timestamp: z.string(),
  }),
);
export const entrySchema = lazySchema(() =>
  z.discriminatedUnion("type", [messageEntrySchema(), turnEndEntrySchema(), compactionEntrySchema()]),
);

/** The one JSON document `agentwire sessions export --format json` writes: the header, then every entry (each checked on import). */
export const exportedSessionSchema = lazySchema(() => z.object({ session: headerSchema(), entries: z.array(z.unknown()) }));

export type SessionModelUsage = z.infer<ReturnType<typeof turnEndEntrySchema>>["model_usage"];

/** `~/.agentwire` unless AGENTWIRE_HOME says otherwise. */
export function agentwireHome(env: NodeJS.ProcessEnv): string {
  return env.AGENTWIRE_HOME || join(homedir(), ".agentwire");
}

/** Claude Code's project key: every non-alphanumeric character of the cwd becomes "-". */
export function projectKey(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

export type SessionHeader = z.infer<ReturnType<typeof headerSchema>>;
export type SessionEntry = z.infer<ReturnType<typeof entrySchema>>;

export function sessionFile(home: string, cwd: string, sessionId: string): string {
  return join(home, "projects", projectKey(cwd), `${sessionId}.jsonl`);
}

export function fileExists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
