import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, sequence, type Workspace } from "../helpers/agentwire.js";

// The parts of the OpenAI family that are not the same for every provider: warnings, local
// model limits, OpenAI's context-length errors, provider inference and start-up checks.

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace;

afterEach(async () => {
  await workspace?.cleanup();
});

const local = (url: string, model: string) => ["--provider", "ollama", "--model", model, "--base-url", `${url}/v1`];

describe("local and OpenAI-compatible servers", () => {
  it("a model without tools: one system/warning with a tip, then a text-only session that succeeds", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { error: { status: 400, message: "registry.ollama.ai/library/gemma2:2b does not support tools" } },
        { text: "I can only talk." },
      ],
    });
    const run = await runAgentwire(
      ["-p", "Read hello.txt", ...STREAM, ...local(workspace.server.url, "gemma2:2b"), "--context-window", "8192"],
      { workspace },
    );
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "system/warning", "assistant:text", "result/success"]);
    expect(run.events[1]).toMatchObject({
      code: "tools_unsupported",
      message: expect.stringMatching(/gemma2:2b does not support tool calling.*qwen2\.5/s),
    });
    const result = results(run.events)[0]!;
    expect(result).toMatchObject({ result: "I can only talk.", total_cost_usd: 0 });
    expect(result.modelUsage["gemma2:2b"]).toMatchObject({ contextWindow: 8192 });
    expect(workspace.server.requests.map((request) => "tools" in (request.body as object))).toEqual([true, false]);
  });

  it("a base URL without /v1: the 404 names the URL asked and the fix", async () => {
    workspace = await createWorkspace("text");
    const { url } = workspace.server;
    const run = await runAgentwire(["-p", "hi", ...STREAM, "--provider", "llamacpp", "--model", "qwen2.5-coder-7b", "--base-url", url], {
      workspace,
    });
    expect(run.code).toBe(1);
    const result = results(run.events)[0]!;
    expect(result).toMatchObject({ is_error: true, api_error_status: 404 });
    expect(result.errors![0]).toContain(
      `(POST ${url}/chat/completions). OpenAI-compatible servers serve their API under /v1: try --base-url ${url}/v1.`,
    );
  });

  it("a model without a list price: cost 0 and one unknown_model_price warning per session", async () => {
    workspace = await createWorkspace("multi-turn");
    const stdin = ["First?", "Second?"].map((text) => `${JSON.stringify({ type: "user", content: text })}\n`).join("");
    const run = await runAgentwire(
      [
        "--input-format",
        "stream-json",
        ...STREAM,
        "--provider",
        "openai-compatible",
        "--model",
        "mock-model",
        "--base-url",
        `${workspace.server.url}/v1`,
      ],
      { workspace, stdin },
    );
    expectWellFormedRun(run, 2);
    const warnings = run.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings).toEqual([expect.objectContaining({ code: "unknown_model_price", message: expect.stringContaining("mock-model") })]);
    expect(results(run.events).map((result) => result.total_cost_usd)).toEqual([0, 0]);
    expect(results(run.events)[1]!.modelUsage["mock-model"]!.inputTokens).toBeGreaterThan(0);
  });

  it("with automatic compaction off, a context-length error is not retried and the result says so", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ error: { status: 400, code: "context_length_exceeded", message: "Your input exceeds the context window of this model." } }],
    });
    const run = await runAgentwire(
      ["-p", "hi", ...STREAM, "--model", "gpt-4.1", "--base-url", `${workspace.server.url}/v1`, "--no-auto-compact"],
      { workspace, env: { OPENAI_API_KEY: "k" } },
    );
    expectWellFormedRun(run, 1);
    expect(sequence(run.events)).toEqual(["system/init", "assistant:text", "result/error_during_execution"]);
    expect(run.events[0]).toMatchObject({ provider: "openai" });
    expect(results(run.events)[0]!.errors![0]).toMatch(/^Context too long \(HTTP 400\): Your input exceeds the context window/);
    expect(results(run.events)[0]).toMatchObject({ error_code: "context_length_exceeded", api_error_status: 400 });
    expect(run.events[1]).toMatchObject({ type: "assistant", error: "context_length_exceeded", is_api_error_message: true });
    expect(workspace.server.requests).toHaveLength(1);
  });

  it("start-up checks: openai-compatible needs an address, local servers need a model, openai needs a key", async () => {
    workspace = await createWorkspace("text");
    const noUrl = await runAgentwire(["-p", "hi", ...STREAM, "--provider", "openai-compatible", "--model", "m"], { workspace });
    expect(noUrl.code).toBe(1);
    expect(results(noUrl.events)[0]).toMatchObject({
      terminal_reason: "invalid_arguments",
      errors: [expect.stringContaining("--base-url")],
    });
    const noModel = await runAgentwire(["-p", "hi", ...STREAM, "--provider", "vllm"], { workspace });
    expect(results(noModel.events)[0]!.errors![0]).toMatch(/--provider vllm needs --model/);
    const noKey = await runAgentwire(["-p", "hi", ...STREAM, "--provider", "openai", "--base-url", `${workspace.server.url}/v1`], {
      workspace,
    });
    expect(noKey.code).toBe(1);
    expect(results(noKey.events)[0]!.errors![0]).toMatch(/OPENAI_API_KEY is not set/);
    expect(workspace.server.requests).toHaveLength(0);
  });
});

