import * as z from "zod";
import { toolError } from "../tools/define-tool.js";
import type { ToolContext, ToolDefinition } from "../tools/define-tool.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { redactToolResult } from "../tools/redact-secrets.js";
import { findTool } from "../tools/registry.js";
import { PARSE_ONCE } from "../validation/parse-once.js";

/** One `tool_use` block as the model sent it. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/**
 * Runs one tool call to its single terminal result: look the tool up, validate the input (the
 * only place tool input is validated), execute, and redact well-known secrets from everything
 * the result carries (model content and consumer details) before anyone sees it.
 *
 * Contract: never throws. Unknown tools, invalid input, aborts and exceptions from `execute` all
 * come back as error results with a code (`unknown_tool`, `invalid_input`, `aborted`,
 * `internal_error`) and a message that tells the model how to fix the call. Writes nothing to
 * stdout and touches no files itself; the redaction count goes to `context.log`, which the
 * session turns into a `secrets_redacted` warning.
 */
export async function runToolCall(call: ToolCall, tools: readonly ToolDefinition[], context: ToolContext): Promise<ToolResult> {
  const { result, count, kinds } = redactToolResult(await executeToolCall(call, tools, context));
  if (count > 0) {
    context.log?.warn(`Redacted ${count} secret(s) (${kinds.join(", ")}) from the ${call.name} result before it reached the model.`);
  }
  return result;
}

/**
 * The error result for a call that cannot run as sent — an unknown tool, or input its schema
 * rejects — or undefined for a well-formed call. Asked before permission: a malformed call is
 * the model's mistake to correct, not a question for the user, a hook or a host.
 */
export function rejectMalformedToolCall(call: ToolCall, tools: readonly ToolDefinition[]): ToolResult | undefined {
  const checked = checkToolCall(call, tools);
  return "error" in checked ? redactToolResult(checked.error).result : undefined;
}

function checkToolCall(call: ToolCall, tools: readonly ToolDefinition[]): { tool: ToolDefinition; input: unknown } | { error: ToolResult } {
  const tool = findTool(tools, call.name);
  if (tool === undefined) {
    const availableNames = tools.map((availableTool) => availableTool.name).join(", ");
    return {
      error: toolError(
        "unknown_tool",
        `<tool_use_error>Error: No such tool available: ${call.name}. Available tools: ${availableNames}.</tool_use_error>`,
      ),
    };
  }
  // zod's top-level parse, not the schema's method: a tool's schema may be of either flavour.
  const parsed = z.safeParse(tool.inputSchema, call.input, PARSE_ONCE);
  if (!parsed.success) return { error: toolError("invalid_input", describeInputIssues(tool, call.input, parsed.error.issues)) };
  return { tool, input: parsed.data };
}

async function executeToolCall(call: ToolCall, tools: readonly ToolDefinition[], context: ToolContext): Promise<ToolResult> {
  // Checked again here: a hook or host may have replaced the input after the first check.
  const checked = checkToolCall(call, tools);
  if ("error" in checked) return checked.error;
  const { tool } = checked;

  if (context.signal.aborted) return abortedResult(tool.name);
  try {
    return await tool.execute(checked.input, context);
  } catch (error) {
    // Tools may simply throw the abort reason (e.g. `signal.throwIfAborted()`) when interrupted.
    if (context.signal.aborted) return abortedResult(tool.name);
    const message = error instanceof Error ? error.message : String(error);
    return toolError("internal_error", `<tool_use_error>Error: ${tool.name} failed unexpectedly: ${message}</tool_use_error>`);
  }
}

function abortedResult(toolName: string): ToolResult {
  return toolError("aborted", `The ${toolName} call was interrupted before it finished.`);
}

/** Lists every issue with its input path, so the model can correct all of them in one retry. */
function describeInputIssues(tool: ToolDefinition, input: Record<string, unknown>, issues: readonly z.core.$ZodIssue[]): string {
  const issueLines = issues.flatMap((issue) => describeIssue(tool, input, issue));
  return (
    `<tool_use_error>InputValidationError: ${tool.name} failed due to the following issue(s):\n` +
    `${issueLines.join("\n")}</tool_use_error>`
  );
}

function describeIssue(tool: ToolDefinition, input: Record<string, unknown>, issue: z.core.$ZodIssue): string[] {
  if (issue.code === "unrecognized_keys") {
    const acceptedNames = issue.path.length === 0 ? topLevelParameterNames(tool) : [];
    const acceptedHint = acceptedNames.length > 0 ? `; accepted parameters are ${acceptedNames.join(", ")}` : "";
    return issue.keys.map((key) => `  - ${formatIssuePath([...issue.path, key])}: unexpected parameter${acceptedHint}`);
  }
  // zod words a missing field as "expected string, received undefined"; say it plainly.
  if (issue.code === "invalid_type" && valueAtPath(input, issue.path) === undefined) {
    return [`  - ${formatIssuePath(issue.path)}: required parameter is missing (expected ${issue.expected})`];
  }
  return [`  - ${formatIssuePath(issue.path)}: ${issue.message}`];
}

function topLevelParameterNames(tool: ToolDefinition): string[] {
  // Read from the core definition, which both zod flavours share: a built-in tool's schema is a
  // zod/mini object, not an instance of classic's ZodObject.
  const { def } = tool.inputSchema._zod;
  return def.type === "object" ? Object.keys((def as z.core.$ZodObjectDef).shape) : [];
}

function valueAtPath(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function formatIssuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(input)" : path.map(String).join(".");
}
