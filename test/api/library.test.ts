import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { OutputEventSchema, type OutputEvent, type ResultEvent } from "../../protocol/events.js";
import { query, run, type QueryOptions, type QueryUserMessage } from "../../src/api/index.js";
import { scenarioSchema } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { ROOT, sequence } from "../helpers/agentwire.js";
import { bwrapProblem, needsBwrap } from "../helpers/bwrap.js";
import { isAlive, until } from "../helpers/processes.js";

/**
 * The library API in this process, against the replay server over loopback: every yielded
 * object must be a valid stream-json event, and each turn must end with one result.
 */
interface Place {
  cwd: string;
  home: string;
  server: MockServer;
}
const places: Place[] = [];

async function place(scenario: z.input<typeof scenarioSchema>): Promise<Place> {
  const root = await mkdtemp(join(tmpdir(), "agentwire-library-"));
  const cwd = join(root, "repo");
  const home = join(root, "home");
  await mkdir(cwd);
  await mkdir(home);
  const created = { cwd, home, server: await startMockServer({ scenario: scenarioSchema.parse(scenario), log: () => {} }) };
  places.push(created);
  return created;
}

function anthropicOptions(where: Place, extra: QueryOptions = {}): QueryOptions {
  // HOME too: the user's settings files (~/.claude/settings.json) are the test's, not the machine's.
  return {
    cwd: where.cwd,
    env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: where.server.url, AGENTWIRE_HOME: where.home, HOME: where.home },
    ...extra,
  };
}

