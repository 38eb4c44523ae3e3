import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { scenarioSchema } from "../../src/mock-server/scenario.js";
import { scenarioSchema as schema } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { createOpenAIChatProvider, type OpenAIChatProviderOptions } from "../../src/providers/openai-chat.js";
import type { ProviderEvent } from "../../src/providers/types.js";
import { collect, providerRequest, shape, terminal } from "./provider-harness.js";

// The real `openai` SDK over loopback HTTP against the replay server's Chat Completions route:
// what is asserted is what agentwire makes of the real wire format, and what it sends.

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(scenario: z.input<typeof scenarioSchema>, options: Partial<OpenAIChatProviderOptions> = {}) {
  const server = await startMockServer({ scenario: schema.parse(scenario) });
  servers.push(server);
  const provider = createOpenAIChatProvider({
    id: "openai",
    apiKey: "test-key",
    baseUrl: `${server.url}/v1`,
    flavor: "openai",
    ...options,
  });
  return { server, provider };
}

function body(server: MockServer, index = 0): Record<string, unknown> {
  return server.requests[index]!.body as Record<string, unknown>;
}

function ofType<T extends ProviderEvent["type"]>(events: ProviderEvent[], type: T): Array<Extract<ProviderEvent, { type: T }>> {
  return events.filter((event): event is Extract<ProviderEvent, { type: T }> => event.type === type);
}

