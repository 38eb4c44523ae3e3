import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { scenarioSchema } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { createOpenAIResponsesProvider } from "../../src/providers/openai-responses.js";
import type { ProviderEvent } from "../../src/providers/types.js";
import { collect, providerRequest, shape, terminal } from "./provider-harness.js";

// The real `openai` SDK over loopback HTTP against the replay server's Responses route.

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(scenario: z.input<typeof scenarioSchema>) {
  const server = await startMockServer({ scenario: scenarioSchema.parse(scenario) });
  servers.push(server);
  return { server, provider: createOpenAIResponsesProvider({ id: "openai", apiKey: "test-key", baseUrl: `${server.url}/v1` }) };
}

function ofType<T extends ProviderEvent["type"]>(events: ProviderEvent[], type: T): Array<Extract<ProviderEvent, { type: T }>> {
  return events.filter((event): event is Extract<ProviderEvent, { type: T }> => event.type === type);
}

describe("OpenAI Responses provider", () => {
  it("reasoning summary → thinking with the encrypted reasoning as signature, then text; usage normalized", async () => {
    const { provider } = await serve({
      turns: [
        { thinking: "Think it through.", text: "Answer.", usage: { input_tokens: 40, cache_read_input_tokens: 60, output_tokens: 9 } },
      ],
    });
    const events = await collect(provider, providerRequest({ model: "gpt-5.4" }));
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
    expect(events[0]).toMatchObject({ messageId: "resp_mock_0001", model: "gpt-5.4", requestId: "req_mock_0001" });
    const thinking = ofType(events, "thinking_end")[0]!;
    expect(thinking.thinking).toBe("Think it through.");
    expect(thinking.signature).toMatch(/^openai-reasoning:/);
    expect(terminal(events)).toMatchObject({
      type: "message_end",
      stopReason: { normalized: "end_turn", raw: "completed" },
      usage: { inputTokens: 40, cacheReadInputTokens: 60, outputTokens: 9, reasoningTokens: 5 },
    });
  });

  it("sends a stateless request: instructions, input items, function tools, encrypted reasoning for reasoning models", async () => {
    const { server, provider } = await serve({ turns: [{ text: "ok" }, { text: "ok" }] });
    await collect(provider, providerRequest({ model: "gpt-5.4" }));
    expect(server.requests[0]!.body).toEqual({
      model: "gpt-5.4",
      stream: true,
      store: false,
      instructions: "Be brief.",
      input: [{ role: "user", content: [{ type: "input_text", text: "Hi" }] }],
      tools: [
        {
          type: "function",
          name: "Read",
          description: "Read a file.",
          parameters: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
          strict: false,
        },
      ],
      max_output_tokens: 1024,
      prompt_cache_key: "session-1",
      include: ["reasoning.encrypted_content"],
    });
    // A thinking budget asks for summaries; models without reasoning get no reasoning fields.
    await collect(provider, providerRequest({ model: "gpt-4.1", thinkingBudgetTokens: 2_000 }));
    expect(server.requests[1]!.body).not.toHaveProperty("include");
    expect(server.requests[1]!.body).not.toHaveProperty("reasoning");
  });

  it("function calls with their call ids; the history goes back as reasoning, function_call and function_call_output items", async () => {
    const { server, provider } = await serve({
      turns: [{ thinking: "Need the file.", tool_calls: [{ name: "Read", input: { file_path: "a.txt" } }] }, { text: "Done." }],
    });
    const request = providerRequest({ model: "o4-mini", thinkingBudgetTokens: 8_000 });
    const events = await collect(provider, request);
    const call = ofType(events, "tool_call_end")[0]!;
    expect(call).toEqual({ type: "tool_call_end", index: 1, id: "call_mock_0001", name: "Read", input: { file_path: "a.txt" } });
    expect(terminal(events)).toMatchObject({ stopReason: { normalized: "tool_use", raw: "completed" } });
    expect(server.requests[0]!.body).toMatchObject({ reasoning: { effort: "medium", summary: "auto" } });

    const thinking = ofType(events, "thinking_end")[0]!;
    await collect(
      provider,
      providerRequest({
        ...request,
        messages: [
          ...request.messages,
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: thinking.thinking, signature: thinking.signature! },
              { type: "tool_use", id: call.id, name: call.name, input: call.input },
            ],
          },
          { role: "user", content: [{ type: "tool_result", toolUseId: call.id, content: "1\thello", isError: false }] },
          // Another vendor's thinking cannot be sent to OpenAI; it is left out.
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "claude", signature: "EqQBCkgI" },
              { type: "text", text: "Hm." },
            ],
          },
        ],
      }),
    );
    expect((server.requests[1]!.body as { input: unknown[] }).input.slice(1)).toEqual([
      {
        type: "reasoning",
        id: "rs_mock_0001",
        encrypted_content: "mock_encrypted_mock_0001",
        summary: [{ type: "summary_text", text: "Need the file." }],
      },
      { type: "function_call", call_id: "call_mock_0001", name: "Read", arguments: '{"file_path":"a.txt"}' },
      { type: "function_call_output", call_id: "call_mock_0001", output: "1\thello" },
      { role: "assistant", content: "Hm." },
    ]);
  });

  it("response.incomplete for max_output_tokens is max_tokens", async () => {
    const { provider } = await serve({ turns: [{ text: "Cut off", stop_reason: "max_tokens" }] });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({
      type: "message_end",
      stopReason: { normalized: "max_tokens", raw: "max_output_tokens" },
    });
  });

  it("errors: HTTP statuses, streamed error events, dropped streams", async () => {
    const { provider } = await serve({
      turns: [
        { error: { status: 429, retry_after: 1 } },
        { error: { status: 400, code: "context_length_exceeded", message: "Your input exceeds the context window of this model." } },
        { text: "Partial", stream_error: { type: "rate_limit_exceeded", message: "Slow down." } },
        { text: "Partial answer that drops.", disconnect_after_chunks: 5 },
      ],
    });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({
      type: "error",
      kind: "rate_limit",
      status: 429,
      retryAfterMs: 1000,
      retryable: true,
    });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({ type: "error", kind: "context_length", retryable: false });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({
      type: "error",
      kind: "rate_limit",
      status: null,
      message: "Slow down.",
    });
    expect(terminal(await collect(provider, providerRequest()))).toMatchObject({ type: "error", kind: "disconnect", retryable: true });
  });
});
