import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScenario, type Scenario } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer, type MockServerOptions } from "../../src/mock-server/server.js";

// Drives the replay server with the real @anthropic-ai/sdk over loopback, so any drift from the
// Anthropic wire format shows up as an SDK failure here rather than in the agent's tests.

const openServers: MockServer[] = [];
const temporaryDirectories: string[] = [];

afterEach(async () => {
  await Promise.all(openServers.splice(0).map((server) => server.close()));
  await Promise.all(temporaryDirectories.splice(0).map((path) => rm(path, { recursive: true, force: true })));
});

async function serve(scenario: Scenario, extra: Partial<MockServerOptions> = {}) {
  const server = await startMockServer({ scenario, ...extra });
  openServers.push(server);
  const client = new Anthropic({
    apiKey: "test-key",
    baseURL: server.url,
    maxRetries: 0,
    defaultHeaders: { "x-api-key": "secret-key" },
  });
  return { server, client };
}

const question = { model: "claude-test", max_tokens: 256, messages: [{ role: "user" as const, content: "Hi" }] };

async function captureError(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (error: unknown) => error,
  );
}

describe("mock server speaks the Anthropic streaming format", () => {
  it("streams text in several deltas that assemble to the scripted text", async () => {
    const { client } = await serve({ turns: [{ text: "Hello! I am the mock model. 2 + 2 = 4." }] });
    const stream = client.messages.stream(question);
    const deltas: string[] = [];
    stream.on("text", (delta) => deltas.push(delta));
    const message = await stream.finalMessage();

    expect(message.content).toEqual([{ type: "text", text: "Hello! I am the mock model. 2 + 2 = 4." }]);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe("Hello! I am the mock model. 2 + 2 = 4.");
    expect(message.id).toBe("msg_mock_0001");
    expect(message.model).toBe("claude-test");
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBe(10);
  });

  it("streams tool calls whose input assembles to the scripted objects", async () => {
    const input = { file_path: "hello.txt", options: { nested: [1, 2, "ü"] } };
    const { client } = await serve({
      turns: [
        {
          text: "I'll read the file.",
          tool_calls: [
            { name: "Read", input },
            { name: "Bash", input: { command: "ls" }, id: "toolu_fixed" },
          ],
        },
      ],
    });
    const message = await client.messages.stream(question).finalMessage();

    expect(message.stop_reason).toBe("tool_use");
    expect(message.content).toEqual([
      { type: "text", text: "I'll read the file." },
      { type: "tool_use", id: "toolu_mock_0001", name: "Read", input },
      { type: "tool_use", id: "toolu_fixed", name: "Bash", input: { command: "ls" } },
    ]);
  });

  it("opens each tool input with an empty input_json_delta and numbers blocks in order", async () => {
    const { client } = await serve({ turns: [{ text: "Hi", tool_calls: [{ name: "Read", input: { file_path: "a.txt" } }] }] });
    const stream = await client.messages.create({ ...question, stream: true });
    const events: Anthropic.RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);

    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      ...Array<string>(4).fill("content_block_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const firstToolDelta = events.find((event) => event.type === "content_block_delta" && event.index === 1);
    expect(firstToolDelta).toEqual({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } });
  });

  it("streams thinking with a signature before the text", async () => {
    const { client } = await serve({ turns: [{ thinking: "17*3 = 51.", text: "17 × 3 = 51." }] });
    const message = await client.messages.stream(question).finalMessage();

    expect(message.content).toEqual([
      { type: "thinking", thinking: "17*3 = 51.", signature: "mock_signature_msg_mock_0001" },
      { type: "text", text: "17 × 3 = 51." },
    ]);
  });

  it("answers a non-streaming request with one JSON message", async () => {
    const { client } = await serve({ turns: [{ text: "Plain.", stop_reason: "max_tokens", usage: { input_tokens: 7 } }] });
    const message = await client.messages.create(question);

    expect(message.content).toEqual([{ type: "text", text: "Plain." }]);
    expect(message.stop_reason).toBe("max_tokens");
    expect(message.usage.input_tokens).toBe(7);
  });

  it("lists mock models", async () => {
    const { client } = await serve({ turns: [{ text: "unused" }] });
    const page = await client.models.list();
    expect(page.data.map((model) => model.id)).toEqual(["mock-model", "mock-model-large"]);
  });
});

