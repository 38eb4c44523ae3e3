import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSdkMcpServer, query, tool, type Options, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { OutputEventSchema } from "../../protocol/events.js";
import { createWorkspace, ROOT, type Workspace } from "../helpers/agentwire.js";

/**
 * The official Claude Agent SDK drives agentwire through `pathToClaudeCodeExecutable`, unmodified,
 * against the replay server. Each provider row says how agentwire is pointed at the server.
 */
interface ProviderUnderTest {
  name: string;
  model: string;
  /** What setModel switches to: the alias given, and the id the request must carry. */
  otherModel: { alias: string; id: string };
  env: (workspace: Workspace) => Record<string, string>;
  extraArgs: Record<string, string | null>;
}

const PROVIDERS: ProviderUnderTest[] = [
  {
    name: "anthropic",
    model: "claude-opus-5-5",
    otherModel: { alias: "haiku", id: "claude-haiku-4-5" },
    env: (workspace) => ({ ANTHROPIC_BASE_URL: workspace.server.url, ANTHROPIC_API_KEY: "sdk-test" }),
    extraArgs: {},
  },
  {
    // The Agent SDK passes --model itself; the provider and endpoint go through extraArgs/env.
    name: "openai",
    model: "gpt-4.1",
    otherModel: { alias: "gpt-4.1-mini", id: "gpt-4.1-mini" },
    env: () => ({ OPENAI_API_KEY: "sdk-test" }),
    extraArgs: {},
  },
];

const EXECUTABLE = join(ROOT, "bin", "agentwire");
let workspace: Workspace;
let outside: string | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  if (outside) await rm(outside, { recursive: true, force: true });
  outside = undefined;
});

function sdkOptions(provider: ProviderUnderTest, extra: Partial<Options> = {}): Options {
  return {
    pathToClaudeCodeExecutable: EXECUTABLE,
    cwd: workspace.cwd,
    model: provider.model,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: workspace.home,
      AGENTWIRE_HOME: join(workspace.home, ".agentwire"),
      ...provider.env(workspace),
    },
    extraArgs: provider.name === "openai" ? { provider: "openai", "base-url": `${workspace.server.url}/v1` } : provider.extraArgs,
    stderr: () => {},
    ...extra,
  };
}

/** The conversation turns (system prompt excluded) and offered tool names of a request body, for either wire format. */
function requestShape(body: unknown): { turns: number; tools: string[]; toolSchemas: Record<string, unknown>; model: string } {
  type WireTool = { name?: string; input_schema?: unknown; function?: { name: string; parameters?: unknown } };
  const request = body as { model: string; messages: Array<{ role: string }>; tools?: WireTool[] };
  const tools = request.tools ?? [];
  return {
    turns: request.messages.filter((message) => message.role !== "system" && message.role !== "developer").length,
    tools: tools.map((entry) => entry.name ?? entry.function?.name ?? ""),
    toolSchemas: Object.fromEntries(
      tools.map((entry) => [entry.name ?? entry.function?.name ?? "", entry.input_schema ?? entry.function?.parameters]),
    ),
    model: request.model,
  };
}

async function collect(iterable: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  for await (const message of iterable) messages.push(message);
  return messages;
}

function resultsOf(messages: SDKMessage[]) {
  return messages.filter((message): message is Extract<SDKMessage, { type: "result" }> => message.type === "result");
}

/** Every message the SDK yields is an agentwire protocol line. */
function expectProtocolLines(messages: SDKMessage[]): void {
  for (const message of messages) {
    const parsed = OutputEventSchema.safeParse(message);
    expect(parsed.success, `${JSON.stringify(message).slice(0, 300)}\n${parsed.error?.message ?? ""}`).toBe(true);
  }
}

