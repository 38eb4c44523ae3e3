import type { ImageBlock, TextBlock, ToolReferenceBlock } from "./messages.js";

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
  /** Edit: old_string occurs nowhere, not even approximately. */
  | "edit_no_match"
  /** Edit: old_string occurs more than once and replace_all is not set. */
  | "edit_not_unique"
  /** Edit: no exact match, and several places match approximately equally well. */
  | "edit_ambiguous"
  /** Write/Edit/NotebookEdit: the new text contains a `[REDACTED:…]` placeholder that would overwrite a secret. */
  | "redacted_secret"
  /** NotebookEdit: the file is not a notebook in nbformat 4 (not JSON, or not the format); it is left as it was. */
  | "invalid_notebook"
  | "command_failed"
  | "timeout"
  | "aborted"
  | "io_error"
  /** WebSearch: the provider has no search of its own and no search backend is configured. */
  | "not_configured"
  | "internal_error";

/** What a tool hands back. `content` goes to the model; `details` goes to stream consumers only. */
export interface ToolResult {
  content: string | Array<TextBlock | ImageBlock | ToolReferenceBlock>;
  isError: boolean;
  /** Set when `isError`: which expected failure this is. */
  code?: ToolErrorCode;
  /**
   * Structured output for consumers (`tool_use_result` on the `user` stdout line), in Claude
   * Code's shape for that tool. For errors Claude Code sends the string "Error: <message>".
   */
  details?: unknown;
  /**
   * The turn ends with this call's result, without asking the model again (Claude Code's
   * end-turn tools, e.g. StructuredOutput); `output` becomes the result's `structured_output`.
   */
  endTurn?: { output: unknown };
  /**
   * Text that follows the tool results in the same user message, outside them (ToolSearch's
   * `Tool loaded.` beside its tool references, as Claude Code sends it).
   */
  appendedText?: string;
}