describe("mock server failures", () => {
  it("serves a repeated 401 as the SDK's APIError on every request", async () => {
    const { client, server } = await serve({
      turns: [{ error: { status: 401, type: "authentication_error", message: "invalid x-api-key" }, repeat: true }],
    });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await captureError(client.messages.create(question));
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(401);
      expect((error as APIError).type).toBe("authentication_error");
      expect((error as APIError).requestID).toMatch(/^req_mock_\d{4}$/);
    }
    expect(server.requests.map((request) => request.turn)).toEqual([0, 0]);
  });

  it("sends retry-after on a 429 and then serves the next turn", async () => {
    const { client } = await serve({
      turns: [{ error: { status: 429, type: "rate_limit_error", message: "slow down", retry_after: 1 } }, { text: "Recovered." }],
    });
    const error = await captureError(client.messages.stream(question).finalMessage());
    expect((error as APIError).status).toBe(429);
    expect((error as APIError).headers?.get("retry-after")).toBe("1");

    const message = await client.messages.stream(question).finalMessage();
    expect(message.content).toEqual([{ type: "text", text: "Recovered." }]);
  });

  it("fills in the error type and message from the status", async () => {
    const { client } = await serve({ turns: [{ error: { status: 529 } }] });
    const error = await captureError(client.messages.create(question));
    expect((error as APIError).status).toBe(529);
    expect((error as APIError).type).toBe("overloaded_error");
  });

  it("drops the socket after disconnect_after_chunks frames, so the SDK stream throws", async () => {
    const text = "This is a long answer that will be cut off in the middle of streaming.";
    const { client } = await serve({ turns: [{ text, disconnect_after_chunks: 6 }, { text: "Complete." }] });
    const stream = client.messages.stream(question);
    const deltas: string[] = [];
    stream.on("text", (delta) => deltas.push(delta));

    await expect(stream.finalMessage()).rejects.toThrow();
    // 6 frames = message_start, ping, content_block_start and three 8-character text deltas.
    expect(deltas.join("")).toBe(text.slice(0, 24));
    const retry = await client.messages.stream(question).finalMessage();
    expect(retry.content).toEqual([{ type: "text", text: "Complete." }]);
  });

  it("turns stream_error into an SSE error event the SDK raises", async () => {
    const { client } = await serve({ turns: [{ text: "partial", stream_error: { type: "overloaded_error", message: "Overloaded" } }] });
    const error = await captureError(client.messages.stream(question).finalMessage());
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).type).toBe("overloaded_error");
  });

  it("answers a non-retryable 400 with a clear message once the turns run out", async () => {
    const { client, server } = await serve({ turns: [{ text: "Only turn." }] });
    await client.messages.stream(question).finalMessage();
    const error = await captureError(client.messages.stream(question).finalMessage());

    expect((error as APIError).status).toBe(400);
    expect((error as APIError).type).toBe("invalid_request_error");
    expect((error as APIError).message).toContain(
      "Replay scenario (given inline) is exhausted: request 2 arrived, but it scripts 1 turn, all already served.",
    );
    expect(server.requests.map((request) => request.turn)).toEqual([0, null]);
  });

  it("answers unknown routes with a 404 JSON error", async () => {
    const { server } = await serve({ turns: [{ text: "unused" }] });
    const response = await fetch(`${server.url}/v1/complete`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(response.headers.get("request-id")).toMatch(/^req_mock_/);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
  });

  it("closes promptly while a slow stream is still running", async () => {
    const { client, server } = await serve({ turns: [{ text: "word ".repeat(200), chunk_delay_ms: 50 }] });
    const stream = client.messages.stream(question);
    const firstDelta = new Promise((resolve) => stream.once("text", resolve));
    const outcome = stream.finalMessage().then(
      () => "finished",
      () => "failed",
    );
    await firstDelta;

    const closeStarted = Date.now();
    await server.close();
    expect(Date.now() - closeStarted).toBeLessThan(1000);
    expect(await outcome).toBe("failed");
  });
});

describe("mock server recording", () => {
  it("records method, path, redacted headers and parsed bodies, in memory, over HTTP and to a file", async () => {
    const directory = await mkdtemp(join(tmpdir(), "agentwire-mock-"));
    temporaryDirectories.push(directory);
    const recordFile = join(directory, "requests.jsonl");
    const { client, server } = await serve({ turns: [{ text: "one" }, { text: "two" }] }, { recordFile });
    await client.messages.stream(question).finalMessage();
    // Claude Code posts to `/v1/messages?beta=true`; the query must not change the route.
    const betaResponse = await fetch(`${server.url}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...question, messages: [{ role: "user", content: "Again" }] }),
    });
    expect(await betaResponse.json()).toMatchObject({ type: "message", content: [{ type: "text", text: "two" }] });

    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first).toMatchObject({ turn: 0, method: "POST", path: "/v1/messages", body: { ...question, stream: true } });
    // This SDK version sends the key as `authorization`; other clients use `x-api-key`.
    expect(first?.headers.authorization).toBe("[redacted]");
    expect(first?.headers["x-api-key"]).toBe("[redacted]");
    expect(first?.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(second).toMatchObject({ turn: 1, path: "/v1/messages?beta=true", body: { messages: [{ role: "user", content: "Again" }] } });

    const overHttp = await (await fetch(`${server.url}/__requests`)).json();
    expect(overHttp).toEqual(server.requests);
    const fileLines = (await readFile(recordFile, "utf8")).trimEnd().split("\n");
    expect(fileLines.map((line) => JSON.parse(line))).toEqual(server.requests);
  });
});

describe("scenario files", () => {
  const scenarioDirectory = join(import.meta.dirname, "../../fixtures/scenarios");

  it("every fixture scenario is valid", async () => {
    const names = (await readdir(scenarioDirectory)).filter((name) => name.endsWith(".json"));
    // Every scenario a test names exists (and is checked below).
    const testDirectory = join(import.meta.dirname, "..");
    const testFiles = (await readdir(testDirectory, { recursive: true })).filter((name) => name.endsWith(".test.ts"));
    const named = new Set<string>();
    for (const file of testFiles) {
      for (const match of (await readFile(join(testDirectory, file), "utf8")).matchAll(/createWorkspace\("([\w-]+)"\)/g))
        named.add(`${match[1]}.json`);
    }
    expect(named.size).toBeGreaterThan(0);
    expect([...named].filter((name) => !names.includes(name))).toEqual([]);
    for (const name of names) {
      const scenario = await loadScenario(join(scenarioDirectory, name));
      expect(scenario.turns.length, name).toBeGreaterThan(0);
    }
  });

  it("rejects an invalid scenario naming the file and the bad field", async () => {
    const directory = await mkdtemp(join(tmpdir(), "agentwire-mock-"));
    temporaryDirectories.push(directory);
    const path = join(directory, "bad.json");
    await writeFile(path, JSON.stringify({ turns: [{ text: "ok" }, { error: { status: "401" } }, { txt: "typo" }] }));

    const error = (await captureError(loadScenario(path))) as Error;
    expect(error.message).toContain(path);
    expect(error.message).toContain("turns[1].error.status");
    expect(error.message).toContain('Unrecognized key: "txt"');
  });
});
