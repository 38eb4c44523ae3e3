import { describe, expect, it } from "vitest";
import { messagesForProvider } from "../../src/agent/messages-for-provider.js";
import type { Message } from "../../src/conversation/messages.js";

const history: Message[] = [
  { role: "user", content: [{ type: "text", text: "hi" }] },
  {
    role: "assistant",
    provider: "anthropic",
    content: [
      { type: "thinking", thinking: "hmm", signature: "anthropic-sig" },
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "t1", name: "Read", input: { file_path: "a" } },
    ],
  },
  { role: "user", content: [{ type: "tool_result", toolUseId: "t1", content: "ok", isError: false }] },
  { role: "assistant", provider: "gemini", content: [{ type: "tool_use", id: "t2", name: "Read", input: {}, signature: "gemini-sig" }] },
];

describe("messagesForProvider", () => {
  it("returns the same history when every message is the provider's own", () => {
    const own = history.slice(0, 3);
    expect(messagesForProvider(own, "anthropic")).toBe(own);
  });

  it("drops another provider's thinking and signatures, keeping text and tool calls", () => {
    const forGemini = messagesForProvider(history, "gemini");
    expect(forGemini[1]).toEqual({
      role: "assistant",
      provider: "anthropic",
      content: [
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "t1", name: "Read", input: { file_path: "a" } },
      ],
    });
    expect(forGemini[3]).toBe(history[3]);
    const forAnthropic = messagesForProvider(history, "anthropic");
    expect(forAnthropic[3]).toEqual({
      role: "assistant",
      provider: "gemini",
      content: [{ type: "tool_use", id: "t2", name: "Read", input: {} }],
    });
    expect(history[1]!.content).toHaveLength(3);
  });
});
