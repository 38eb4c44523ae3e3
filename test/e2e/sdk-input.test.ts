import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { resolveModelAlias } from "../../src/providers/models.js";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";
import { inProcessMcpServers, startControlHost, type HostRequest } from "../helpers/control-host.js";

/**
 * The stdin boundary as the Agent SDKs cross it, through the built binary: the lines the Python
 * SDK writes (nulls for what it leaves unset, its initialize, its in-process MCP servers announced
 * only in --mcp-config) and the control requests agentwire does not implement.
 */
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

/** The Python SDK's first line, byte for byte but for the random part of the id. */
const PYTHON_INITIALIZE = { type: "control_request", request_id: "req_1_5f3a9c2e", request: { subtype: "initialize", hooks: null } };
const pythonUser = (content: string) => ({
  type: "user",
  message: { role: "user", content },
  parent_tool_use_id: null,
  session_id: "default",
});

const calc = {
  name: "add",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: ({ a, b }: Record<string, unknown>) => String(Number(a) + Number(b)),
};

function initOf(events: OutputEvent[]) {
  const init = events.find((event) => event.type === "system" && event.subtype === "init");
  if (init?.type !== "system" || init.subtype !== "init") throw new Error("no system/init");
  return init;
}

function answerTo(events: OutputEvent[], requestId: string) {
  const answer = events.find((event) => event.type === "control_response" && event.response.request_id === requestId);
  if (answer?.type !== "control_response") throw new Error(`no answer to ${requestId}`);
  return answer.response;
}

/** The tool results the model received in a request body (Anthropic wire format). */
function toolResultsSent(body: unknown): string[] {
  const messages = (body as { messages: Array<{ content: unknown }> }).messages;
  return messages
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as Array<{ type: string }>) : []))
    .filter((block) => block.type === "tool_result")
    .map((block) => JSON.stringify(block));
}

const countResults = (count: number) => (events: OutputEvent[]) => results(events).length >= count;

