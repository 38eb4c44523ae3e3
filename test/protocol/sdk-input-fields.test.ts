import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { InputCommandSchema } from "../../protocol/commands.js";
import {
  HookOutputSchema,
  InitializeRequestSchema,
  InterruptRequestSchema,
  McpMessageResponseSchema,
  McpStatusRequestSchema,
  PermissionResultSchema,
  SetMaxThinkingTokensRequestSchema,
  SetModelRequestSchema,
  SetPermissionModeRequestSchema,
} from "../../protocol/control.js";
import { ROOT } from "../helpers/agentwire.js";

/**
 * Every field of every line the two official Agent SDKs write to agentwire's stdin (TypeScript
 * 0.3.330: sdk.d.ts, sdk.mjs; Python 0.2.143: _internal/query.py, client.py, types.py), each
 * sent absent, as null, and beside an unknown field. The kinds:
 * - `required`: absent or null is refused (Claude Code refuses it too, or nothing can be done);
 * - `absent`: read; null means the same as absent;
 * - `own`: read; null means something of its own (set_max_thinking_tokens: the first budget);
 * - `ignored`: not read; any value, null included, is passed over.
 * protocol/README.md ("What the Agent SDKs send, field by field") documents the same table; a
 * test below keeps the two the same.
 */
type Kind = "required" | "absent" | "own" | "ignored";

interface MessageCase {
  /** As protocol/README.md §9 names it. */
  message: string;
  schema: z.ZodType;
  /** A complete example, every field present, as an SDK sends it. */
  example: Record<string, unknown>;
  /** Paths into `example` (dots; array indexes as numbers) and their kind. */
  fields: Record<string, Kind>;
  /** What a newer SDK's unknown key would hold, by the path of the object it is added to, where not any value will do (a new hook event holds matchers). */
  newKeys?: Record<string, unknown>;
}

const toolInput = { file_path: "notes.txt" };

