import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/conversation/messages.js";
import { fallbackCallIds } from "../../src/providers/fallback-call-ids.js";

describe("ids for tool calls a server sent without one", () => {
  it("number on after the calls already in the conversation", () => {
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "call_1", name: "Read", input: {} },
          { type: "tool_use", id: "x", name: "Ls", input: {} },
        ],
      },
    ];
    const next = fallbackCallIds(history);
    expect([next(), next()]).toEqual(["call_3", "call_4"]);
    expect(fallbackCallIds([])()).toBe("call_1");
  });

  it("come from this one helper in both OpenAI wire APIs", () => {
    for (const file of ["openai-chat.ts", "openai-responses.ts"]) {
      const source = readFileSync(new URL(`../../src/providers/${file}`, import.meta.url), "utf8");
      expect(source, file).toMatch(/newCallId: fallbackCallIds\(request\.messages\)/);
    }
  });
});