describe("the Python Agent SDK's stdin, through the binary", () => {
  it("in-process MCP tools announced only in --mcp-config: handshake through the host, the model calls one, its result reaches the model", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "mcp__calc__add", input: { a: 1, b: 2 } }] },
        { tool_calls: [{ name: "mcp__calc__add", input: { a: 40, b: 2 } }] },
        { text: "Sums done." },
      ],
    });
    const mcp = inProcessMcpServers({ calc: [calc] });
    const host = startControlHost(
      ["--permission-prompt-tool", "stdio", "--mcp-config", JSON.stringify({ mcpServers: { calc: { type: "sdk", name: "calc" } } })],
      {
        workspace,
        answer: (request) => {
          if (request.subtype === "mcp_message") return mcp(request);
          // The Python SDK's "always allow": a rule without content comes as ruleContent null.
          if (request.subtype === "can_use_tool") {
            return {
              behavior: "allow",
              updatedInput: request.input as Record<string, unknown>,
              updatedPermissions: [
                { type: "addRules", rules: [{ toolName: "mcp__calc__add", ruleContent: null }], behavior: "allow", destination: "session" },
              ],
            };
          }
          return { error: `unexpected ${request.subtype}` };
        },
      },
    );
    host.send(PYTHON_INITIALIZE);
    host.send(pythonUser("Add up."));
    await host.waitUntil(countResults(1));
    const run = await host.finish();
    expectWellFormedRun(run, 1);
    expect(answerTo(run.events, PYTHON_INITIALIZE.request_id)).toMatchObject({ subtype: "success" });
    expect(answerTo(run.events, PYTHON_INITIALIZE.request_id)).not.toHaveProperty("response.hooks_applied");
    // The MCP handshake, as Claude Code runs it, before the tool is listed; then the calls.
    const mcpMethods = host.requests
      .filter((request) => request.subtype === "mcp_message")
      .map((request) => (request.message as { method: string }).method);
    expect(mcpMethods).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call"]);
    expect(initOf(run.events).mcp_servers).toEqual([{ name: "calc", status: "connected" }]);
    expect(initOf(run.events).tools).toContain("mcp__calc__add");
    const offered = (workspace.server.requests[0]!.body as { tools: Array<{ name: string; input_schema: unknown }> }).tools.find(
      (tool) => tool.name === "mcp__calc__add",
    );
    expect(offered?.input_schema).toEqual(calc.inputSchema);
    expect(toolResultsSent(workspace.server.requests[1]!.body).at(-1)).toContain('"3"');
    expect(toolResultsSent(workspace.server.requests[2]!.body).at(-1)).toContain('"42"');
    // The rule the answer carried covers the second call: asked once.
    expect(host.requests.filter((request) => request.subtype === "can_use_tool")).toHaveLength(1);
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", result: "Sums done." });
  });

  it("an in-process server the host does not have: failed with the host's reason, and the session goes on", async () => {
    workspace = await createWorkspace("text");
    const mcp = inProcessMcpServers({});
    const host = startControlHost(["--mcp-config", JSON.stringify({ mcpServers: { ghost: { type: "sdk", name: "ghost" } } })], {
      workspace,
      answer: (request) => mcp(request),
    });
    host.send(PYTHON_INITIALIZE);
    host.send(pythonUser("Hi."));
    await host.waitUntil(countResults(1));
    host.send({ type: "control_request", request_id: "req_2_status", request: { subtype: "mcp_status" } });
    await host.waitUntil((events) =>
      events.some((event) => event.type === "control_response" && event.response.request_id === "req_2_status"),
    );
    const run = await host.finish();
    expectWellFormedRun(run, 1);
    const failed = { name: "ghost", status: "failed", error: expect.stringContaining("Server 'ghost' not found") };
    expect(initOf(run.events).mcp_servers).toEqual([failed]);
    expect(answerTo(run.events, "req_2_status")).toMatchObject({ response: { mcpServers: [failed] } });
    expect(initOf(run.events).tools.some((tool) => tool.startsWith("mcp__ghost"))).toBe(false);
  });

  it("a hook registered without a pattern (matcher null) fires for every tool; one with a pattern only for its tool", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "hello.txt"), "Hello\n");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "Read", input: { file_path: "hello.txt" } },
            { name: "Glob", input: { pattern: "*.txt" } },
          ],
        },
        { text: "Looked." },
      ],
    });
    const host = startControlHost([], {
      workspace,
      // Python hook outputs carry nulls for what the callback left unset.
      answer: (request) =>
        request.subtype === "hook_callback" ? { continue: true, systemMessage: null, hookSpecificOutput: null } : { error: "unexpected" },
    });
    host.send({
      type: "control_request",
      request_id: "req_1_hooks",
      request: {
        subtype: "initialize",
        hooks: {
          PreToolUse: [{ matcher: null, hookCallbackIds: ["hook_0"] }],
          PostToolUse: [{ matcher: "Glob", hookCallbackIds: ["hook_1"], timeout: null }],
          Stop: null,
        },
      },
    });
    host.send(pythonUser("Look around."));
    await host.waitUntil(countResults(1));
    const run = await host.finish();
    expectWellFormedRun(run, 1);
    expect(answerTo(run.events, "req_1_hooks")).toMatchObject({ subtype: "success", response: { hooks_applied: true } });
    const fired = host.requests
      .filter((request) => request.subtype === "hook_callback")
      .map((request) => `${String(request.callback_id)} ${String((request.input as { tool_name: string }).tool_name)}`);
    expect(fired).toEqual(["hook_0 Read", "hook_0 Glob", "hook_1 Glob"]);
    expect(run.stderr).not.toContain("unreadable");
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", result: "Looked." });
  });

  it("set_model with model null (the Python SDK's set_model()), \"default\" or none: back to the session's first model, answered with it", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "one", repeat: true }] });
    const first = resolveModelAlias("sonnet");
    const host = startControlHost(["--model", "sonnet"], { workspace, answer: () => ({ error: "unexpected" }) });
    host.send(PYTHON_INITIALIZE);
    host.send({ type: "control_request", request_id: "req_2", request: { subtype: "set_model", model: "haiku" } });
    host.send(pythonUser("One."));
    await host.waitUntil(countResults(1));
    host.send({ type: "control_request", request_id: "req_3", request: { subtype: "set_model", model: null } });
    host.send({ type: "control_request", request_id: "req_4", request: { subtype: "set_model", model: "default" } });
    host.send({ type: "control_request", request_id: "req_5", request: { subtype: "set_model" } });
    host.send(pythonUser("Two."));
    await host.waitUntil(countResults(2));
    const run = await host.finish();
    expectWellFormedRun(run, 2);
    expect(answerTo(run.events, "req_2")).toMatchObject({ subtype: "success", response: { model: resolveModelAlias("haiku") } });
    for (const id of ["req_3", "req_4", "req_5"])
      expect(answerTo(run.events, id), id).toEqual({ subtype: "success", request_id: id, response: { model: first } });
    expect(workspace.server.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      resolveModelAlias("haiku"),
      first,
    ]);
  });

  it("control requests agentwire does not implement, in the shapes the SDKs send them: an error answer naming each, and the session goes on", async () => {
    workspace = await createWorkspace("text");
    const unimplemented: HostRequest[] = [
      { subtype: "get_context_usage" },
      { subtype: "rewind_files", user_message_id: "0b6e6c1e-3a51-4a8c-9d0e-4e0f6f7a1b2c", dry_run: null },
      { subtype: "mcp_reconnect", serverName: "calc" },
      { subtype: "mcp_toggle", serverName: "calc", enabled: false },
      { subtype: "stop_task", task_id: "task_1" },
      { subtype: "mcp_set_servers", servers: { calc: { type: "sdk", name: "calc" } } },
      { subtype: "apply_flag_settings", settings: { model: null } },
      { subtype: "get_settings" },
      { subtype: "background_tasks", tool_use_id: null },
      { subtype: "cancel_async_message", message_uuid: "9a1f" },
    ];
    const host = startControlHost([], { workspace, answer: () => ({ error: "unexpected" }) });
    host.send(PYTHON_INITIALIZE);
    unimplemented.forEach((request, index) => host.send({ type: "control_request", request_id: `req_${index + 2}`, request }));
    host.send(pythonUser("Still there?"));
    await host.waitUntil(countResults(1));
    const run = await host.finish();
    expectWellFormedRun(run, 1);
    unimplemented.forEach((request, index) => {
      expect(answerTo(run.events, `req_${index + 2}`), request.subtype).toEqual({
        subtype: "error",
        request_id: `req_${index + 2}`,
        error: `Unsupported control request subtype: ${request.subtype}`,
      });
    });
    expect(run.events.filter((event) => event.type === "system" && event.subtype === "input_error")).toEqual([]);
  });
});

