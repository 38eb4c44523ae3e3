import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/agent/compaction.js";
import type { Message } from "../../src/conversation/messages.js";

const schema = { type: "object", properties: { path: { type: "string", description: "Where" } }, required: ["path"] };
const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Read the notes, then list the folder." }] }];

/** What the estimate stands for: the request's characters, four to a token. */
const fromWholeRequest = (system: string, tools: unknown[], list: Message[]): number =>
  Math.ceil(
    (system.length + JSON.stringify(tools).length + list.reduce((sum, message) => sum + JSON.stringify(message.content).length, 0)) / 4,
  );

describe("estimateTokens", () => {
  it("counts the tool definitions as the request serializes them, however many there are", () => {
    for (const tools of [
      [],
      [{ name: "Read", description: "Reads a file", inputSchema: schema }],
      [
        { name: "Read", description: "Reads a file", inputSchema: schema },
        { name: "Ls", description: "Lists a folder", inputSchema: { type: "object" } },
      ],
    ]) {
      expect(estimateTokens("You are helpful.", tools, messages)).toBe(fromWholeRequest("You are helpful.", tools, messages));
    }
  });

  it("sees a changed description of a tool whose schema object is the same", () => {
    const first = [{ name: "Skill", description: "short", inputSchema: schema }];
    const second = [{ name: "Skill", description: "a much longer description than before", inputSchema: schema }];
    expect(estimateTokens("", first, messages)).toBe(fromWholeRequest("", first, messages));
    expect(estimateTokens("", second, messages)).toBe(fromWholeRequest("", second, messages));
  });
});