const CASES: MessageCase[] = [
  {
    message: "control_request",
    schema: InputCommandSchema,
    example: { type: "control_request", request_id: "req_1_5f3a9c2e", request: { subtype: "interrupt" } },
    fields: { type: "required", request_id: "required", request: "required", "request.subtype": "required" },
  },
  {
    message: "initialize",
    schema: InitializeRequestSchema,
    example: {
      subtype: "initialize",
      hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_0"], timeout: 30, onFailure: "continue", contextOnly: false }] },
      sdkMcpServers: ["calc"],
      sdkMcpServerConfigs: { calc: { timeout: 5000 } },
      sdkMcpServerManifests: {
        calc: {
          initializeResult: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "calc", version: "1" } },
        },
      },
      jsonSchema: { type: "object", properties: { answer: { type: "string" } } },
      systemPrompt: [""],
      appendSystemPrompt: "Be brief.",
      agents: { reviewer: { description: "Reviews", prompt: "Review it." } },
      excludeDynamicSections: true,
      skills: ["pdf"],
      title: "A session",
      forwardSubagentText: true,
      promptSuggestions: false,
      agentProgressSummaries: false,
      supportedDialogKinds: [],
      plugins: [],
      mcpServers: {},
      settings: {},
      disallowedTools: [],
    },
    newKeys: { hooks: [{ hookCallbackIds: ["hook_9"] }] },
    fields: {
      hooks: "absent",
      "hooks.PreToolUse": "absent",
      "hooks.PreToolUse.0.matcher": "absent",
      "hooks.PreToolUse.0.hookCallbackIds": "required",
      "hooks.PreToolUse.0.timeout": "absent",
      "hooks.PreToolUse.0.onFailure": "ignored",
      "hooks.PreToolUse.0.contextOnly": "ignored",
      sdkMcpServers: "absent",
      sdkMcpServerConfigs: "ignored",
      sdkMcpServerManifests: "absent",
      jsonSchema: "absent",
      systemPrompt: "ignored",
      appendSystemPrompt: "ignored",
      agents: "absent",
      excludeDynamicSections: "ignored",
      skills: "ignored",
      title: "ignored",
      forwardSubagentText: "ignored",
      promptSuggestions: "ignored",
      agentProgressSummaries: "ignored",
      supportedDialogKinds: "ignored",
      plugins: "ignored",
      mcpServers: "ignored",
      settings: "ignored",
      disallowedTools: "ignored",
    },
  },
  {
    message: "interrupt",
    schema: InterruptRequestSchema,
    example: { subtype: "interrupt", cancel_queued: true },
    fields: { cancel_queued: "ignored" },
  },
  {
    message: "set_permission_mode",
    schema: SetPermissionModeRequestSchema,
    example: { subtype: "set_permission_mode", mode: "acceptEdits", answers_bypass_switch_back: false },
    fields: { mode: "required", answers_bypass_switch_back: "ignored" },
  },
  { message: "set_model", schema: SetModelRequestSchema, example: { subtype: "set_model", model: "haiku" }, fields: { model: "absent" } },
  {
    message: "set_max_thinking_tokens",
    schema: SetMaxThinkingTokensRequestSchema,
    example: { subtype: "set_max_thinking_tokens", max_thinking_tokens: 4096, thinking_display: "summarized" },
    fields: { max_thinking_tokens: "own", thinking_display: "ignored" },
  },
  {
    message: "mcp_status",
    schema: McpStatusRequestSchema,
    example: { subtype: "mcp_status", liveReply: false },
    fields: { liveReply: "ignored" },
  },
  {
    message: "user",
    schema: InputCommandSchema,
    example: {
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "Hello." }] },
      parent_tool_use_id: null,
      session_id: "default",
      uuid: "2f0d3f5e-8d43-4f3c-9d2c-6f1b5a7c9e01",
      priority: "next",
      isSynthetic: false,
      shouldQuery: true,
      client_composed: true,
    },
    fields: {
      type: "required",
      message: "required",
      "message.role": "required",
      "message.content": "required",
      parent_tool_use_id: "ignored",
      session_id: "ignored",
      uuid: "ignored",
      priority: "ignored",
      isSynthetic: "ignored",
      shouldQuery: "ignored",
      client_composed: "ignored",
    },
  },
  {
    message: "control_response",
    schema: InputCommandSchema,
    example: {
      type: "control_response",
      response: {
        subtype: "error",
        request_id: "0b6e",
        error: "No hook callback found for ID: hook_9",
        error_code: "not_found",
        response: {},
      },
      pending_permission_requests: [],
    },
    fields: {
      response: "required",
      "response.subtype": "required",
      "response.request_id": "required",
      "response.response": "absent",
      "response.error": "absent",
      "response.error_code": "ignored",
      pending_permission_requests: "ignored",
    },
  },
  {
    message: "can_use_tool answer (allow)",
    schema: PermissionResultSchema,
    example: {
      behavior: "allow",
      updatedInput: toolInput,
      updatedPermissions: [
        { type: "addRules", rules: [{ toolName: "Read", ruleContent: "notes.txt" }], behavior: "allow", destination: "session" },
      ],
      toolUseID: "toolu_01",
    },
    fields: {
      behavior: "required",
      updatedInput: "absent",
      updatedPermissions: "absent",
      "updatedPermissions.0.type": "required",
      "updatedPermissions.0.rules": "required",
      "updatedPermissions.0.rules.0.toolName": "required",
      "updatedPermissions.0.rules.0.ruleContent": "absent",
      "updatedPermissions.0.behavior": "required",
      "updatedPermissions.0.destination": "ignored",
      toolUseID: "ignored",
    },
  },
  {
    message: "can_use_tool answer (deny)",
    schema: PermissionResultSchema,
    example: { behavior: "deny", message: "Not now.", interrupt: true, toolUseID: "toolu_01" },
    fields: { behavior: "required", message: "absent", interrupt: "absent", toolUseID: "ignored" },
  },
  {
    message: "hook_callback answer",
    schema: HookOutputSchema,
    example: {
      continue: true,
      stopReason: "Enough.",
      decision: "block",
      reason: "Not allowed here.",
      systemMessage: "A hook blocked this.",
      suppressOutput: false,
      async: false,
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "No.",
        updatedInput: toolInput,
        additionalContext: "Remember the style guide.",
      },
    },
    fields: {
      continue: "absent",
      stopReason: "absent",
      decision: "absent",
      reason: "absent",
      systemMessage: "absent",
      suppressOutput: "ignored",
      async: "ignored",
      hookSpecificOutput: "absent",
      "hookSpecificOutput.hookEventName": "absent",
      "hookSpecificOutput.permissionDecision": "absent",
      "hookSpecificOutput.permissionDecisionReason": "absent",
      "hookSpecificOutput.updatedInput": "absent",
      "hookSpecificOutput.additionalContext": "absent",
    },
  },
  {
    message: "mcp_message answer",
    schema: McpMessageResponseSchema,
    example: {
      mcp_response: {
        jsonrpc: "2.0",
        id: 2,
        result: { content: [{ type: "text", text: "3" }] },
        error: { code: -32601, message: "Server 'x' not found" },
      },
    },
    fields: {
      mcp_response: "required",
      "mcp_response.result": "absent",
      "mcp_response.error": "absent",
      "mcp_response.jsonrpc": "ignored",
      "mcp_response.id": "ignored",
    },
  },
  {
    message: "control_cancel_request",
    schema: InputCommandSchema,
    example: { type: "control_cancel_request", request_id: "0b6e" },
    fields: { request_id: "required" },
  },
  {
    message: "keep_alive",
    schema: InputCommandSchema,
    example: { type: "keep_alive", startup_mark: "sdk_ready" },
    fields: { startup_mark: "ignored" },
  },
];

/** Control requests the SDKs send that agentwire does not implement: any shape is read, and answered with an error. */
const UNIMPLEMENTED: Array<Record<string, unknown>> = [
  { subtype: "get_context_usage", detail: null },
  { subtype: "rewind_files", user_message_id: "2f0d", dry_run: null },
  { subtype: "mcp_reconnect", serverName: "calc" },
  { subtype: "mcp_toggle", serverName: "calc", enabled: false },
  { subtype: "mcp_set_servers", servers: {} },
  { subtype: "stop_task", task_id: "task_1" },
  { subtype: "apply_flag_settings", settings: {} },
  { subtype: "get_settings" },
  { subtype: "background_tasks", tool_use_id: null },
  { subtype: "cancel_async_message", message_uuid: "2f0d" },
  { subtype: "mcp_read_resource", serverName: "calc", uri: "file:///x" },
];