describe("in-process (type sdk) servers without a host to serve them", () => {
  it("-p: the --mcp-config entry is listed as failed, saying why; the answer still comes", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(
      [
        "-p",
        "Hi.",
        "--output-format",
        "stream-json",
        "--verbose",
        "--mcp-config",
        JSON.stringify({ mcpServers: { calc: { type: "sdk", name: "calc" } } }),
      ],
      { workspace },
    );
    expectWellFormedRun(run, 1);
    expect(initOf(run.events).mcp_servers).toEqual([
      { name: "calc", status: "failed", error: expect.stringContaining("--input-format stream-json") },
    ]);
  });

  it("a trusted project's .mcp.json cannot name one: never sent to the host, listed as failed, the rest of the file works", async () => {
    workspace = await createWorkspace("text");
    await mkdir(join(workspace.cwd, ".git"));
    await writeFile(join(workspace.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { calc: { type: "sdk", name: "calc" } } }));
    const mcp = inProcessMcpServers({ calc: [calc] });
    const host = startControlHost(["--trust-project"], { workspace, answer: (request) => mcp(request) });
    host.send(PYTHON_INITIALIZE);
    host.send(pythonUser("Hi."));
    await host.waitUntil(countResults(1));
    const run = await host.finish();
    expectWellFormedRun(run, 1);
    expect(host.requests).toEqual([]);
    expect(initOf(run.events).mcp_servers).toEqual([
      { name: "calc", status: "failed", error: expect.stringContaining("only the host can declare") },
    ]);
    expect(initOf(run.events).tools.some((tool) => tool.startsWith("mcp__calc"))).toBe(false);
  });
});
