import type { z } from "zod";
import type { ImageBlock, TextBlock } from "../agent/messages.js";

/**
 * Machine-readable codes for expected tool failures. Consumers of the JSONL can branch on these;
 * the model gets the human message.
 */
export type ToolErrorCode =
  | "invalid_input"
  | "unknown_tool"
  | "file_not_found"
  | "is_directory"
  | "not_a_file"
  | "permission_denied"
  | "outside_workspace"
  | "command_failed"
  | "timeout"
  | "aborted"
  | "io_error"
  | "internal_error";

/** What a tool hands back. `content` goes to the model; `details` goes to stream consumers only. */
export interface ToolResult {
  content: string | Array<TextBlock | ImageBlock>;
  isError: boolean;
  /** Set when `isError`: which expected failure this is. */
  code?: ToolErrorCode;
  /**
   * Structured output for consumers (`tool_use_result` on the `user` stdout line), in Claude
   * Code's shape for that tool. For errors Claude Code sends the string "Error: <message>".
   */
  details?: unknown;
}

export interface ToolContext {
  /** Absolute session working directory; relative paths resolve against it. */
  cwd: string;
  /** Aborted on interrupt; a tool must stop promptly and kill any child processes. */
  signal: AbortSignal;
  /** Optional progress text for long-running tools. */
  onProgress?: (message: string) => void;
  /** Per-session mutable state a tool may keep between calls (e.g. Bash's working directory). */
  sessionState: Map<string, unknown>;
}

/**
 * One tool = a name, a description (prompt text for the model), a zod input schema, and an
 * execute function.
 *
 * Contract: `execute` receives input already validated against `inputSchema` (the tool runner
 * validates; tools never re-parse). Expected failures are returned as `{isError: true, code}`
 * results with a message that tells the model what to do next. Only broken infrastructure
 * throws, and the runner turns a throw into an `internal_error` result as well.
 */
export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: Schema;
  /** Read-only tools may run concurrently with each other. */
  readOnly: boolean;
  execute(input: z.infer<Schema>, context: ToolContext): Promise<ToolResult>;
}

/** Identity function that exists for type inference of `execute`'s input. */
export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return definition;
}

/** An expected failure, with Claude Code's `tool_use_result` string form. */
export function toolError(code: ToolErrorCode, message: string): ToolResult {
  return { content: message, isError: true, code, details: `Error: ${message}` };
}
