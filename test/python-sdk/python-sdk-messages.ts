/**
 * What the Python Agent SDK makes of agentwire's stdout, without Python: the routing of its
 * Query reader (control lines never reach the user), the fields its message_parser.py reads
 * without a default (a missing one raises MessageParseError and ends the user's loop), and the
 * same reduction uses.py applies to the typed messages, so one set of expectations serves the
 * real run and the replay. Read from claude_agent_sdk 0.2.143 (_internal/query.py,
 * _internal/message_parser.py, _errors.py).
 */

/** One message as the tests look at it (uses.py `observe` builds the same from the SDK's types). */
export type Observation =
  | { type: "system"; subtype: string; model?: unknown; mcp_servers?: unknown; session_id?: unknown; permissionMode?: unknown }
  | { type: "assistant"; model: string; error: unknown; content: Block[] }
  | { type: "user"; content: string | Block[] }
  | {
      type: "result";
      subtype: string;
      is_error: boolean;
      result: unknown;
      session_id: string;
      num_turns: number;
      structured_output: unknown;
      permission_denials: unknown[];
      errors: unknown;
    }
  | { type: "stream_event"; event_type: unknown }
  | { type: "other"; name: string };

export type Block =
  | { type: "text"; text: string }
  | { type: "thinking" }
  | { type: "tool_use"; name: string; input: unknown }
  | { type: "tool_result"; content: unknown; is_error: boolean }
  | { type: "other"; name: string };

/** Lines the SDK's reader keeps for itself: they never become messages. */
const CONTROL_TYPES = new Set(["control_response", "control_request", "control_cancel_request", "transcript_mirror"]);

export function isControlLine(line: Record<string, unknown>): boolean {
  return CONTROL_TYPES.has(String(line.type));
}

/** A stdout line the SDK would fail to parse: the field it reads without a default. */
export class PythonParseError extends Error {}

type Data = Record<string, unknown>;

/** Index access that fails the way Python's `data["key"]` does on a dict without it. */
function required(data: unknown, key: string, where: string): unknown {
  if (typeof data !== "object" || data === null || !(key in data))
    throw new PythonParseError(`Missing required field in ${where}: '${key}'`);
  return (data as Data)[key];
}

const SYSTEM_KEPT = ["model", "mcp_servers", "session_id", "permissionMode"] as const;

/** The fields system messages of these subtypes must carry (the SDK's typed system messages). */
const SYSTEM_REQUIRED: Record<string, string[]> = {
  task_started: ["task_id", "description", "uuid", "session_id"],
  task_progress: ["task_id", "description", "usage", "uuid", "session_id"],
  task_notification: ["task_id", "status", "output_file", "summary", "uuid", "session_id"],
};

/** The observation of one non-control stdout line, or null for a type the SDK skips. */
export function observeLine(data: Data): Observation | null {
  const type = data.type;
  if (type === "system" && (data.subtype === "hook_started" || data.subtype === "hook_response")) return systemObservation(data);
  if (!type) throw new PythonParseError("Message missing 'type' field");
  switch (type) {
    case "user": {
      const message = required(data, "message", "user message");
      const content = required(message, "content", "user message");
      if (!Array.isArray(content)) return { type: "user", content: content as string };
      return { type: "user", content: content.flatMap((block) => userBlock(block)) };
    }
    case "assistant": {
      const message = required(data, "message", "assistant message");
      const content = required(message, "content", "assistant message");
      if (!Array.isArray(content)) throw new PythonParseError(`Invalid assistant content (expected list, got ${typeof content})`);
      const blocks = content.flatMap((block) => assistantBlock(block));
      return {
        type: "assistant",
        model: required(message, "model", "assistant message") as string,
        error: data.error ?? null,
        content: blocks,
      };
    }
    case "system": {
      const subtype = required(data, "subtype", "system message") as string;
      for (const key of SYSTEM_REQUIRED[subtype] ?? []) required(data, key, "system message");
      return systemObservation(data);
    }
    case "result": {
      for (const key of ["subtype", "duration_ms", "duration_api_ms", "is_error", "num_turns", "session_id"])
        required(data, key, "result message");
      const deferred = data.deferred_tool_use as Data | undefined | null;
      if (deferred) for (const key of ["id", "name", "input"]) required(deferred, key, "result message");
      const denials = (data.permission_denials as Array<{ tool_name?: unknown }> | undefined | null) ?? [];
      return {
        type: "result",
        subtype: data.subtype as string,
        is_error: data.is_error as boolean,
        result: data.result ?? null,
        session_id: data.session_id as string,
        num_turns: data.num_turns as number,
        structured_output: data.structured_output ?? null,
        permission_denials: denials.map((denial) => denial.tool_name ?? null),
        errors: data.errors ?? null,
      };
    }
    case "stream_event":
      for (const key of ["uuid", "session_id", "event"]) required(data, key, "stream_event message");
      return { type: "stream_event", event_type: (data.event as Data).type ?? null };
    case "rate_limit_event": {
      const info = required(data, "rate_limit_info", "rate_limit_event message");
      required(info, "status", "rate_limit_event message");
      for (const key of ["uuid", "session_id"]) required(data, key, "rate_limit_event message");
      return { type: "other", name: "RateLimitEvent" };
    }
    case "conversation_reset":
      for (const key of ["new_conversation_id", "uuid", "session_id"]) required(data, key, "conversation_reset message");
      return { type: "other", name: "ConversationResetMessage" };
    default:
      // Newer message types are skipped, not fatal.
      return null;
  }
}

