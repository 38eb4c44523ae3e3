import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { scenarioSchema } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";

// The replay server's OpenAI routes, read by the real `openai` SDK outside agentwire's providers:
// non-streaming bodies, the model list, and the shapes the providers do not look at.

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function client(turns: unknown[]) {
  const server = await startMockServer({ scenario: scenarioSchema.parse({ turns }) });
  servers.push(server);
  return { server, openai: new OpenAI({ apiKey: "k", baseURL: `${server.url}/v1`, maxRetries: 0 }) };
}

describe("mock server speaks the OpenAI formats", () => {
  it("GET /v1/models answers in OpenAI's shape, and in Anthropic's with anthropic-version", async () => {
    const { server, openai } = await client([{ text: "x" }]);
    const page = await openai.models.list();
    expect(page.data.map((model) => [model.id, model.object])).toEqual([
      ["mock-model", "model"],
      ["mock-model-large", "model"],
    ]);
    const anthropic = (await (await fetch(`${server.url}/v1/models`, { headers: { "anthropic-version": "2023-06-01" } })).json()) as {
      data: Array<{ type: string }>;
    };
    expect(anthropic.data[0]!.type).toBe("model");
  });

  it("non-streaming Chat Completions: one chat.completion with tool calls and usage", async () => {
    const { openai } = await client([
      {
        thinking: "t",
        text: "Hi",
        tool_calls: [{ name: "Read", input: { file_path: "a" } }],
        usage: { input_tokens: 5, cache_read_input_tokens: 3 },
      },
    ]);
    const completion = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: "Hi",
        reasoning_content: "t",
        tool_calls: [{ id: "call_mock_0001", type: "function", function: { name: "Read", arguments: '{"file_path":"a"}' } }],
      },
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 8, prompt_tokens_details: { cached_tokens: 3 } });
  });

  it("streamed Chat Completions sends usage only when asked, and [DONE] ends the stream", async () => {
    const { openai } = await client([{ text: "Hi" }, { text: "Hi" }]);
    const chunks = async (includeUsage: boolean) => {
      const all = [];
      for await (const part of await openai.chat.completions.create({
        model: "m",
        messages: [],
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      }))
        all.push(part);
      return all;
    };
    expect((await chunks(false)).some((part) => part.usage)).toBe(false);
    const withUsage = await chunks(true);
    expect(withUsage.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 1 } });
  });

  it("non-streaming Responses: the final response object with its output items", async () => {
    const { openai } = await client([{ text: "Hello", tool_calls: [{ name: "Read", input: {}, id: "call_x" }] }]);
    const response = await openai.responses.create({ model: "m", input: "x" });
    expect(response.output_text).toBe("Hello");
    expect(response.output.map((item) => item.type)).toEqual(["message", "function_call"]);
    expect(response.output[1]).toMatchObject({ call_id: "call_x", name: "Read", arguments: "{}" });
  });

  it("streamed Responses: named events with increasing sequence numbers", async () => {
    const { openai } = await client([{ text: "Hi" }]);
    const events = [];
    for await (const event of await openai.responses.create({ model: "m", input: "x", stream: true })) events.push(event);
    expect(events[0]!.type).toBe("response.created");
    expect(events.at(-1)!.type).toBe("response.completed");
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  });

  it("errors come in OpenAI's shape with retry-after", async () => {
    const { openai } = await client([{ error: { status: 429, retry_after: 3 } }]);
    const error = (await openai.chat.completions.create({ model: "m", messages: [] }).catch((caught: unknown) => caught)) as InstanceType<
      typeof OpenAI.APIError
    >;
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limit_exceeded");
    expect(error.headers?.get("retry-after")).toBe("3");
  });
});
