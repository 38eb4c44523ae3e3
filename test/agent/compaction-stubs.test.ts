import { describe, expect, it } from "vitest";
import { stubOldToolOutputs } from "../../src/agent/compaction.js";
import type { Message } from "../../src/conversation/messages.js";

describe("stubbing old tool outputs", () => {
  it("stubs a long old output but keeps a ToolSearch result, whose references keep its tools loaded", () => {
    const references = Array.from({ length: 20 }, (_, index) => ({
      type: "tool_reference" as const,
      toolName: `mcp__big__tool_with_a_long_name_${index}`,
    }));
    const old: Message[] = [
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "a", name: "Bash", input: {} },
          { type: "tool_use", id: "b", name: "ToolSearch", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "a", content: "x".repeat(5_000), isError: false },
          { type: "tool_result", toolUseId: "b", content: references, isError: false },
        ],
      },
    ];
    const recent: Message[] = Array.from({ length: 12 }, (_, index) => ({
      role: index % 2 === 0 ? "assistant" : "user",
      content: [{ type: "text", text: `turn ${index}` }],
    })) as Message[];
    const stubbed = stubOldToolOutputs([...old, ...recent])!;
    const [bash, search] = (stubbed[1] as Extract<Message, { role: "user" }>).content;
    expect(bash).toMatchObject({ content: expect.stringMatching(/^\[Output of Bash removed/) });
    expect(search).toMatchObject({ content: references });
  });
});