type Path = Array<string | number>;
const parsePath = (path: string): Path => path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));

function edited(
  example: Record<string, unknown>,
  path: Path,
  edit: (parent: Record<string | number, unknown>, key: string | number) => void,
): Record<string, unknown> {
  const copy = structuredClone(example);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  edit(parent, path.at(-1)!);
  return copy;
}

const without = (example: Record<string, unknown>, path: string) =>
  edited(example, parsePath(path), (parent, key) => (Array.isArray(parent) ? parent.splice(key as number, 1) : delete parent[key]));
const withValue = (example: Record<string, unknown>, path: string, value: unknown) =>
  edited(example, parsePath(path), (parent, key) => (parent[key] = value));

const rows = CASES.flatMap((entry) => Object.entries(entry.fields).map(([field, kind]) => ({ ...entry, field, kind })));

describe("what the Agent SDKs send: every field absent, null, and beside an unknown field", () => {
  it.each(CASES.map((entry) => [entry.message, entry] as const))("%s: the complete example is read", (_name, entry) => {
    expect(entry.schema.safeParse(entry.example).error).toBeUndefined();
  });

  it.each(rows.map((row) => [row.message, row.field, row.kind, row] as const))("%s.%s (%s)", (_message, field, kind, row) => {
    const absent = row.schema.safeParse(without(row.example, field));
    const nulled = row.schema.safeParse(withValue(row.example, field, null));
    switch (kind) {
      case "required":
        expect(absent.success, "absent is refused").toBe(false);
        expect(nulled.success, "null is refused").toBe(false);
        break;
      case "absent":
        expect(absent.error, "absent is read").toBeUndefined();
        expect(nulled.error, "null is read").toBeUndefined();
        expect(nulled.data, "null reads as absent").toEqual(absent.data);
        break;
      case "own":
        expect(absent.error).toBeUndefined();
        expect(nulled.error).toBeUndefined();
        expect(nulled.data, "null is not the same as absent").not.toEqual(absent.data);
        break;
      case "ignored":
        expect(absent.error, "absent is fine").toBeUndefined();
        expect(nulled.error, "null is fine").toBeUndefined();
        expect(row.schema.safeParse(withValue(row.example, field, { any: ["shape"] })).error, "any value is fine").toBeUndefined();
        break;
    }
    // An unknown field beside this one (a newer SDK's) is passed over.
    const parent = field.split(".").slice(0, -1).join(".");
    const sibling = parent === "" ? "x_newer_sdk_field" : `${parent}.x_newer_sdk_field`;
    const target =
      parent === ""
        ? row.example
        : (parsePath(parent).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], row.example) as unknown);
    if (!Array.isArray(target))
      expect(row.schema.safeParse(withValue(row.example, sibling, row.newKeys?.[parent] ?? { from: "the future" })).error).toBeUndefined();
  });

  it.each(UNIMPLEMENTED.map((request) => [request.subtype as string, request] as const))(
    "%s: read whatever its shape (and answered with an error)",
    (_subtype, request) => {
      expect(InputCommandSchema.safeParse({ type: "control_request", request_id: "req_9", request }).error).toBeUndefined();
      expect(
        InputCommandSchema.safeParse({ type: "control_request", request_id: "req_9", request: { ...request, x_newer_sdk_field: null } })
          .error,
      ).toBeUndefined();
    },
  );

  it("null, where it means absent, takes the absent default: a deny without a message says the host denied it", () => {
    expect(PermissionResultSchema.parse({ behavior: "deny", message: null })).toMatchObject({ message: "Denied by the host." });
    expect(
      SetMaxThinkingTokensRequestSchema.parse({ subtype: "set_max_thinking_tokens", max_thinking_tokens: null }).max_thinking_tokens,
    ).toBeNull();
  });
});

describe("protocol/README.md documents this table", () => {
  const readme = readFileSync(join(ROOT, "protocol", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(". What the Agent SDKs send, field by field"));
  const documented = [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| ([^|]+) \|/gm)].map((match) => ({
    message: match[1]!,
    field: match[2]!,
    nullMeans: match[3]!.trim(),
  }));
  const NULL_MEANS: Record<Kind, string> = { required: "refused", absent: "absent", own: "its own meaning", ignored: "ignored" };

  it("every field tested is documented, with what null means, and nothing else", () => {
    const tested = rows.map((row) => ({ message: row.message, field: row.field, nullMeans: NULL_MEANS[row.kind] }));
    const unimplemented = UNIMPLEMENTED.map((request) => ({ message: request.subtype as string, field: "*", nullMeans: "ignored" }));
    const key = (row: { message: string; field: string; nullMeans: string }) => `${row.message} | ${row.field} | ${row.nullMeans}`;
    expect(documented.map(key).sort()).toEqual([...tested, ...unimplemented].map(key).sort());
  });
});