/** An input stream the test feeds message by message. */
function pushableInput() {
  const queue: SDKUserMessage[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  return {
    push(text: string) {
      queue.push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" });
      wake?.();
    },
    end() {
      done = true;
      wake?.();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<SDKUserMessage> {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (done) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

describe.each(PROVIDERS)("Claude Agent SDK → agentwire ($name)", (provider) => {
  it("plain text", async () => {
    workspace = await createWorkspace("text");
    const messages = await collect(query({ prompt: "Say hello.", options: sdkOptions(provider) }));
    expectProtocolLines(messages);
    expect(messages[0]).toMatchObject({ type: "system", subtype: "init", model: provider.model });
    expect(resultsOf(messages)).toEqual([
      expect.objectContaining({ subtype: "success", is_error: false, result: "Hello! I am the mock model. 2 + 2 = 4." }),
    ]);
  });

  it("outputFormat json_schema: the answer comes back as structured_output", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "StructuredOutput", input: { answer: 4 } }] }] });
    const schema = { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"] };
    const messages = await collect(
      query({ prompt: "2 + 2?", options: sdkOptions(provider, { outputFormat: { type: "json_schema", schema } }) }),
    );
    expectProtocolLines(messages);
    expect(resultsOf(messages)).toEqual([expect.objectContaining({ subtype: "success", structured_output: { answer: 4 } })]);
    expect(requestShape(workspace.server.requests[0]!.body).toolSchemas.StructuredOutput).toMatchObject(schema);
  });

  it("a Read tool round trip", async () => {
    workspace = await createWorkspace("read");
    await writeFile(join(workspace.cwd, "hello.txt"), "Hello, world!\n");
    const messages = await collect(query({ prompt: "What is in hello.txt?", options: sdkOptions(provider) }));
    const toolResult = messages.find((message) => message.type === "user");
    expect(toolResult).toMatchObject({ message: { content: [{ type: "tool_result", content: "1\tHello, world!\n2\t" }] } });
    expect(resultsOf(messages)[0]).toMatchObject({ subtype: "success", num_turns: 2 });
  });

  it("canUseTool allows a Read outside the workspace and denies Bash; the model receives the denial", async () => {
    workspace = await createWorkspace("text");
    outside = await mkdtemp(join(tmpdir(), "agentwire-outside-"));
    await writeFile(join(outside, "o.txt"), "outside\n");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "Read", input: { file_path: join(outside, "o.txt") } },
            { name: "Bash", input: { command: "touch made-by-bash.txt" } },
          ],
        },
        { text: "done" },
      ],
    });
    const asked: string[] = [];
    const messages = await collect(
      query({
        prompt: "Read it and touch a file.",
        options: sdkOptions(provider, {
          canUseTool: async (toolName, input) => {
            asked.push(toolName);
            return toolName === "Read" ? { behavior: "allow", updatedInput: input } : { behavior: "deny", message: "No shell today." };
          },
        }),
      }),
    );
    expect(asked.sort()).toEqual(["Bash", "Read"]);
    const results = messages.flatMap((message) =>
      message.type === "user" && Array.isArray(message.message.content) ? message.message.content : [],
    ) as Array<{ content: string; is_error?: boolean }>;
    expect(results.map((block) => block.content)).toEqual(["1\toutside\n2\t", "No shell today."]);
    expect(existsSync(join(workspace.cwd, "made-by-bash.txt"))).toBe(false);
    expect(resultsOf(messages)[0]!.permission_denials).toEqual([expect.objectContaining({ tool_name: "Bash" })]);
    const second = workspace.server.requests[1]!.body as { messages: unknown[] };
    expect(JSON.stringify(second.messages.at(-1))).toContain("No shell today.");
  });

  it("streaming input with two messages, stdin closed right after the last one", async () => {
    workspace = await createWorkspace("multi-turn");
    const input = pushableInput();
    input.push("First?");
    input.push("Second?");
    input.end();
    const messages = await collect(query({ prompt: input, options: sdkOptions(provider) }));
    expectProtocolLines(messages);
    expect(resultsOf(messages).map((result) => (result.subtype === "success" ? result.result : undefined))).toEqual([
      "First answer.",
      "Second answer.",
    ]);
  });

  it("interrupt() mid-stream, then another message", async () => {
    workspace = await createWorkspace("interrupt");
    const input = pushableInput();
    input.push("Write a long essay.");
    const run = query({ prompt: input, options: sdkOptions(provider, { includePartialMessages: true }) });
    const messages: SDKMessage[] = [];
    let interrupted = false;
    for await (const message of run) {
      messages.push(message);
      if (!interrupted && message.type === "stream_event" && message.event.type === "content_block_delta") {
        interrupted = true;
        await run.interrupt();
      }
      if (message.type === "result" && resultsOf(messages).length === 1) input.push("Now just say done.");
      if (message.type === "result" && resultsOf(messages).length === 2) input.end();
    }
    const [first, second] = resultsOf(messages);
    expect(first).toMatchObject({ subtype: "error_during_execution", is_error: true });
    expect(second).toMatchObject({ subtype: "success", result: "Done." });
    expect(messages.some((message) => message.type === "assistant" && (message as { aborted?: boolean }).aborted === true)).toBe(true);
  });

  it("includePartialMessages yields stream events before the assistant message", async () => {
    workspace = await createWorkspace("text");
    const messages = await collect(query({ prompt: "Say hello.", options: sdkOptions(provider, { includePartialMessages: true }) }));
    const types = messages.map((message) => (message.type === "stream_event" ? `stream:${message.event.type}` : message.type));
    expect(types.indexOf("stream:content_block_delta")).toBeGreaterThan(-1);
    expect(types.indexOf("stream:content_block_delta")).toBeLessThan(types.indexOf("assistant"));
  });

  it("resume by session id", async () => {
    workspace = await createWorkspace("multi-turn");
    const first = await collect(query({ prompt: "First?", options: sdkOptions(provider) }));
    const sessionId = resultsOf(first)[0]!.session_id;
    const second = await collect(query({ prompt: "Second?", options: sdkOptions(provider, { resume: sessionId }) }));
    expect(resultsOf(second)[0]).toMatchObject({ session_id: sessionId, result: "Second answer." });
    expect(requestShape(workspace.server.requests[1]!.body).turns).toBe(3);
  });

  it("forkSession: the resumed conversation goes on under a new id", async () => {
    workspace = await createWorkspace("multi-turn");
    const first = await collect(query({ prompt: "First?", options: sdkOptions(provider) }));
    const sessionId = resultsOf(first)[0]!.session_id;
    const second = await collect(query({ prompt: "Second?", options: sdkOptions(provider, { resume: sessionId, forkSession: true }) }));
    expect(resultsOf(second)[0]).toMatchObject({ result: "Second answer." });
    expect(resultsOf(second)[0]!.session_id).not.toBe(sessionId);
    expect(requestShape(workspace.server.requests[1]!.body).turns).toBe(3);
  });

  it("abort via AbortController leaves no process behind", async () => {
    workspace = await createWorkspace("interrupt");
    const abortController = new AbortController();
    let pid: number | undefined;
    const run = query({
      prompt: "Write a long essay.",
      options: sdkOptions(provider, {
        abortController,
        includePartialMessages: true,
        spawnClaudeCodeProcess: (spawnOptions) => {
          const child = spawn(spawnOptions.command, spawnOptions.args, {
            cwd: spawnOptions.cwd,
            env: spawnOptions.env,
            signal: spawnOptions.signal,
            stdio: ["pipe", "pipe", "ignore"],
          });
          pid = child.pid;
          return child;
        },
      }),
    });
    const failure = (async () => {
      for await (const message of run) {
        if (message.type === "stream_event" && message.event.type === "content_block_delta") abortController.abort();
      }
    })();
    await expect(failure).rejects.toThrow(/abort/i);
    expect(pid).toBeDefined();
    const deadline = Date.now() + 10_000;
    while (isAlive(pid!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(pid!)).toBe(false);
  });

  it("setPermissionMode and setModel take effect for later calls and requests", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ text: "one" }, { tool_calls: [{ name: "Write", input: { file_path: "w.txt", content: "w\n" } }] }, { text: "two" }],
    });
    const input = pushableInput();
    input.push("First.");
    const run = query({ prompt: input, options: sdkOptions(provider) });
    let results = 0;
    for await (const message of run) {
      if (message.type !== "result") continue;
      results++;
      if (results === 1) {
        await run.setPermissionMode("acceptEdits");
        await run.setModel(provider.otherModel.alias);
        input.push("Write w.txt.");
      } else input.end();
    }
    expect(existsSync(join(workspace.cwd, "w.txt"))).toBe(true);
    expect(requestShape(workspace.server.requests[1]!.body).model).toBe(provider.otherModel.id);
  });

  it("a PreToolUse hook callback sees the call and can block it", async () => {
    workspace = await createWorkspace("read");
    await writeFile(join(workspace.cwd, "hello.txt"), "secret\n");
    const seen: unknown[] = [];
    const messages = await collect(
      query({
        prompt: "Read hello.txt",
        options: sdkOptions(provider, {
          hooks: {
            PreToolUse: [
              {
                matcher: "Read",
                hooks: [
                  async (hookInput) => {
                    seen.push(hookInput);
                    return {
                      hookSpecificOutput: {
                        hookEventName: "PreToolUse",
                        permissionDecision: "deny",
                        permissionDecisionReason: "Hook says no.",
                      },
                    };
                  },
                ],
              },
            ],
          },
        }),
      }),
    );
    expect(seen).toEqual([
      expect.objectContaining({ hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: "hello.txt" } }),
    ]);
    const blocked = messages.find((message) => message.type === "user");
    expect(blocked).toMatchObject({ message: { content: [{ is_error: true, content: "Hook says no." }] } });
  });

  it("queued turns keep the host's callbacks: a hook still guards the second of two queued messages", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "hello.txt"), "secret\n");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Read", input: { file_path: "hello.txt" } }] },
        { text: "one" },
        { tool_calls: [{ name: "Read", input: { file_path: "hello.txt" } }] },
        { text: "two" },
      ],
    });
    const input = pushableInput();
    input.push("Read it.");
    input.push("Read it again.");
    input.end();
    let calls = 0;
    const messages = await collect(
      query({
        prompt: input,
        options: sdkOptions(provider, {
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  async () => {
                    calls++;
                    return {
                      hookSpecificOutput: {
                        hookEventName: "PreToolUse",
                        permissionDecision: "deny",
                        permissionDecisionReason: "Hook says no.",
                      },
                    };
                  },
                ],
              },
            ],
          },
        }),
      }),
    );
    expect(calls).toBe(2);
    const toolResults = messages.flatMap((message) =>
      message.type === "user" && Array.isArray(message.message.content) ? message.message.content : [],
    ) as Array<{ content: string }>;
    expect(toolResults.map((block) => block.content)).toEqual(["Hook says no.", "Hook says no."]);
    expect(resultsOf(messages)).toHaveLength(2);
  });

  it("maxTurns ends with error_max_turns", async () => {
    workspace = await createWorkspace("max-turns");
    await writeFile(join(workspace.cwd, "hello.txt"), "x\n");
    const messages: SDKMessage[] = [];
    await expect(
      (async () => {
        for await (const message of query({ prompt: "Read every file.", options: sdkOptions(provider, { maxTurns: 1 }) }))
          messages.push(message);
      })(),
    ).rejects.toThrow(/maximum number of turns/);
    expect(resultsOf(messages)[0]).toMatchObject({ subtype: "error_max_turns", is_error: true });
  });

  it("initialize info methods answer", async () => {
    workspace = await createWorkspace("text");
    const input = pushableInput();
    const run = query({ prompt: input, options: sdkOptions(provider) });
    const models = await run.supportedModels();
    const commands = await run.supportedCommands();
    expect(models).toEqual([expect.objectContaining({ value: provider.model })]);
    expect(commands).toEqual([]);
    input.end();
    await collect(run);
  });

  it("agents: the host's definitions reach system/init and supportedAgents(), over the built-ins", async () => {
    workspace = await createWorkspace("text");
    const input = pushableInput();
    const agents: Options["agents"] = {
      reviewer: { description: "Reviews a change for bugs.", prompt: "Be strict.", tools: ["Read", "Grep"], model: "haiku" },
      "general-purpose": { description: "The host's own general agent.", prompt: "Work." },
    };
    const run = query({ prompt: input, options: sdkOptions(provider, { agents }) });
    const supported = await run.supportedAgents();
    expect(supported).toContainEqual({ name: "reviewer", description: "Reviews a change for bugs.", model: "haiku" });
    expect(supported).toContainEqual({ name: "general-purpose", description: "The host's own general agent." });
    input.push("Say hello.");
    input.end();
    const messages = await collect(run);
    expectProtocolLines(messages);
    const init = messages.find((message) => message.type === "system" && message.subtype === "init") as { agents: string[] };
    expect(init.agents).toEqual(["Explore", "fork", "general-purpose", "Plan", "reviewer"]);
    expect(supported.map((agent) => agent.name)).toEqual(init.agents);
  });

  it("agents: the model starts the host's custom type, and the nested run has its prompt and tools", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          match: "PARENT",
          tool_calls: [
            { name: "Agent", input: { description: "Review hello", prompt: "REVIEW: check hello.txt", subagent_type: "reviewer" } },
          ],
        },
        { match: "REVIEW", text: "hello.txt is fine" },
        { match: "PARENT", text: "The reviewer is happy." },
      ],
    });
    const agents: Options["agents"] = {
      reviewer: { description: "Reviews a change for bugs.", prompt: "You are REVIEWER-7: strict and brief.", tools: ["Read", "Grep"] },
    };
    const messages = await collect(query({ prompt: "PARENT: review it", options: sdkOptions(provider, { agents }) }));
    expectProtocolLines(messages);
    expect(resultsOf(messages)).toEqual([
      expect.objectContaining({
        subtype: "success",
        result: "The reviewer is happy.",
        subagent_stats: expect.objectContaining({ spawned: 1, by_type: { reviewer: 1 } }),
      }),
    ]);
    const bodies = workspace.server.requests.map((request) => JSON.stringify(request.body));
    const nested = bodies.findIndex((body) => body.includes("REVIEW: check hello.txt") && !body.includes("PARENT"));
    expect(nested).toBeGreaterThan(0);
    expect(bodies[nested]).toContain("You are REVIEWER-7: strict and brief.");
    expect(requestShape(workspace.server.requests[nested]!.body).tools.sort()).toEqual(["Grep", "Read"]);
    // The parent reads the type in the Agent tool's listing, never its prompt.
    expect(bodies[0]).toContain("- reviewer: Reviews a change for bugs. (Tools: Read, Grep)");
    expect(bodies[0]).not.toContain("REVIEWER-7");
    const handBack = messages.find((message) => message.type === "user" && message.parent_tool_use_id === null);
    expect(JSON.stringify(handBack)).toContain("hello.txt is fine");
  });

  it("a tool defined in the SDK process via an SDK MCP server", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "mcp__harness__echo_upper", input: { text: "shout this" } }] }, { text: "Echoed." }],
    });
    const harness = createSdkMcpServer({
      name: "harness",
      version: "1.0.0",
      tools: [
        tool("echo_upper", "Echo text in upper case", { text: z.string() }, async ({ text }) => ({
          content: [{ type: "text", text: `ECHO:${text.toUpperCase()}` }],
        })),
      ],
    });
    const messages = await collect(
      query({
        prompt: "Use the tool.",
        options: sdkOptions(provider, { mcpServers: { harness }, allowedTools: ["mcp__harness__echo_upper"] }),
      }),
    );
    const init = messages.find((message) => message.type === "system" && message.subtype === "init");
    expect(init).toMatchObject({ mcp_servers: [{ name: "harness", status: "connected" }] });
    const toolResult = messages.find((message) => message.type === "user");
    expect(toolResult).toMatchObject({ message: { content: [{ type: "tool_result", content: "ECHO:SHOUT THIS" }] } });
    const offered = requestShape(workspace.server.requests[0]!.body);
    expect(offered.tools).toContain("mcp__harness__echo_upper");
    // The model gets the MCP server's own input schema, not a generic object.
    expect(offered.toolSchemas.mcp__harness__echo_upper).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped) still answers signal 0; it is not running.
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}
