import { ApiError, GoogleGenAI } from "@google/genai";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { encodeGeminiStream } from "../../src/mock-server/gemini-sse.js";
import { isErrorTurn, loadScenario, type Scenario } from "../../src/mock-server/scenario.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";
import { ROOT } from "../helpers/agentwire.js";

// The replay server's Gemini routes, driven by the real @google/genai client.

const openServers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(openServers.splice(0).map((server) => server.close()));
});

async function serve(scenario: Scenario) {
  const server = await startMockServer({ scenario });
  openServers.push(server);
  return { server, client: new GoogleGenAI({ vertexai: false, apiKey: "test-key", httpOptions: { baseUrl: server.url } }) };
}

describe("mock server speaks the Gemini API", () => {
  it("lists the mock models", async () => {
    const { client } = await serve({ turns: [{ text: "unused" }] });
    const names: string[] = [];
    for await (const model of await client.models.list()) names.push(model.name ?? "");
    expect(names).toEqual(["models/mock-model", "models/mock-model-large"]);
  });

  it("streams a scripted turn that the SDK assembles, with finish reason and usage on the last chunk", async () => {
    const { client, server } = await serve({ turns: [{ text: "Hello from the mock.", usage: { input_tokens: 12 } }] });
    const chunks = [];
    for await (const chunk of await client.models.generateContentStream({ model: "gemini-test", contents: "Hi" })) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.text).join("")).toBe("Hello from the mock.");
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe("STOP");
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({ promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 });
    expect(chunks[0]?.modelVersion).toBe("gemini-test");
    expect(server.requests[0]).toMatchObject({ turn: 0, method: "POST", path: "/v1beta/models/gemini-test:streamGenerateContent?alt=sse" });
  });

  it("answers in Google's error shape when the turns run out", async () => {
    const { client } = await serve({ turns: [{ text: "only one" }] });
    for await (const _chunk of await client.models.generateContentStream({ model: "gemini-test", contents: "Hi" })) {
      // drain the first turn
    }
    const error = await client.models.generateContentStream({ model: "gemini-test", contents: "Hi" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(JSON.parse((error as ApiError).message)).toMatchObject({
      error: {
        code: 400,
        status: "INVALID_ARGUMENT",
        message: expect.stringContaining("is exhausted: request 2 arrived, but it scripts 1 turn"),
      },
    });
  });

  it("encodes every bundled scenario turn as SSE frames of JSON", async () => {
    const directory = join(ROOT, "fixtures", "scenarios");
    for (const file of await readdir(directory)) {
      const scenario = await loadScenario(join(directory, file));
      for (const turn of scenario.turns) {
        if (isErrorTurn(turn)) continue;
        const frames = encodeGeminiStream(turn, { responseId: "r", requestedModel: "m", estimatedInputTokens: 1 });
        for (const frame of frames) {
          expect(frame, file).toMatch(/^data: .*\r\n\r\n$/s);
          JSON.parse(frame.slice("data: ".length));
        }
      }
    }
  });
});
