import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { scenarioSchema } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { collect, providerRequest, shape, terminal } from "./provider-harness.js";

/** The Anthropic provider driven directly (no CLI), through its real SDK, against the replay server. */
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(scenario: z.input<typeof scenarioSchema>) {
  server = await startMockServer({ scenario: scenarioSchema.parse(scenario), log: () => {} });
  return createAnthropicProvider({ apiKey: "test-key", authToken: undefined, baseUrl: server.url });
}

const request = providerRequest({ model: "claude-opus-5-5" });

describe("Anthropic provider", () => {
  it("529 is a retryable overload, with the server's message", async () => {
    const provider = await providerFor({ turns: [{ error: { status: 529, type: "overloaded_error", message: "Overloaded" } }] });
    expect(terminal(await collect(provider, request))).toEqual({
      type: "error",
      kind: "overloaded",
      status: 529,
      retryable: true,
      message: "Overloaded",
    });
  });

  it("an overloaded_error streamed after the content is a retryable overload, after the blocks it sent", async () => {
    const provider = await providerFor({
      turns: [{ text: "Partial answer", stream_error: { type: "overloaded_error", message: "Overloaded" } }],
    });
    const events = await collect(provider, request);
    expect(shape(events)).toEqual(["message_start", "text_start", "text_delta", "text_end", "error"]);
    expect(terminal(events)).toMatchObject({ type: "error", kind: "overloaded", status: null, retryable: true });
  });

  it('400 "prompt is too long" is a context overflow, never retried', async () => {
    const provider = await providerFor({
      turns: [{ error: { status: 400, type: "invalid_request_error", message: "prompt is too long: 212000 tokens > 200000 maximum" } }],
    });
    expect(terminal(await collect(provider, request))).toEqual({
      type: "error",
      kind: "context_length",
      status: 400,
      retryable: false,
      message: "prompt is too long: 212000 tokens > 200000 maximum",
    });
  });

  it("a 429 carries the retry-after delay", async () => {
    const provider = await providerFor({
      turns: [{ error: { status: 429, type: "rate_limit_error", message: "slow down", retry_after: 2 } }],
    });
    expect(terminal(await collect(provider, request))).toMatchObject({ kind: "rate_limit", retryable: true, retryAfterMs: 2000 });
  });

  it("streams text with the usage of the end event merged into the start's", async () => {
    const provider = await providerFor({ turns: [{ text: "Hello there.", usage: { input_tokens: 30, output_tokens: 4 } }] });
    const events = await collect(provider, request);
    expect(shape(events)).toEqual(["message_start", "text_start", "text_delta", "text_end", "message_end"]);
    expect(events.find((event) => event.type === "text_end")).toMatchObject({ text: "Hello there." });
    expect(terminal(events)).toMatchObject({ type: "message_end", stopReason: { normalized: "end_turn" }, usage: { outputTokens: 4 } });
  });
});