async function collect(events: AsyncIterable<OutputEvent>): Promise<OutputEvent[]> {
  const seen: OutputEvent[] = [];
  for await (const event of events) {
    // Exactly what the CLI prints: every object passes the protocol schema.
    expect(OutputEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    seen.push(event);
  }
  return seen;
}

const resultsOf = (events: OutputEvent[]): ResultEvent[] => events.filter((event): event is ResultEvent => event.type === "result");

/** An async iterable of user messages that the test feeds one at a time. */
function messageChannel(): { messages: AsyncIterable<QueryUserMessage>; send(text: string): void; end(): void } {
  const pending: Array<(value: IteratorResult<QueryUserMessage>) => void> = [];
  const queued: Array<IteratorResult<QueryUserMessage>> = [];
  const deliver = (item: IteratorResult<QueryUserMessage>): void => {
    const waiter = pending.shift();
    if (waiter) waiter(item);
    else queued.push(item);
  };
  return {
    messages: {
      [Symbol.asyncIterator]: () => ({
        next: () => (queued.length > 0 ? Promise.resolve(queued.shift()!) : new Promise((resolve) => pending.push(resolve))),
      }),
    },
    send: (text) => deliver({ value: { type: "user", message: { role: "user", content: text } }, done: false }),
    end: () => deliver({ value: undefined, done: true }),
  };
}

afterEach(async () => {
  for (const done of places.splice(0)) {
    await done.server.close();
    await rm(join(done.cwd, ".."), { recursive: true, force: true });
  }
});

describe("query()", () => {
  it("answers a text prompt with init, the assistant text and a success result", async () => {
    const where = await place({ turns: [{ text: "Hello from the library." }] });
    const events = await collect(query({ prompt: "Say hello", options: anthropicOptions(where) }));
    expect(sequence(events)).toEqual(["system/init", "assistant:text", "result/success"]);
    expect(resultsOf(events)[0]).toMatchObject({ result: "Hello from the library.", is_error: false, num_turns: 1 });
    expect(where.server.requests).toHaveLength(1);
  });

  it("takes the Agent SDK's agents: listed in system/init over the built-ins; a bad one ends the query with invalid_arguments", async () => {
    const where = await place({ turns: [{ text: "Hello from the library." }] });
    const agents = { reviewer: { description: "Reviews code.", prompt: "Be strict.", tools: ["Read"] } };
    const events = await collect(query({ prompt: "Say hello", options: anthropicOptions(where, { agents }) }));
    const init = events.find((event) => event.type === "system" && event.subtype === "init") as { agents: string[] };
    expect(init.agents).toEqual(["Explore", "fork", "general-purpose", "Plan", "reviewer"]);

    const refused = await collect(
      query({ prompt: "Say hello", options: anthropicOptions(where, { agents: { reviewer: { prompt: "No description." } } }) }),
    );
    expect(resultsOf(refused)).toEqual([
      expect.objectContaining({
        is_error: true,
        terminal_reason: "invalid_arguments",
        errors: [expect.stringContaining('agents: agent "reviewer", description:')],
      }),
    ]);
    expect(where.server.requests).toHaveLength(1);
  });

  it("takes process.env as it is (an object whose prototype is not Object.prototype)", async () => {
    const where = await place({ turns: [{ text: "Hello from the library." }] });
    const { env } = anthropicOptions(where);
    // process.env's own kind of object: not a plain object, as zod's record check wants.
    const processLikeEnv = Object.assign(Object.create({ inherited: true }) as Record<string, string>, env);
    const events = await collect(query({ prompt: "Hi", options: { ...anthropicOptions(where), env: processLikeEnv } }));
    expect(resultsOf(events)[0]).toMatchObject({ subtype: "success", result: "Hello from the library." });
  });

  it("runs a tool round trip in the given cwd", async () => {
    const where = await place({ turns: [{ tool_calls: [{ name: "Read", input: { file_path: "notes.txt" } }] }, { text: "It says hi." }] });
    await writeFile(join(where.cwd, "notes.txt"), "hi\n");
    const events = await collect(query({ prompt: "Read notes.txt", options: anthropicOptions(where) }));
    expect(sequence(events)).toEqual(["system/init", "assistant:tool_use", "user:tool_result", "assistant:text", "result/success"]);
    const toolResult = events.find((event) => event.type === "user");
    expect(toolResult?.type === "user" && toolResult.message.content[0]).toMatchObject({ type: "tool_result", content: "1\thi\n2\t" });
  });

  it("shows a subagent's messages nested under its Agent call", async () => {
    const where = await place({
      turns: [
        {
          match: "PARENT",
          tool_calls: [{ name: "Agent", id: "toolu_agent", input: { description: "Read notes", prompt: "SUB: read notes.txt" } }],
        },
        { match: "SUB", tool_calls: [{ name: "Read", input: { file_path: "notes.txt" } }] },
        { match: "SUB", text: "notes.txt says hi" },
        { match: "PARENT", text: "It says hi." },
      ],
    });
    await writeFile(join(where.cwd, "notes.txt"), "hi\n");
    const events = await collect(query({ prompt: "PARENT: what do the notes say?", options: anthropicOptions(where) }));
    const nested = events.filter((event) => "parent_tool_use_id" in event && event.parent_tool_use_id === "toolu_agent");
    expect(sequence(nested)).toEqual(["user:text", "assistant:tool_use", "user:tool_result"]);
    expect(sequence(events).filter((label) => label.startsWith("system/task_"))).toEqual([
      "system/task_started",
      "system/task_progress",
      "system/task_updated",
      "system/task_notification",
    ]);
    expect(resultsOf(events)[0]).toMatchObject({
      result: "It says hi.",
      subagent_stats: { spawned: 1, completed: 1, requested: { unset: 1 } },
    });
  });

  it("takes Claude Code's settings: the files and `settings` (object or JSON text), their hooks and rules; settingSources [] reads no file", async () => {
    const where = await place({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "touch made.txt" } }] }, { text: "Done." }] });
    const log = join(where.home, "prompts.log");
    await mkdir(join(where.home, ".claude"));
    await writeFile(
      join(where.home, ".claude", "settings.json"),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `cat >> ${log}; echo >> ${log}` }] }] } }),
    );
    const settings = { permissions: { allow: ["Bash(touch:*)"] } };
    const events = await collect(query({ prompt: "Make it", options: anthropicOptions(where, { settings }) }));
    expect(resultsOf(events)[0]).toMatchObject({ is_error: false, permission_denials: [] });
    await expect(readFile(join(where.cwd, "made.txt"), "utf8")).resolves.toBe("");
    expect(JSON.parse((await readFile(log, "utf8")).trim())).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "Make it" });

    const next = await place({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "touch made.txt" } }] }, { text: "Done again." }],
    });
    // The same HOME, so the same user file, but no file is read.
    const isolated = await collect(
      query({
        prompt: "Again",
        options: anthropicOptions(next, {
          settings: JSON.stringify(settings),
          settingSources: [],
          env: { ...anthropicOptions(next).env, HOME: where.home },
        }),
      }),
    );
    expect(resultsOf(isolated)[0]!.permission_denials, "the settings text still applies").toEqual([]);
    await expect(readFile(join(next.cwd, "made.txt"), "utf8")).resolves.toBe("");
    expect((await readFile(log, "utf8")).trim().split("\n"), "the user's file was not read: its hook did not run").toHaveLength(1);
    const broken = await collect(query({ prompt: "x", options: anthropicOptions(next, { settings: "/nonexistent/settings.json" }) }));
    expect(resultsOf(broken)[0]).toMatchObject({
      is_error: true,
      terminal_reason: "invalid_arguments",
      errors: [expect.stringMatching(/^settings: .*nonexistent\/settings\.json was not read/)],
    });
  });

  it("starts the MCP servers of mcpServers, offers their tools and stops the servers with the query", async () => {
    const where = await place({
      turns: [{ tool_calls: [{ name: "mcp__fixture__echo", input: { text: "from the library" } }] }, { text: "Echoed." }],
    });
    const pidFile = join(where.home, "mcp-pids");
    const server = {
      command: process.execPath,
      args: [join(ROOT, "fixtures", "mcp", "test-server.mjs")],
      env: { MCP_TEST_PID_FILE: pidFile },
    };
    const events = await collect(
      query({ prompt: "Echo it", options: anthropicOptions(where, { mcpServers: { fixture: server }, allowedTools: ["mcp__fixture"] }) }),
    );
    const init = events[0];
    expect(init?.type === "system" && init.subtype === "init" && init.mcp_servers).toEqual([{ name: "fixture", status: "connected" }]);
    const toolResult = events.find((event) => event.type === "user");
    expect(toolResult?.type === "user" && toolResult.message.content[0]).toMatchObject({
      type: "tool_result",
      content: "ECHO: FROM THE LIBRARY",
    });
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(await until(() => !isAlive(pid), 3_000), "the server stopped when the query ended").toBe(true);
  });
  it("denies through canUseTool and tells the model why", async () => {
    const where = await place({
      turns: [{ tool_calls: [{ name: "Write", input: { file_path: "out.txt", content: "x" } }] }, { text: "I could not write it." }],
    });
    const asked: string[] = [];
    const events = await collect(
      query({
        prompt: "Write out.txt",
        options: anthropicOptions(where, {
          canUseTool: async (toolName, input, { suggestions, toolUseID }) => {
            asked.push(`${toolName} ${String(input.file_path)} ${toolUseID !== ""} ${suggestions.length}`);
            return { behavior: "deny", message: "Not in this test." };
          },
        }),
      }),
    );
    expect(asked).toEqual(["Write out.txt true 1"]);
    const result = resultsOf(events)[0]!;
    expect(result.permission_denials).toHaveLength(1);
    const toolResult = events.find((event) => event.type === "user");
    expect(toolResult?.type === "user" && toolResult.message.content[0]).toMatchObject({ is_error: true, content: "Not in this test." });
    await expect(import("node:fs/promises").then((fs) => fs.stat(join(where.cwd, "out.txt")))).rejects.toThrow();
  });

  it("interrupts the running turn, then answers the next streamed message", async () => {
    const slow = "word ".repeat(400);
    const where = await place({ turns: [{ text: slow, chunk_delay_ms: 20 }, { text: "Second answer." }] });
    const channel = messageChannel();
    const running = query({ prompt: channel.messages, options: anthropicOptions(where) });
    channel.send("Talk for a while");
    const events: OutputEvent[] = [];
    for await (const event of running) {
      events.push(event);
      // The first streamed text block arrives: stop the turn.
      if (event.type === "system" && event.subtype === "init" && resultsOf(events).length === 0)
        setTimeout(() => void running.interrupt(), 150);
      if (event.type === "result" && resultsOf(events).length === 1) {
        channel.send("And now?");
        channel.end();
      }
    }
    const [first, second] = resultsOf(events);
    expect(first).toMatchObject({ subtype: "error_during_execution", is_error: true });
    expect(second).toMatchObject({ subtype: "success", result: "Second answer." });
    expect(events.filter((event) => event.type === "system" && event.subtype === "init")).toHaveLength(2);
  });

  it("queues messages streamed while a turn runs; an interrupt stops that turn and the queued ones still run, in order", async () => {
    const where = await place({ turns: [{ text: "word ".repeat(400), chunk_delay_ms: 20 }, { text: "Second." }, { text: "Third." }] });
    const channel = messageChannel();
    const running = query({ prompt: channel.messages, options: anthropicOptions(where, { includePartialMessages: true }) });
    channel.send("Talk for a while");
    channel.send("Two");
    channel.send("Three");
    channel.end();
    const events: OutputEvent[] = [];
    let interrupted = false;
    for await (const event of running) {
      events.push(event);
      // The first streamed text of the slow answer: the model request is under way, stop it.
      if (!interrupted && event.type === "stream_event" && event.event.type === "content_block_delta") {
        interrupted = true;
        void running.interrupt();
      }
    }
    expect(resultsOf(events).map((result) => (result.is_error ? result.subtype : result.result))).toEqual([
      "error_during_execution",
      "Second.",
      "Third.",
    ]);
    // Each turn starts with its system/init, after the result of the one before.
    expect(sequence(events).filter((name) => name === "system/init" || name.startsWith("result/"))).toEqual([
      "system/init",
      "result/error_during_execution",
      "system/init",
      "result/success",
      "system/init",
      "result/success",
    ]);
  });

  it("a malformed streamed message ends the query with an error result after the turns of the messages before it", async () => {
    const where = await place({ turns: [{ text: "First.", chunk_delay_ms: 20 }] });
    async function* prompt(): AsyncGenerator<QueryUserMessage> {
      yield "One";
      yield { type: "user", message: { role: "assistant", content: "not from the user" } } as unknown as QueryUserMessage;
    }
    const events = await collect(query({ prompt: prompt(), options: anthropicOptions(where) }));
    const [first, second] = resultsOf(events);
    expect(first).toMatchObject({ subtype: "success", result: "First." });
    expect(second).toMatchObject({ is_error: true, terminal_reason: "invalid_arguments" });
    expect(second!.errors?.[0]).toMatch(/^Prompt message 2 is not a user message: /);
    expect(events.at(-1)).toBe(second);
  });

  it("ends with the turn's result when the abort signal fires", async () => {
    const where = await place({ turns: [{ text: "word ".repeat(400), chunk_delay_ms: 20 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const events = await collect(query({ prompt: "Talk", options: anthropicOptions(where, { abortSignal: controller.signal }) }));
    expect(resultsOf(events)).toHaveLength(1);
    expect(resultsOf(events)[0]).toMatchObject({ is_error: true, terminal_reason: "aborted_streaming" });
    expect(events.at(-1)?.type).toBe("result");
  });

  it("resumes a session by id with its history", async () => {
    const where = await place({ turns: [{ text: "Remember: blue." }, { text: "You said blue." }] });
    const first = await run("Remember a colour", anthropicOptions(where));
    expect(first).toMatchObject({ result: "Remember: blue.", isError: false });
    const second = await run("Which colour?", anthropicOptions(where, { resume: first.sessionId }));
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.result).toBe("You said blue.");
    // The second request carried the first exchange.
    const body = where.server.requests[1]!.body as { messages: Array<{ role: string }> };
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("reports bad options as one error result, without throwing", async () => {
    const events = await collect(query({ prompt: "hi", options: { cwd: "/nonexistent/agentwire-test", env: {} } }));
    expect(sequence(events)).toEqual(["result/error_during_execution"]);
    expect(resultsOf(events)[0]!.errors?.[0]).toMatch(/Working directory does not exist/);
    const unknown = await collect(
      query({
        prompt: "hi",
        options: { cwd: tmpdir(), resume: "no-such-session", env: { AGENTWIRE_HOME: join(tmpdir(), "agentwire-none") } },
      }),
    );
    expect(resultsOf(unknown)[0]).toMatchObject({ terminal_reason: "session_not_found" });
  });

  it("refuses the Agent SDK's sandbox object rather than run commands unconfined", async () => {
    const events = await collect(query({ prompt: "hi", options: { cwd: tmpdir(), sandbox: { enabled: true } as never, env: {} } }));
    expect(resultsOf(events)[0]).toMatchObject({
      terminal_reason: "invalid_arguments",
      errors: [expect.stringMatching(/^Invalid option sandbox: /)],
    });
  });

  it.skipIf(bwrapProblem !== undefined)(`sandbox: "workspace-write" confines Bash as --sandbox does${needsBwrap}`, async () => {
    // ../home is outside the workspace (the cwd is <root>/repo); under /tmp, which the sandbox
    // without network covers, it is not even there.
    const where = await place({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo x > ../home/outside.txt" } }] }, { text: "done" }],
    });
    const events = await collect(
      query({ prompt: "write", options: anthropicOptions(where, { sandbox: "workspace-write", permissionMode: "bypassPermissions" }) }),
    );
    const toolResult = events.find((event) => event.type === "user");
    expect(toolResult?.type === "user" && toolResult.message.content[0]).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/Read-only file system|No such file or directory/),
    });
    expect(toolResult?.type === "user" && toolResult.tool_use_result).toMatchObject({
      sandbox: { mode: "workspace-write", network: false },
    });
  });

  it("outputFormat: the answer is the result's structured_output; a schema that does not compile is an error result", async () => {
    const where = await place({ turns: [{ tool_calls: [{ name: "StructuredOutput", input: { ok: true } }] }] });
    const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
    const events = await collect(
      query({ prompt: "ok?", options: anthropicOptions(where, { outputFormat: { type: "json_schema", schema } }) }),
    );
    expect(resultsOf(events)[0]).toMatchObject({ subtype: "success", structured_output: { ok: true } });
    const broken = await collect(
      query({ prompt: "ok?", options: anthropicOptions(where, { outputFormat: { type: "json_schema", schema: { type: "nonsense" } } }) }),
    );
    expect(sequence(broken)).toEqual(["result/error_during_execution"]);
    expect(resultsOf(broken)[0]).toMatchObject({ terminal_reason: "invalid_arguments" });
    expect(resultsOf(broken)[0]!.errors?.[0]).toMatch(/outputFormat\.schema: not a valid JSON Schema/);
  });

  it("runs two sessions at once with different cwds and providers without interference", async () => {
    const anthropicPlace = await place({
      turns: [{ tool_calls: [{ name: "Read", input: { file_path: "which.txt" } }], chunk_delay_ms: 5 }, { text: "anthropic done" }],
    });
    const openaiPlace = await place({
      turns: [{ tool_calls: [{ name: "Read", input: { file_path: "which.txt" } }], chunk_delay_ms: 5 }, { text: "openai done" }],
    });
    await writeFile(join(anthropicPlace.cwd, "which.txt"), "first cwd\n");
    await writeFile(join(openaiPlace.cwd, "which.txt"), "second cwd\n");
    const [a, b] = await Promise.all([
      run("Read which.txt", anthropicOptions(anthropicPlace)),
      run("Read which.txt", {
        cwd: openaiPlace.cwd,
        provider: "openai",
        model: "gpt-4.1",
        baseUrl: `${openaiPlace.server.url}/v1`,
        env: { OPENAI_API_KEY: "test-key", AGENTWIRE_HOME: openaiPlace.home },
      }),
    ]);
    expect(a.result).toBe("anthropic done");
    expect(b.result).toBe("openai done");
    const toolText = (messages: OutputEvent[]): unknown =>
      messages.flatMap((event) => (event.type === "user" ? [event.message.content[0]] : []))[0];
    expect(toolText(a.messages)).toMatchObject({ content: "1\tfirst cwd\n2\t" });
    expect(toolText(b.messages)).toMatchObject({ content: "1\tsecond cwd\n2\t" });
    const init = (messages: OutputEvent[]) => messages.find((event) => event.type === "system" && event.subtype === "init");
    expect(init(a.messages)).toMatchObject({ provider: "anthropic", cwd: anthropicPlace.cwd });
    expect(init(b.messages)).toMatchObject({ provider: "openai", cwd: openaiPlace.cwd });
    expect(a.sessionId).not.toBe(b.sessionId);
    // Each server saw only its own session's two requests.
    expect(anthropicPlace.server.requests).toHaveLength(2);
    expect(openaiPlace.server.requests).toHaveLength(2);
  });
});