function systemObservation(data: Data): Observation {
  const kept = Object.fromEntries(SYSTEM_KEPT.filter((key) => key in data).map((key) => [key, data[key]]));
  return { type: "system", subtype: data.subtype as string, ...kept };
}

function blockData(block: unknown): Data {
  if (typeof block !== "object" || block === null) throw new PythonParseError(`Invalid content block (expected dict, got ${typeof block})`);
  required(block, "type", "content block");
  return block as Data;
}

/** User content keeps text, tool_use and tool_result blocks; the SDK drops any other kind. */
function userBlock(raw: unknown): Block[] {
  const block = blockData(raw);
  switch (block.type) {
    case "text":
      return [{ type: "text", text: required(block, "text", "user message") as string }];
    case "tool_use":
      return [toolUse(block, "user message")];
    case "tool_result":
      return [toolResult(block, "user message")];
    default:
      return [];
  }
}

function assistantBlock(raw: unknown): Block[] {
  const block = blockData(raw);
  switch (block.type) {
    case "text":
      return [{ type: "text", text: required(block, "text", "assistant message") as string }];
    case "thinking":
      required(block, "thinking", "assistant message");
      required(block, "signature", "assistant message");
      return [{ type: "thinking" }];
    case "tool_use":
      return [toolUse(block, "assistant message")];
    case "tool_result":
      return [toolResult(block, "assistant message")];
    case "server_tool_use":
      for (const key of ["id", "name", "input"]) required(block, key, "assistant message");
      return [{ type: "other", name: "ServerToolUseBlock" }];
    case "advisor_tool_result":
      for (const key of ["tool_use_id", "content"]) required(block, key, "assistant message");
      return [{ type: "other", name: "ServerToolResultBlock" }];
    default:
      return [];
  }
}

function toolUse(block: Data, where: string): Block {
  required(block, "id", where);
  return { type: "tool_use", name: required(block, "name", where) as string, input: required(block, "input", where) };
}

function toolResult(block: Data, where: string): Block {
  required(block, "tool_use_id", where);
  return { type: "tool_result", content: block.content ?? null, is_error: Boolean(block.is_error) };
}

/**
 * What a `query()` loop raises when the process exits with `code`: the SDK turns a non-zero exit
 * after an error result into ResultError with that result's words, any other into ProcessError.
 * `lastMessage` is the last line it routed to the user.
 */
export function raisedOnExit(code: number | null, lastMessage: Data | undefined): string | null {
  if (code === 0) return null;
  const exitCode = code ?? -1;
  if (lastMessage?.type === "result" && lastMessage.is_error === true) {
    return `ResultError: Claude Code returned an error result: ${errorResultText(lastMessage)} (exit code: ${exitCode})`;
  }
  return `ProcessError: Command failed with exit code ${exitCode} (exit code: ${exitCode})\nError output: Check stderr output for details`;
}

/** The words the SDK picks from an error result: its errors, its result text, its subtype, its HTTP status. */
function errorResultText(result: Data): string {
  const errors = (Array.isArray(result.errors) ? result.errors : typeof result.errors === "string" ? [result.errors] : [])
    .filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "")
    .map((entry) => entry.trim());
  if (errors.length > 0) return errors.join("; ");
  if (typeof result.result === "string" && result.result.trim() !== "") return result.result.trim();
  if (typeof result.subtype === "string" && result.subtype !== "" && result.subtype !== "success") return result.subtype;
  if (result.api_error_status !== undefined && result.api_error_status !== null)
    return `API error (HTTP ${String(result.api_error_status)})`;
  return "unknown error";
}
