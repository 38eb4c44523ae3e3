import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/conversation/messages.js";
import type { Scenario } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { createGcloudTokenSource } from "../../src/providers/gcloud-token.js";
import { createGeminiProvider, type GeminiProviderOptions } from "../../src/providers/gemini.js";
import { apiKeySource, createProvider } from "../../src/providers/registry.js";
import { parseArguments } from "../../src/cli/arguments.js";
import { costUsd, modelLimits, thinkingStyle } from "../../src/providers/models.js";
import type { ProviderEvent, ProviderEventOf, ProviderRequest } from "../../src/providers/types.js";

// Drives the real @google/genai client over loopback: against the replay server for scripted
// conversations, and against a bare HTTP server for raw Gemini chunks the scenarios cannot
// express. Nothing in the SDK is mocked.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function serve(scenario: Scenario): Promise<MockServer> {
  const server = await startMockServer({ scenario });
  cleanups.push(() => server.close());
  return server;
}

function provider(server: { url: string }, options: Partial<GeminiProviderOptions> = {}) {
  return createGeminiProvider({
    apiKey: "test-gemini-key",
    baseUrl: server.url,
    accessToken: () => Promise.reject(new Error("no gcloud in tests")),
    ...options,
  });
}

const readTool = {
  name: "Read",
  description: "Reads a file.",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { file_path: { type: "string" } },
    required: ["file_path"],
    additionalProperties: false,
  },
};

function request(messages: Message[], extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: "gemini-3.8-flash",
    system: "You are a test.",
    messages,
    tools: [readTool],
    maxOutputTokens: 1000,
    sessionId: "session-1",
    ...extra,
  };
}

const userText = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function only<T extends ProviderEvent["type"]>(events: ProviderEvent[], type: T): Array<ProviderEventOf<T>> {
  return events.filter((event): event is ProviderEventOf<T> => event.type === type);
}

function terminal(events: ProviderEvent[]): ProviderEvent {
  const last = events.at(-1)!;
  expect(
    events.filter((event) => event.type === "message_end" || event.type === "error"),
    "exactly one terminal event",
  ).toHaveLength(1);
  return last;
}

interface GeminiRequestBody {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: Array<Record<string, unknown>> }>;
  generationConfig?: Record<string, unknown>;
}

const bodyOf = (server: MockServer, index: number) => server.requests[index]!.body as GeminiRequestBody;