describe("OpenAI Chat Completions provider", () => {
  it("streams reasoning and text; usage puts cached tokens apart from input", async () => {
    const { provider } = await serve({
      turns: [{ thinking: "Think.", text: "Hello there!", usage: { input_tokens: 90, cache_read_input_tokens: 10, output_tokens: 7 } }],
    });
    const events = await collect(provider, providerRequest());
    expect(shape(events)).toEqual([
      "message_start",
      "thinking_start",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "message_end",
    ]);
    expect(events[0]).toMatchObject({
      type: "message_start",
      messageId: "chatcmpl_mock_0001",
      model: "gpt-4.1",
      requestId: "req_mock_0001",
    });
    expect(ofType(events, "thinking_end")[0]).toEqual({ type: "thinking_end", index: 0, thinking: "Think." });
    expect(ofType(events, "text_end")[0]).toEqual({ type: "text_end", index: 1, text: "Hello there!" });
    expect(terminal(events)).toMatchObject({
      type: "message_end",
      stopReason: { normalized: "end_turn", raw: "stop" },
      usage: {
        inputTokens: 90,
        cacheReadInputTokens: 10,
        outputTokens: 7,
        cacheCreationInputTokens: 0,
        reasoningTokens: 2,
        raw: { prompt_tokens: 100 },
      },
    });
  });

  it("sends the OpenAI request: system message, function tools, usage requested, output cap, cache key", async () => {
    const { server, provider } = await serve({ turns: [{ text: "ok" }] });
    await collect(provider, providerRequest({ model: "o4-mini", thinkingBudgetTokens: 20_000 }));
    expect(body(server)).toEqual({
      model: "o4-mini",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "Read",
            description: "Read a file.",
            parameters: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
          },
        },
      ],
      max_completion_tokens: 1024,
      prompt_cache_key: "session-1",
      reasoning_effort: "high",
    });
  });

  it("assembles parallel tool calls with the server's ids; finish reason tool_calls is tool_use", async () => {
    const { provider } = await serve({
      turns: [
        {
          tool_calls: [
            { name: "Read", input: { file_path: "a.txt" } },
            { name: "Read", input: { file_path: "b.txt" }, id: "call_fixed" },
          ],
        },
      ],
    });
    const events = await collect(provider, providerRequest());
    expect(ofType(events, "tool_call_end")).toEqual([
      { type: "tool_call_end", index: 0, id: "call_mock_0001", name: "Read", input: { file_path: "a.txt" } },
      { type: "tool_call_end", index: 1, id: "call_fixed", name: "Read", input: { file_path: "b.txt" } },
    ]);
    expect(terminal(events)).toMatchObject({ stopReason: { normalized: "tool_use", raw: "tool_calls" } });
  });

  it("converts the history: tool calls on the assistant message, results as tool messages, thinking left out", async () => {
    const { server, provider } = await serve({ turns: [{ text: "ok" }] });
    await collect(
      provider,
      providerRequest({
        messages: [
          { role: "user", content: [{ type: "text", text: "Read a.txt" }] },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "hm", signature: "sig" },
              { type: "text", text: "Reading." },
              { type: "tool_use", id: "c1", name: "Read", input: { file_path: "a.txt" } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", toolUseId: "c1", content: "missing", isError: true },
              { type: "text", text: "And?" },
            ],
          },
        ],
      }),
    );
    expect((body(server).messages as unknown[]).slice(1)).toEqual([
      { role: "user", content: "Read a.txt" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "Read", arguments: '{"file_path":"a.txt"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "Error: missing" },
      { role: "user", content: "And?" },
    ]);
  });

  it.each([
    [
      { status: 429, retry_after: 2 },
      { kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 2000 },
    ],
    [{ status: 401 }, { kind: "auth", status: 401, retryable: false }],
    [{ status: 403 }, { kind: "auth", status: 403, retryable: false }],
    [{ status: 500 }, { kind: "server", status: 500, retryable: true }],
    [{ status: 503 }, { kind: "server", status: 503, retryable: true }],
    [
      { status: 400, code: "context_length_exceeded", message: "Input too long." },
      { kind: "context_length", status: 400, retryable: false, message: "Input too long." },
    ],
    [
      { status: 400, message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens." },
      { kind: "context_length", retryable: false },
    ],
    [
      { status: 429, code: "insufficient_quota", message: "You exceeded your current quota." },
      { kind: "invalid_request", retryable: false },
    ],
    [
      { status: 400, message: "Unsupported parameter." },
      { kind: "invalid_request", status: 400, retryable: false },
    ],
  ])("maps HTTP errors like anthropic.ts: %j", async (error, expected) => {
    const { provider } = await serve({ turns: [{ error }] });
    const events = await collect(provider, providerRequest());
    expect(events).toHaveLength(1);
    expect(terminal(events)).toMatchObject({ type: "error", ...expected });
  });

  it("a dropped stream is a retryable disconnect; an error chunk mid-stream is classified", async () => {
    const { provider } = await serve({
      turns: [
        { text: "A long answer that will be cut off.", disconnect_after_chunks: 3 },
        { text: "Partial", stream_error: { type: "server_error", message: "boom" } },
      ],
    });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({
      type: "error",
      kind: "disconnect",
      status: null,
      retryable: true,
    });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({
      type: "error",
      kind: "server",
      retryable: true,
      message: "boom",
    });
  });

  it("an abort ends the attempt with one aborted error", async () => {
    const { provider } = await serve({ turns: [{ text: "Slow answer that keeps going for a while.", chunk_delay_ms: 50 }] });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const event of provider.stream(providerRequest(), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(terminal(events)).toMatchObject({ type: "error", kind: "aborted", retryable: false });
  });

  it("max_tokens: the stop reason is max_tokens and the message ends normally", async () => {
    const { provider } = await serve({ turns: [{ text: "Cut", stop_reason: "max_tokens" }] });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({
      type: "message_end",
      stopReason: { normalized: "max_tokens", raw: "length" },
    });
  });
});