describe("Ollama through its native API", () => {
  type OllamaBody = {
    model: string;
    stream: boolean;
    keep_alive: string;
    options: { num_ctx: number };
    messages: Array<Record<string, unknown>>;
    tools?: unknown[];
  };

  it("asks for a context that fits the run and keeps the model loaded; no /v1 needed", async () => {
    workspace = await createWorkspace("read");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${workspace.cwd}/hello.txt`, "Hello, world!\n");
    const run = await runAgentwire(
      ["-p", "What is in hello.txt?", ...STREAM, "--provider", "ollama", "--model", "qwen2.5-coder:7b", "--base-url", workspace.server.url],
      { workspace },
    );
    expectWellFormedRun(run, 1);
    expect(workspace.server.requests.map((request) => request.path)).toEqual(["/api/chat", "/api/chat"]);
    const [first, second] = workspace.server.requests.map((request) => request.body as OllamaBody);
    // The system prompt and tool schemas alone are several thousand tokens: more than Ollama's default.
    expect(first!.options.num_ctx).toBe(16_384);
    expect(first!.keep_alive).toBe("30m");
    expect(first!.stream).toBe(true);
    expect(first!.tools!.length).toBeGreaterThan(0);
    // The second request carries the call with object arguments and the result naming its tool.
    const assistant = second!.messages.find((message) => message.role === "assistant")!;
    expect(assistant.tool_calls).toEqual([{ id: expect.any(String), function: { name: "Read", arguments: { file_path: "hello.txt" } } }]);
    expect(second!.messages.find((message) => message.role === "tool")).toMatchObject({
      tool_name: "Read",
      content: expect.stringContaining("Hello, world!"),
    });
    expect(second!.options.num_ctx).toBe(16_384);
  });

  it("--context-window is the context asked for; a longer prompt gets one warning; keep_alive can be set", async () => {
    workspace = await createWorkspace("multi-turn");
    const stdin = ["First?", "Second?"].map((text) => `${JSON.stringify({ type: "user", content: text })}\n`).join("");
    // Compaction would kick in at this window; this test is about what Ollama is asked for.
    const run = await runAgentwire(
      [
        "--input-format",
        "stream-json",
        ...STREAM,
        ...local(workspace.server.url, "llama3.1:8b"),
        "--context-window",
        "2048",
        "--no-auto-compact",
      ],
      {
        workspace,
        stdin,
        env: { AGENTWIRE_OLLAMA_KEEP_ALIVE: "-1" },
      },
    );
    expectWellFormedRun(run, 2);
    const bodies = workspace.server.requests.map((request) => request.body as OllamaBody);
    expect(bodies.map((body) => [body.options.num_ctx, body.keep_alive])).toEqual([
      [2048, "-1"],
      [2048, "-1"],
    ]);
    const warnings = run.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "context_window_exceeded",
        message: expect.stringMatching(/more than --context-window 2048: Ollama will drop the start of the conversation/),
      }),
    ]);
  });
});

describe("a local model with a small context window", () => {
  it("warns when a request will not fit; the compact tool profile fits where the default does not", async () => {
    workspace = await createWorkspace("text");
    const args = [
      "-p",
      "hi",
      ...STREAM,
      "--provider",
      "llamacpp",
      "--model",
      "qwen2.5-coder-7b",
      "--base-url",
      `${workspace.server.url}/v1`,
      "--context-window",
      "4096",
    ];
    const full = await runAgentwire(args, { workspace });
    expectWellFormedRun(full, 1);
    const warnings = full.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "context_window_exceeded",
        message: expect.stringMatching(/more than the model's context window of 4096 \(--context-window\).*--tool-profile compact/),
      }),
    ]);

    await workspace.useScenario({ turns: [{ text: "ok" }] });
    const compact = await runAgentwire([...args, "--tool-profile", "compact"], { workspace });
    expectWellFormedRun(compact, 1);
    expect(compact.events.filter((event) => event.type === "system" && event.subtype === "warning")).toEqual([]);
  });
});
