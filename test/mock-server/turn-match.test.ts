import { afterEach, describe, expect, it } from "vitest";
import { firstUserMessageText } from "../../src/mock-server/mock-state.js";
import { startMockServer, type MockServer } from "../../src/mock-server/server.js";

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function ask(server: MockServer, firstUserText: string): Promise<number | null> {
  const response = await fetch(`${server.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", max_tokens: 10, messages: [{ role: "user", content: firstUserText }] }),
  });
  await response.text();
  return server.requests.at(-1)!.turn;
}

describe("scenario turns chosen by match", () => {
  it("finds the first user message in every wire format", () => {
    expect(firstUserMessageText({ system: "S", messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] })).toBe("hello");
    expect(
      firstUserMessageText({
        messages: [
          { role: "system", content: "S" },
          { role: "user", content: "chat" },
        ],
      }),
    ).toBe("chat");
    expect(firstUserMessageText({ input: [{ role: "user", content: [{ type: "input_text", text: "responses" }] }] })).toBe("responses");
    expect(firstUserMessageText({ contents: [{ role: "user", parts: [{ text: "gemini" }] }] })).toBe("gemini");
    expect(firstUserMessageText({ messages: [] })).toBe("");
  });

  it("serves each request the first unserved turn it fits, however the conversations interleave", async () => {
    const server = await startMockServer({
      scenario: {
        turns: [{ match: "MAIN", text: "main 1" }, { match: "SUB", text: "sub 1" }, { match: "SUB", text: "sub 2" }, { text: "anyone" }],
      },
    });
    servers.push(server);
    expect(await ask(server, "SUB task")).toBe(1);
    expect(await ask(server, "MAIN prompt")).toBe(0);
    expect(await ask(server, "SUB task")).toBe(2);
    expect(await ask(server, "SUB task")).toBe(3);
    expect(await ask(server, "MAIN prompt")).toBeNull();
  });
});
