import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, ResultEvent, UserEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  PROVIDERS_UNDER_TEST,
  results,
  runAgentwire,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";
import { startControlHost } from "../helpers/control-host.js";
import { pidsRunning, until } from "../helpers/processes.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

const agentCall = (id: string, word: string, extra: Record<string, unknown> = {}) => ({
  name: "Agent",
  id,
  input: { description: `Task ${word}`, prompt: `${word}: look at hello.txt and report`, run_in_background: false, ...extra },
});

/** A stdout line reduced to what the golden compares: its kind and whose conversation it belongs to. */
function shape(event: OutputEvent): string {
  const parent = "parent_tool_use_id" in event && event.parent_tool_use_id ? ` <${event.parent_tool_use_id}>` : "";
  switch (event.type) {
    case "system":
      return `system/${event.subtype}`;
    case "assistant":
      return `assistant:${event.message.content[0].type}${parent}`;
    case "user":
      return `user:${event.message.content[0].type}${parent}`;
    default:
      return event.type;
  }
}

function agentResults(events: OutputEvent[]): UserEvent[] {
  return events.filter(
    (event): event is UserEvent =>
      event.type === "user" && event.parent_tool_use_id === null && event.message.content[0].type === "tool_result",
  );
}

function textOf(event: UserEvent): string {
  const block = event.message.content[0];
  if (block.type !== "tool_result") return "";
  return typeof block.content === "string" ? block.content : block.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The scenario of one foreground subagent that reads a file, under a main conversation. */
function oneSubagent() {
  return {
    turns: [
      { match: "PARENT", tool_calls: [agentCall("toolu_agent_1", "ALPHA")], usage: { input_tokens: 1000, output_tokens: 10 } },
      {
        match: "ALPHA",
        tool_calls: [{ name: "Read", id: "toolu_sub_read", input: { file_path: "hello.txt" } }],
        usage: { input_tokens: 20_000, output_tokens: 250 },
      },
      { match: "ALPHA", text: "hello.txt says hi there", usage: { input_tokens: 20_000, output_tokens: 250 } },
      { match: "PARENT", text: "The file says hi.", usage: { input_tokens: 1000, output_tokens: 10 } },
    ],
  };
}

describe("the Agent tool: foreground subagents as nested sessions", () => {
  it("a subagent's tool calls are nested under the Agent call, as Claude Code emits them, and its costs add up", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "hello.txt"), "hi there\n");
    await workspace.useScenario(oneSubagent());
    const run = await runAgentwire(["-p", "PARENT: find out", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.events.map(shape)).toEqual([
      "system/init",
      "assistant:tool_use",
      "system/task_started",
      "user:text <toolu_agent_1>",
      "system/task_progress",
      "assistant:tool_use <toolu_agent_1>",
      "user:tool_result <toolu_agent_1>",
      "system/task_updated",
      "system/task_notification",
      "user:tool_result",
      "assistant:text",
      "result",
    ]);
    const init = run.events[0] as { tools: string[] };
    expect(init.tools[0]).toBe("Task");
    const started = run.events.find((event) => event.type === "system" && event.subtype === "task_started")!;
    expect(started).toMatchObject({
      tool_use_id: "toolu_agent_1",
      description: "Task ALPHA",
      subagent_type: "general-purpose",
      is_backgrounded: false,
      spawn_depth: 1,
      task_type: "local_agent",
      prompt: "ALPHA: look at hello.txt and report",
    });
    const taskId = (started as { task_id: string }).task_id;
    expect(taskId).toMatch(/^a[0-9a-f]{16}$/);
    const prompt = run.events[3] as UserEvent;
    expect(prompt).toMatchObject({ agent_id: taskId, subagent_type: "general-purpose", task_description: "Task ALPHA" });
    expect(run.events[4]).toMatchObject({
      task_id: taskId,
      tool_use_id: "toolu_agent_1",
      description: "Read hello.txt",
      last_tool_name: "Read",
    });
    expect(run.events[7]).toMatchObject({ task_id: taskId, patch: { status: "completed" } });
    const notification = run.events[8] as {
      output_file: string;
      summary: string;
      status: string;
      usage: { total_tokens: number; tool_uses: number };
    };
    expect(notification).toMatchObject({
      status: "completed",
      summary: "hello.txt says hi there",
      usage: { total_tokens: 40_500, tool_uses: 1 },
    });
    expect(notification.output_file).toContain(taskId);
    // The system/task_* lines carry no parent_tool_use_id; the main conversation's lines carry null.
    for (const event of run.events.filter((line) => line.type === "system")) expect(event).not.toHaveProperty("parent_tool_use_id");
    expect(run.events[1]).toMatchObject({ parent_tool_use_id: null });

    const [handBack] = agentResults(run.events);
    const text = textOf(handBack!);
    expect(text).toMatch(/^<tools-used-before-summary>Read<\/tools-used-before-summary>\n/);
    expect(text).toContain("\n  hello.txt says hi there\n");
    expect(text).toContain(`agentId: ${taskId}`);
    expect(text).toMatch(/<usage>subagent_tokens: 40500\ntool_uses: 1\nduration_ms: \d+<\/usage>$/);
    expect(handBack!.tool_use_result).toMatchObject({
      status: "completed",
      prompt: "ALPHA: look at hello.txt and report",
      agentId: taskId,
      agentType: "general-purpose",
      toolsUsed: ["Read"],
      content: [{ type: "text", text: "hello.txt says hi there" }],
      resolvedModel: "claude-opus-5-5",
      totalTokens: 40_500,
      totalToolUseCount: 1,
      usage: { input_tokens: 40_000, output_tokens: 500 },
      toolStats: { readCount: 1, searchCount: 0, bashCount: 0, editFileCount: 0, otherToolCount: 0 },
    });

    // usage and num_turns are the main conversation's; modelUsage and the cost include the subagent.
    const result = results(run.events)[0]!;
    expect(result.num_turns).toBe(2);
    expect(result.usage).toMatchObject({ input_tokens: 2000, output_tokens: 20 });
    expect(result.modelUsage["claude-opus-5-5"]).toMatchObject({ inputTokens: 42_000, outputTokens: 520 });
    expect(result.total_cost_usd).toBeCloseTo(42_000 * 4e-6 + 520 * 20e-6, 9);
    expect(result.subagent_stats).toEqual({
      spawned: 1,
      requested: { background: 0, foreground: 1, unset: 0 },
      started_in_background: 0,
      max_depth: 1,
      spawned_by_subagents: 0,
      completed: 1,
      failed: 0,
      killed: { parent: 0, user: 0, system: 0 },
      refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 },
      by_type: { "general-purpose": 1 },
    });

    // The subagent's requests: its own conversation from the prompt, its own system prompt.
    const subRequests = workspace.server.requests.filter((request) => request.turn === 1 || request.turn === 2);
    const firstSub = subRequests[0]!.body as { system: Array<{ text: string }>; messages: Array<{ content: unknown }> };
    expect(JSON.stringify(firstSub.system)).toContain("subagent");
    expect(firstSub.messages).toHaveLength(1);
    expect(JSON.stringify(firstSub.messages[0])).toContain("ALPHA: look at hello.txt");
  });

  it("PreToolUse and PostToolUse hooks fire for a subagent's calls, told which subagent made them", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "hello.txt"), "hi there\n");
    await workspace.useScenario(oneSubagent());
    const log = join(workspace.root, "hooks.log");
    const hook = { hooks: [{ type: "command", command: `cat >> ${log}; echo >> ${log}` }] };
    const settings = JSON.stringify({ hooks: { PreToolUse: [hook], PostToolUse: [hook] } });
    const run = await runAgentwire(["-p", "PARENT: find out", ...STREAM, "--settings", settings], { workspace });
    expect(run.code, run.stderr).toBe(0);
    const taskId = (run.events.find((event) => event.type === "system" && event.subtype === "task_started") as { task_id: string }).task_id;
    const inputs = (await readFile(log, "utf8"))
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { hook_event_name: string; tool_name: string; agent_id?: string; agent_type?: string });
    expect(inputs.map((input) => `${input.hook_event_name} ${input.tool_name} ${input.agent_id ?? "main"}`)).toEqual([
      "PreToolUse Agent main",
      `PreToolUse Read ${taskId}`,
      `PostToolUse Read ${taskId}`,
      "PostToolUse Agent main",
    ]);
    expect(inputs[1]).toMatchObject({ agent_type: "general-purpose" });
  });

  it("the session's --max-budget-usd bounds its subagents too", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        // $0.0042 for the main conversation's first request: under the budget of $0.05.
        { match: "PARENT", tool_calls: [agentCall("toolu_agent_b", "SPENDER")], usage: { input_tokens: 1000, output_tokens: 10 } },
        // $0.084 for the subagent's: over it, so its Bash call never runs.
        {
          match: "SPENDER",
          tool_calls: [{ name: "Bash", input: { command: "touch spent.txt" } }],
          usage: { input_tokens: 20_000, output_tokens: 200 },
        },
        { match: "PARENT", text: "never asked" },
      ],
    });
    const run = await runAgentwire(["-p", "PARENT: spend", ...STREAM, "--max-budget-usd", "0.05", "--dangerously-skip-permissions"], {
      workspace,
    });
    const result = results(run.events)[0]!;
    expect(result).toMatchObject({ subtype: "error_max_budget_usd", subagent_stats: { spawned: 1, failed: 1 } });
    expect(result.total_cost_usd).toBeCloseTo(21_000 * 4e-6 + 210 * 20e-6, 9);
    expect(textOf(agentResults(run.events)[0]!)).toMatch(/budget/);
    expect(existsSync(join(workspace.cwd, "spent.txt"))).toBe(false);
    expect(workspace.server.requests).toHaveLength(2);
  });

  it("the call's model alias picks the subagent's model; its usage is listed under that model", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [agentCall("toolu_agent_h", "CHEAP", { model: "haiku" })] },
        { match: "CHEAP", text: "done cheaply" },
        { match: "PARENT", text: "Done." },
      ],
    });
    const run = await runAgentwire(["-p", "PARENT: delegate", ...STREAM], { workspace });
    expect(run.code, run.stderr).toBe(0);
    const models = workspace.server.requests.map((request) => (request.body as { model: string }).model);
    expect(models).toEqual(["claude-opus-5-5", "claude-haiku-4-5", "claude-opus-5-5"]);
    expect(Object.keys(results(run.events)[0]!.modelUsage).sort()).toEqual(["claude-haiku-4-5", "claude-opus-5-5"]);
    expect(agentResults(run.events)[0]!.tool_use_result).toMatchObject({ resolvedModel: "claude-haiku-4-5" });
  });

  it("a hook's continue: false inside a subagent stops the whole run", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "hello.txt"), "hi there\n");
    await workspace.useScenario(oneSubagent());
    const stop = { matcher: "Read", hooks: [{ type: "command", command: `echo '{"continue": false, "stopReason": "enough reading"}'` }] };
    const run = await runAgentwire(["-p", "PARENT: find out", ...STREAM, "--settings", JSON.stringify({ hooks: { PreToolUse: [stop] } })], {
      workspace,
    });
    expectWellFormedRun(run, 1);
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", terminal_reason: "hook_stopped" });
    expect(run.events.filter((event) => event.type === "system" && event.subtype === "warning")).toHaveLength(1);
    // Neither the subagent nor the main conversation asked the model again.
    expect(workspace.server.requests).toHaveLength(2);
  });

  it("every result carries subagent_stats, zeroed when no agent ran", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["-p", "hi", ...STREAM], { workspace });
    expect(results(run.events)[0]!.subagent_stats).toMatchObject({ spawned: 0, completed: 0, by_type: {} });
  });

  it("two Agent calls in one response run at once; their results come in the order they finish", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "hello.txt"), "hi there\n");
    const each = { input_tokens: 20_000, output_tokens: 500 };
    await workspace.useScenario({
      turns: [
        {
          match: "PARENT",
          tool_calls: [agentCall("toolu_slow", "SLOW"), agentCall("toolu_fast", "FAST")],
          usage: { input_tokens: 1000, output_tokens: 10 },
        },
        // SLOW streams its answer over about a second; FAST answers at once.
        { match: "SLOW", text: "slow report, written word by word", chunk_chars: 2, chunk_delay_ms: 60, usage: each },
        { match: "FAST", text: "fast report", usage: each },
        { match: "PARENT", text: "Both reported.", usage: { input_tokens: 1000, output_tokens: 10 } },
      ],
    });
    const run = await runAgentwire(["-p", "PARENT: do both", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const requests = workspace.server.requests;
    const slow = requests.find((request) => request.turn === 1)!;
    const fast = requests.find((request) => request.turn === 2)!;
    // Both subagents asked before the slow one had finished: they ran side by side.
    expect(Math.abs(Date.parse(slow.time) - Date.parse(fast.time))).toBeLessThan(500);
    expect(agentResults(run.events).map((event) => (event.message.content[0] as { tool_use_id: string }).tool_use_id)).toEqual([
      "toolu_fast",
      "toolu_slow",
    ]);
    const result = results(run.events)[0]!;
    // Claude Code's own figures for this run: usage 2000/20, modelUsage 42000/1020, $0.1884.
    expect(result.usage).toMatchObject({ input_tokens: 2000, output_tokens: 20 });
    expect(result.modelUsage["claude-opus-5-5"]).toMatchObject({ inputTokens: 42_000, outputTokens: 1020 });
    expect(result.total_cost_usd).toBeCloseTo(0.1884, 9);
    expect(result.subagent_stats).toMatchObject({ spawned: 2, completed: 2, by_type: { "general-purpose": 2 } });
  });

  it("a subagent's permission question reaches the host with its agent_id, and the host's answer applies", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [agentCall("toolu_agent_w", "WRITER")] },
        {
          match: "WRITER",
          tool_calls: [{ name: "Write", id: "toolu_sub_write", input: { file_path: "from-sub.txt", content: "written by a subagent\n" } }],
        },
        { match: "WRITER", text: "I wrote from-sub.txt" },
        { match: "PARENT", text: "Done." },
      ],
    });
    const host = startControlHost(["--permission-prompt-tool", "stdio"], {
      workspace,
      answer: (request) => (request.subtype === "can_use_tool" ? { behavior: "allow" } : {}),
    });
    host.send({ type: "user", message: { role: "user", content: "PARENT: write it" } });
    await host.waitUntil((events) => events.some((event) => event.type === "result"));
    const run = await host.finish();
    const started = run.events.find((event) => event.type === "system" && event.subtype === "task_started") as { task_id: string };
    const questions = host.requests.filter((request) => request.subtype === "can_use_tool");
    // Only the subagent's Write was asked about: not the Agent call.
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ tool_name: "Write", tool_use_id: "toolu_sub_write", agent_id: started.task_id });
    expect(await readFile(join(workspace.cwd, "from-sub.txt"), "utf8")).toBe("written by a subagent\n");
    expect(results(run.events)[0]).toMatchObject({ subtype: "success" });
  });

  it("an interrupt stops every running subagent and kills their processes", async () => {
    workspace = await createWorkspace("text");
    const marker = `sleep 45.${process.pid}`;
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [agentCall("toolu_waits", "WAITER"), agentCall("toolu_sleeps", "SLEEPER")] },
        // WAITER's model takes half a minute to answer; SLEEPER runs a long command.
        { match: "WAITER", text: "x".repeat(600), chunk_chars: 1, chunk_delay_ms: 50 },
        { match: "SLEEPER", tool_calls: [{ name: "Bash", input: { command: `echo started; ${marker}; echo SLEPT` } }] },
        { match: "SLEEPER", text: "never asked" },
        { match: "PARENT", text: "never asked" },
      ],
    });
    const host = startControlHost(["--dangerously-skip-permissions"], { workspace, answer: () => ({}) });
    host.send({ type: "user", message: { role: "user", content: "PARENT: go" } });
    await host.waitUntil((events) => events.some((event) => event.type === "tool_progress" && event.parent_tool_use_id === "toolu_sleeps"));
    expect(pidsRunning(marker).length).toBeGreaterThan(0);
    host.send({ type: "control_request", request_id: "stop", request: { subtype: "interrupt" } });
    await host.waitUntil((events) => events.some((event) => event.type === "result"));
    const run = await host.finish();
    expectWellFormedRun(run, 1);
    const handBacks = agentResults(run.events);
    expect(handBacks).toHaveLength(2);
    for (const handBack of handBacks) {
      expect((handBack.message.content[0] as { is_error?: boolean }).is_error).toBe(true);
      expect(textOf(handBack)).toMatch(/user stopped this agent/);
    }
    const result = results(run.events)[0] as ResultEvent;
    expect(result).toMatchObject({ subtype: "error_during_execution", terminal_reason: "aborted_tools" });
    expect(result.subagent_stats.killed).toEqual({ parent: 0, user: 2, system: 0 });
    expect(await until(() => pidsRunning(marker).length === 0, 5000)).toBe(true);
    // No subagent asked the model anything after the interrupt.
    expect(workspace.server.requests.map((request) => request.turn)).not.toContain(3);
  });

  it("a subagent cannot start agents of its own beyond the depth limit: the call is refused and counted", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [agentCall("toolu_outer", "OUTER")] },
        { match: "OUTER", tool_calls: [agentCall("toolu_inner", "INNER")] },
        { match: "OUTER", text: "could not delegate" },
        { match: "PARENT", text: "Done." },
      ],
    });
    const run = await runAgentwire(["-p", "PARENT: nest", ...STREAM], { workspace });
    expect(run.code, run.stderr).toBe(0);
    const refusal = run.events.find(
      (event): event is UserEvent =>
        event.type === "user" && event.parent_tool_use_id === "toolu_outer" && event.message.content[0].type === "tool_result",
    )!;
    expect(textOf(refusal)).toMatch(/cannot start agents of its own/);
    expect(results(run.events)[0]!.subagent_stats).toMatchObject({ spawned: 1, refused: { depth_limit: 1 }, requested: { foreground: 2 } });
  });

  it("a fork starts from a copy of the conversation: the parent's messages, its pending call answered, then the task", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [agentCall("toolu_fork", "FORKTASK", { subagent_type: "fork" })] },
        // The fork's request (its conversation starts with the parent's prompt too, so no `match`: turns go in order).
        { text: "the word was KIWI" },
        { text: "The fork remembered." },
      ],
    });
    const run = await runAgentwire(["-p", "PARENT: remember the word KIWI", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    const forkRequest = workspace.server.requests[1]!.body as {
      messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
    };
    const [first, call, start] = forkRequest.messages;
    expect(JSON.stringify(first)).toContain("PARENT: remember the word KIWI");
    expect(call).toMatchObject({ role: "assistant", content: [expect.objectContaining({ type: "tool_use", id: "toolu_fork" })] });
    expect(start!.role).toBe("user");
    expect(start!.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_fork" }),
      expect.objectContaining({ type: "text", text: "FORKTASK: look at hello.txt and report" }),
    ]);
    const [handBack] = agentResults(run.events);
    expect(textOf(handBack!)).toContain("the word was KIWI");
    expect(results(run.events)[0]!.subagent_stats).toMatchObject({ spawned: 1, completed: 1, by_type: { fork: 1 } });
  });

  for (const provider of Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[]) {
    it(`runs a subagent with ${provider}`, async () => {
      workspace = await createWorkspace("text");
      await writeFile(join(workspace.cwd, "hello.txt"), "hi there\n");
      await workspace.useScenario(oneSubagent());
      const run = await runAgentwire(["-p", "PARENT: find out", ...STREAM], { workspace, provider });
      expect(run.code, run.stderr).toBe(0);
      const [handBack] = agentResults(run.events);
      expect(textOf(handBack!)).toContain("hello.txt says hi there");
      const nested = run.events.filter((event) => "parent_tool_use_id" in event && event.parent_tool_use_id === "toolu_agent_1");
      expect(nested.map(shape)).toEqual([
        "user:text <toolu_agent_1>",
        "assistant:tool_use <toolu_agent_1>",
        "user:tool_result <toolu_agent_1>",
      ]);
      expect(results(run.events)[0]!.subagent_stats.completed).toBe(1);
      expect(existsSync(join(workspace.cwd, "hello.txt"))).toBe(true);
    });
  }
});