describe("Gemini provider against the replay server", () => {
  it("streams text and sends the prompt, system instruction and tools in Gemini's shape", async () => {
    const server = await serve({ turns: [{ text: "Hello! I am the mock model." }] });
    const events = await collect(provider(server).stream(request([userText("Say hello.")]), new AbortController().signal));

    expect(events[0]).toMatchObject({ type: "message_start", messageId: "resp_mock_0001", model: "gemini-3.8-flash" });
    expect(only(events, "text_delta").length).toBeGreaterThan(2);
    expect(only(events, "text_end")).toEqual([{ type: "text_end", index: 0, text: "Hello! I am the mock model." }]);
    expect(terminal(events)).toMatchObject({ type: "message_end", stopReason: { normalized: "end_turn", raw: "STOP" } });

    const recorded = server.requests[0]!;
    expect(recorded.path).toBe("/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse");
    expect(recorded.headers["x-goog-api-key"]).toBe("[redacted]");
    expect(recorded.headers["x-agentwire-session-id"]).toBe("session-1");
    const body = bodyOf(server, 0);
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "Say hello." }] }]);
    expect(body.systemInstruction?.parts).toEqual([{ text: "You are a test." }]);
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "Read",
            description: "Reads a file.",
            parametersJsonSchema: {
              type: "object",
              properties: { file_path: { type: "string" } },
              required: ["file_path"],
              additionalProperties: false,
            },
          },
        ],
      },
    ]);
    expect(body.generationConfig).toEqual({ maxOutputTokens: 1000 });
  });

  it("function call round trip: generated id, signature kept, functionResponse named after the call", async () => {
    const server = await serve({
      turns: [
        {
          text: "I'll read both.",
          tool_calls: [
            { name: "Read", input: { file_path: "a.txt" } },
            { name: "Read", input: { file_path: "b.txt" }, id: "fc_given" },
          ],
        },
        { text: "Done." },
      ],
    });
    const gemini = provider(server);
    const first = await collect(gemini.stream(request([userText("Read a.txt and b.txt")]), new AbortController().signal));

    const calls = only(first, "tool_call_end");
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ name: "Read", input: { file_path: "a.txt" }, signature: "mock_call_signature_resp_mock_0001" });
    expect(calls[0]!.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(calls[1]).toMatchObject({ id: "fc_given", input: { file_path: "b.txt" } });
    expect(calls[1]!.signature).toBeUndefined();
    expect(only(first, "tool_call_start").map((event) => event.id)).toEqual(calls.map((call) => call.id));
    expect(JSON.parse(only(first, "tool_call_delta")[0]!.partialJson)).toEqual({ file_path: "a.txt" });
    expect(terminal(first)).toMatchObject({ type: "message_end", stopReason: { normalized: "tool_use", raw: "STOP" } });

    const history: Message[] = [
      userText("Read a.txt and b.txt"),
      {
        role: "assistant",
        content: [
          { type: "text", text: "I'll read both." },
          ...calls.map((call) => ({
            type: "tool_use" as const,
            id: call.id,
            name: call.name,
            input: call.input,
            ...(call.signature ? { signature: call.signature } : {}),
          })),
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: calls[0]!.id, content: "contents of a", isError: false },
          { type: "tool_result", toolUseId: "fc_given", content: [{ type: "text", text: "File does not exist." }], isError: true },
        ],
      },
    ];
    const second = await collect(gemini.stream(request(history), new AbortController().signal));
    expect(terminal(second)).toMatchObject({ type: "message_end", stopReason: { normalized: "end_turn" } });

    expect(bodyOf(server, 1).contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          { text: "I'll read both." },
          {
            functionCall: { id: calls[0]!.id, name: "Read", args: { file_path: "a.txt" } },
            thoughtSignature: "mock_call_signature_resp_mock_0001",
          },
          { functionCall: { id: "fc_given", name: "Read", args: { file_path: "b.txt" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: calls[0]!.id, name: "Read", response: { output: "contents of a" } } },
          { functionResponse: { id: "fc_given", name: "Read", response: { error: "File does not exist." } } },
        ],
      },
    ]);
  });

  it("thought summaries become a signed thinking block that is sent back unchanged", async () => {
    const server = await serve({ turns: [{ thinking: "17*3 is 51.", text: "51." }, { text: "Yes." }] });
    const gemini = provider(server);
    const first = await collect(
      gemini.stream(
        request([userText("17*3?")], { model: "gemini-2.5-flash", thinkingBudgetTokens: 50_000 }),
        new AbortController().signal,
      ),
    );

    expect(first.map((event) => event.type)).toEqual([
      "message_start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "signature_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "message_end",
    ]);
    const thinking = only(first, "thinking_end")[0]!;
    expect(thinking).toEqual({
      type: "thinking_end",
      index: 0,
      thinking: "17*3 is 51.",
      signature: "mock_thought_signature_resp_mock_0001",
    });
    expect(only(first, "text_end")[0]).toMatchObject({ index: 1, text: "51." });
    // Gemini 2.5 takes a budget, capped at what every 2.5 model accepts.
    expect(bodyOf(server, 0).generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 24_576 });

    const history: Message[] = [
      userText("17*3?"),
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: thinking.thinking, signature: thinking.signature! },
          { type: "text", text: "51." },
        ],
      },
      userText("Sure?"),
    ];
    await collect(gemini.stream(request(history, { thinkingBudgetTokens: 2_000 }), new AbortController().signal));
    const second = bodyOf(server, 1);
    expect(second.contents[1]).toEqual({
      role: "model",
      parts: [{ text: "17*3 is 51.", thought: true, thoughtSignature: "mock_thought_signature_resp_mock_0001" }, { text: "51." }],
    });
    // Gemini 3 models choose their own thinking depth; only the summaries are asked for.
    expect(second.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true });
  });

  it("usage: cached prompt tokens are split from input, thinking counts as output", async () => {
    const server = await serve({
      turns: [{ thinking: "abcdefgh", text: "ok", usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 30 } }],
    });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    const end = terminal(events) as ProviderEventOf<"message_end">;
    expect(end.usage).toMatchObject({ inputTokens: 100, cacheReadInputTokens: 30, outputTokens: 22, cacheCreationInputTokens: 0 });
    expect(end.usage.raw).toMatchObject({
      promptTokenCount: 130,
      cachedContentTokenCount: 30,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 2,
    });
    expect((events[0] as ProviderEventOf<"message_start">).usage).toMatchObject({
      inputTokens: 100,
      cacheReadInputTokens: 30,
      outputTokens: 0,
    });
  });

  it("401: an authentication error that is not retried", async () => {
    const server = await serve({ turns: [{ error: { status: 401 } }] });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(events).toEqual([
      {
        type: "error",
        kind: "auth",
        status: 401,
        retryable: false,
        message:
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
      },
    ]);
  });

  it("400 API_KEY_INVALID is an authentication error too", async () => {
    const server = await serve({
      turns: [{ error: { status: 400, type: "INVALID_ARGUMENT", message: "API key not valid. Please pass a valid API key." } }],
    });
    const [event] = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(event).toMatchObject({ type: "error", kind: "auth", status: 400, retryable: false });
  });

  it("429: rate limit with the server's delay, and exactly one HTTP attempt (no SDK retries)", async () => {
    const server = await serve({ turns: [{ error: { status: 429, message: "Quota exceeded.", retry_after: 2 } }, { text: "late" }] });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(events).toEqual([
      { type: "error", kind: "rate_limit", status: 429, retryable: true, message: "Quota exceeded.", retryAfterMs: 2000 },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it("500 is a retryable server error; 503 means overloaded", async () => {
    const server = await serve({ turns: [{ error: { status: 500 } }, { error: { status: 503 } }] });
    const gemini = provider(server);
    const [first] = await collect(gemini.stream(request([userText("hi")]), new AbortController().signal));
    const [second] = await collect(gemini.stream(request([userText("hi")]), new AbortController().signal));
    expect(first).toMatchObject({ type: "error", kind: "server", status: 500, retryable: true });
    expect(second).toMatchObject({
      type: "error",
      kind: "overloaded",
      status: 503,
      retryable: true,
      message: "The model is overloaded. Please try again later.",
    });
    expect(server.requests).toHaveLength(2);
  });

  it("a dropped stream is a retryable disconnect, and the cut-off text block is never finished", async () => {
    const server = await serve({ turns: [{ text: "This answer is cut off in the middle of streaming.", disconnect_after_chunks: 3 }] });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(only(events, "text_delta")).toHaveLength(3);
    expect(only(events, "text_end")).toHaveLength(0);
    expect(terminal(events)).toMatchObject({ type: "error", kind: "disconnect", status: null, retryable: true });
  });

  it("an error event in the middle of the stream keeps its status", async () => {
    const server = await serve({ turns: [{ text: "partial", stream_error: { type: "overloaded_error", message: "Overloaded" } }] });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(terminal(events)).toMatchObject({ type: "error", kind: "overloaded", status: 503, retryable: true, message: "Overloaded" });
  });

  it("an abort ends the stream with one aborted error", async () => {
    const server = await serve({ turns: [{ text: "A slow answer that streams for a while.", chunk_delay_ms: 50 }] });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const event of provider(server).stream(request([userText("hi")]), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(terminal(events)).toEqual({ type: "error", kind: "aborted", status: null, retryable: false, message: "Request aborted." });
  });

  it("without an API key or gcloud: an authentication error saying what to set, and no request", async () => {
    const server = await serve({ turns: [{ text: "never" }] });
    const gemini = provider(server, { apiKey: undefined, accessToken: createGcloudTokenSource({ PATH: "/nonexistent" }) });
    const events = await collect(gemini.stream(request([userText("hi")]), new AbortController().signal));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", kind: "auth", status: null, retryable: false });
    expect((events[0] as ProviderEventOf<"error">).message).toMatch(/GEMINI_API_KEY.*gcloud auth login/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("the gemini provider in the registry", () => {
  it("reads GEMINI_API_KEY and GEMINI_BASE_URL; --base-url wins over the variable", async () => {
    const server = await serve({ turns: [{ text: "one" }, { text: "two" }] });
    const fromEnv = createProvider({ provider: "gemini", env: { GEMINI_API_KEY: "key", GEMINI_BASE_URL: server.url } });
    expect(terminal(await collect(fromEnv.stream(request([userText("hi")]), new AbortController().signal)))).toMatchObject({
      type: "message_end",
    });
    const fromFlag = createProvider({
      provider: "gemini",
      env: { GOOGLE_API_KEY: "key", GEMINI_BASE_URL: "http://127.0.0.1:9" },
      baseUrl: server.url,
    });
    expect(terminal(await collect(fromFlag.stream(request([userText("hi")]), new AbortController().signal)))).toMatchObject({
      type: "message_end",
    });
    expect(server.requests).toHaveLength(2);
  });

  it("reports where the credentials come from", () => {
    expect(apiKeySource("gemini", { GEMINI_API_KEY: "a", GOOGLE_API_KEY: "b" })).toBe("GEMINI_API_KEY");
    expect(apiKeySource("gemini", { GOOGLE_API_KEY: "b" })).toBe("GOOGLE_API_KEY");
    expect(apiKeySource("gemini", {})).toBe("gcloud");
  });
});

describe("Gemini models on the command line", () => {
  async function runConfig(argv: string[]) {
    const parsed = await parseArguments(argv, "/tmp", {});
    if (parsed.kind !== "run") throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
    return parsed.config;
  }

  it("the gemini alias and any gemini-* id pick the gemini provider; --provider gemini alone gets the default model", async () => {
    expect(await runConfig(["-p", "hi", "--model", "gemini"])).toMatchObject({ provider: "gemini", model: "gemini-3.8-flash" });
    expect(await runConfig(["-p", "hi", "--model", "gemini-pro"])).toMatchObject({ provider: "gemini", model: "gemini-3.1-pro-preview" });
    expect(await runConfig(["-p", "hi", "--model", "gemini-9-ultra"])).toMatchObject({ provider: "gemini", model: "gemini-9-ultra" });
    expect(await runConfig(["-p", "hi", "--provider", "gemini"])).toMatchObject({ provider: "gemini", model: "gemini-3.8-flash" });
  });

  it("limits, thinking style and prices come from the model table; unknown prices cost 0", () => {
    expect(modelLimits("gemini-2.5-pro")).toMatchObject({ contextWindow: 1_048_576, maxOutputTokens: 65_536 });
    expect(thinkingStyle("gemini-2.5-flash")).toBe("budget");
    expect(thinkingStyle("gemini-3.8-flash")).toBe("adaptive");
    expect(thinkingStyle("gemini-4-flash")).toBe("adaptive");
    const tokens = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadInputTokens: 1_000_000, cacheCreationInputTokens: 0 };
    expect(costUsd("gemini-2.5-flash", tokens)).toBeCloseTo(0.3 + 2.5 + 0.03);
    expect(costUsd("gemini-3.7-flash", tokens)).toBe(0);
  });
});

describe("gcloud access tokens", () => {
  /** A `gcloud` shell script alone on PATH; `$DIR` in the script is its directory. */
  async function fakeGcloud(script: string): Promise<string> {
    const directory = await mkdtemp(join(tmpdir(), "agentwire-gcloud-"));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    await writeFile(join(directory, "gcloud"), `#!/bin/sh\nDIR='${directory}'\n${script}\n`);
    await chmod(join(directory, "gcloud"), 0o755);
    return directory;
  }

  it("runs `gcloud auth print-access-token` and reuses the token for a few minutes", async () => {
    const directory = await fakeGcloud('echo "$@" >> "$DIR/calls"; echo " ya29.fresh "');
    let now = 0;
    const token = createGcloudTokenSource({ PATH: directory }, () => now);
    expect(await token()).toBe("ya29.fresh");
    now = 60_000;
    expect(await token()).toBe("ya29.fresh");
    now = 6 * 60_000;
    await token();
    expect(await readFile(join(directory, "calls"), "utf8")).toBe("auth print-access-token\nauth print-access-token\n");
  });

  it("a failing gcloud is reported with its message and the remedy", async () => {
    const directory = await fakeGcloud(
      'echo "ERROR: (gcloud.auth.print-access-token) You do not currently have an active account selected." >&2; exit 1',
    );
    await expect(createGcloudTokenSource({ PATH: directory })()).rejects.toThrow(
      /You do not currently have an active account selected.*GEMINI_API_KEY/,
    );
  });
});

describe("Gemini provider on raw chunks", () => {
  /** Serves one canned response to every request: SSE data events, or an error status with a JSON body. */
  async function rawServer(
    response: { chunks: unknown[] } | { status: number; body: unknown },
  ): Promise<{ url: string; headers: Array<Record<string, unknown>> }> {
    const headers: Array<Record<string, unknown>> = [];
    const server: Server = createServer((incoming, outgoing) => {
      let text = "";
      incoming.on("data", (chunk: Buffer) => (text += chunk.toString()));
      incoming.on("end", () => {
        headers.push(incoming.headers);
        if ("chunks" in response) {
          outgoing.writeHead(200, { "content-type": "text/event-stream" });
          for (const chunk of response.chunks) outgoing.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
        } else {
          outgoing.writeHead(response.status, { "content-type": "application/json" });
          outgoing.write(JSON.stringify(response.body));
        }
        outgoing.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, headers };
  }

  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
    candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
    usageMetadata: { promptTokenCount: 10, totalTokenCount: 10 },
    modelVersion: "gemini-3.8-flash",
    responseId: "raw-1",
  });

  it("without an API key: the gcloud token as bearer credentials, the quota project, and no key header", async () => {
    const server = await rawServer({ chunks: [chunk([{ text: "ok" }], { finishReason: "STOP" })] });
    const gemini = provider(server, { apiKey: undefined, accessToken: async () => "ya29.token", quotaProject: "my-project" });
    const events = await collect(gemini.stream(request([userText("hi")]), new AbortController().signal));
    expect(terminal(events)).toMatchObject({ type: "message_end" });
    expect(server.headers[0]).toMatchObject({ authorization: "Bearer ya29.token", "x-goog-user-project": "my-project" });
    expect(server.headers[0]!["x-goog-api-key"]).toBeUndefined();
  });

  it("with an API key: the key header and no bearer credentials", async () => {
    const server = await rawServer({ chunks: [chunk([{ text: "ok" }], { finishReason: "STOP" })] });
    await collect(provider(server, { quotaProject: "ignored-with-a-key" }).stream(request([userText("hi")]), new AbortController().signal));
    expect(server.headers[0]).toMatchObject({ "x-goog-api-key": "test-gemini-key" });
    expect(server.headers[0]!.authorization).toBeUndefined();
    expect(server.headers[0]!["x-goog-user-project"]).toBeUndefined();
  });

  it("RetryInfo in the body sets the delay when there is no retry-after header", async () => {
    const server = await rawServer({
      status: 429,
      body: {
        error: {
          code: 429,
          message: "You exceeded your current quota.",
          status: "RESOURCE_EXHAUSTED",
          details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "31.5s" }],
        },
      },
    });
    const [event] = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(event).toMatchObject({ type: "error", kind: "rate_limit", retryAfterMs: 31_500 });
  });

  it("a prompt that is too long is a context_length error", async () => {
    const server = await rawServer({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
          status: "INVALID_ARGUMENT",
        },
      },
    });
    const [event] = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(event).toMatchObject({ type: "error", kind: "context_length", status: 400, retryable: false });
  });

  it("a signature in a trailing empty text part stays with the text block", async () => {
    const server = await rawServer({
      chunks: [
        chunk([{ text: "Hel" }]),
        chunk([{ text: "lo" }]),
        chunk([{ text: "", thoughtSignature: "sig-text" }], { finishReason: "STOP" }),
      ],
    });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(only(events, "text_end")).toEqual([{ type: "text_end", index: 0, text: "Hello", signature: "sig-text" }]);
    expect(only(events, "text_start")).toHaveLength(1);
  });

  it("a function call id sent by Gemini is kept", async () => {
    const server = await rawServer({
      chunks: [
        chunk([{ functionCall: { id: "gemini-id-7", name: "Read", args: { file_path: "x" } }, thoughtSignature: "sig-call" }], {
          finishReason: "STOP",
        }),
      ],
    });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(only(events, "tool_call_end")).toEqual([
      { type: "tool_call_end", index: 0, id: "gemini-id-7", name: "Read", input: { file_path: "x" }, signature: "sig-call" },
    ]);
  });

  it("SAFETY stops are refusals; a blocked prompt is a refusal with its block reason", async () => {
    const safety = await rawServer({ chunks: [chunk([{ text: "I can" }], { finishReason: "SAFETY" })] });
    const blocked = await rawServer({
      chunks: [{ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 5 }, responseId: "raw-2" }],
    });
    const safetyEvents = await collect(provider(safety).stream(request([userText("hi")]), new AbortController().signal));
    const blockedEvents = await collect(provider(blocked).stream(request([userText("hi")]), new AbortController().signal));
    expect(terminal(safetyEvents)).toMatchObject({ type: "message_end", stopReason: { normalized: "refusal", raw: "SAFETY" } });
    expect(terminal(blockedEvents)).toMatchObject({
      type: "message_end",
      stopReason: { normalized: "refusal", raw: "PROHIBITED_CONTENT" },
    });
  });

  it("MAX_TOKENS maps to max_tokens; MALFORMED_FUNCTION_CALL is a retryable error", async () => {
    const truncated = await rawServer({ chunks: [chunk([{ text: "long" }], { finishReason: "MAX_TOKENS" })] });
    const malformed = await rawServer({ chunks: [chunk([], { finishReason: "MALFORMED_FUNCTION_CALL" })] });
    expect(terminal(await collect(provider(truncated).stream(request([userText("hi")]), new AbortController().signal)))).toMatchObject({
      type: "message_end",
      stopReason: { normalized: "max_tokens", raw: "MAX_TOKENS" },
    });
    expect(terminal(await collect(provider(malformed).stream(request([userText("hi")]), new AbortController().signal)))).toMatchObject({
      type: "error",
      kind: "unknown",
      retryable: true,
    });
  });

  it("a stream that ends without a finish reason is a disconnect", async () => {
    const server = await rawServer({ chunks: [chunk([{ text: "no end" }])] });
    const events = await collect(provider(server).stream(request([userText("hi")]), new AbortController().signal));
    expect(terminal(events)).toMatchObject({ type: "error", kind: "disconnect", retryable: true });
  });
});