describe("OpenAI-compatible servers (compatible flavour)", () => {
  const compatible = { id: "ollama", flavor: "compatible" as const };

  it("sends no output cap and no OpenAI-only fields", async () => {
    const { server, provider } = await serve({ turns: [{ text: "ok" }] }, compatible);
    await collect(provider, providerRequest({ model: "llama3.1" }));
    expect(Object.keys(body(server)).sort()).toEqual(["messages", "model", "stream", "stream_options", "tools"]);
  });

  it("usage-less streams, missing tool-call ids and id/name repeated on every piece", async () => {
    const { provider } = await serve(
      {
        turns: [
          {
            tool_calls: [
              { name: "Read", input: { file_path: "a.txt" } },
              { name: "Write", input: { file_path: "b", content: "x" } },
            ],
            quirks: { omit_usage: true, omit_tool_call_ids: true, split_tool_call_arguments: true },
          },
        ],
      },
      compatible,
    );
    const events = await collect(
      provider,
      providerRequest({
        model: "llama3.1",
        tools: [providerRequest().tools[0]!, { name: "Write", description: "Write.", inputSchema: { type: "object" } }],
      }),
    );
    expect(ofType(events, "tool_call_end").map((event) => [event.id, event.name, event.input])).toEqual([
      ["call_1", "Read", { file_path: "a.txt" }],
      ["call_2", "Write", { file_path: "b", content: "x" }],
    ]);
    expect(terminal(events)).toMatchObject({ type: "message_end", usage: { inputTokens: 0, outputTokens: 0 } });
  });

  it("generated ids continue after the calls already in the conversation", async () => {
    const { provider } = await serve(
      { turns: [{ tool_calls: [{ name: "Read", input: {} }], quirks: { omit_tool_call_ids: true } }] },
      compatible,
    );
    const history = providerRequest().messages.concat([
      { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "Read", input: {} }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "call_1", content: "x", isError: false }] },
    ]);
    const events = await collect(provider, providerRequest({ model: "llama3.1", messages: history }));
    expect(ofType(events, "tool_call_end")[0]!.id).toBe("call_2");
  });

  it.each(["json", "tags"] as const)("tool calls printed as text (%s) become real calls; the stop reason is tool_use", async (mode) => {
    const { provider } = await serve(
      {
        turns: [
          {
            ...(mode === "tags" ? { text: "Let me look." } : {}),
            tool_calls: [{ name: "Read", input: { file_path: "a.txt" } }],
            quirks: { tool_calls_as_text: mode },
          },
        ],
      },
      compatible,
    );
    const events = await collect(provider, providerRequest({ model: "qwen2.5-coder:7b" }));
    expect(ofType(events, "text_end").map((event) => event.text)).toEqual(mode === "tags" ? ["Let me look.\n"] : []);
    expect(ofType(events, "tool_call_end").map((event) => [event.id, event.name, event.input])).toEqual([
      ["call_1", "Read", { file_path: "a.txt" }],
    ]);
    expect(terminal(events)).toMatchObject({ stopReason: { normalized: "tool_use", raw: "stop" } });
  });

  it("the OpenAI flavour leaves printed calls as text", async () => {
    const { provider } = await serve({
      turns: [{ tool_calls: [{ name: "Read", input: { file_path: "a.txt" } }], quirks: { tool_calls_as_text: "json" } }],
    });
    const events = await collect(provider, providerRequest());
    expect(ofType(events, "tool_call_end")).toEqual([]);
    expect(ofType(events, "text_end")[0]!.text).toBe('{"name":"Read","arguments":{"file_path":"a.txt"}}');
  });

  it('a 400 "does not support tools": one warning, the same request again without tools, text-only from then on', async () => {
    const { server, provider } = await serve(
      {
        turns: [
          { error: { status: 400, message: "registry.ollama.ai/library/gemma2:2b does not support tools" } },
          { text: "I can only talk." },
          { text: "Still talking." },
        ],
      },
      compatible,
    );
    const first = await collect(provider, providerRequest({ model: "gemma2:2b" }));
    expect(first[0]).toMatchObject({
      type: "warning",
      code: "tools_unsupported",
      message: expect.stringContaining("gemma2:2b does not support tool calling"),
    });
    expect(first[0]).toMatchObject({ message: expect.stringContaining("qwen2.5") });
    expect(terminal(first)).toMatchObject({ type: "message_end", stopReason: { normalized: "end_turn" } });
    const second = await collect(provider, providerRequest({ model: "gemma2:2b" }));
    expect(second.some((event) => event.type === "warning")).toBe(false);
    expect(terminal(second)).toMatchObject({ type: "message_end" });
    expect(server.requests.map((request) => "tools" in (request.body as object))).toEqual([true, false, false]);
    expect(body(server, 1).messages).toEqual(body(server, 0).messages);
  });

  it("the same 400 from OpenAI itself is an ordinary invalid request", async () => {
    const { server, provider } = await serve({ turns: [{ error: { status: 400, message: "x does not support tools" } }] });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({
      type: "error",
      kind: "invalid_request",
      retryable: false,
    });
    expect(server.requests).toHaveLength(1);
  });
});
