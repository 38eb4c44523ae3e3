import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { EventPrinter } from "../../src/chat/event-printer.js";
import { Screen } from "../../src/chat/screen.js";
import { createStyle } from "../../src/render/style.js";
import { ROOT } from "../helpers/agentwire.js";

const golden = (name: string): OutputEvent[] =>
  readFileSync(join(ROOT, "fixtures", "subagents", `${name}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as OutputEvent);

/** The chat's printer on a plain terminal: what it writes, and the statuses it sets. */
function printAll(events: OutputEvent[]): { written: string; statuses: string[] } {
  let written = "";
  const screen = new Screen({ write: (text: string) => (written += text) }, false);
  const style = createStyle(false);
  const printer = new EventPrinter(screen, style, false, () => 100);
  const statuses = events.flatMap((event) => printer.print(event) ?? []);
  return { written, statuses };
}

describe("the chat's event printer with subagents", () => {
  it("prints each subagent folded under its Agent call when it is done, and says what it is doing meanwhile", () => {
    const events = golden("two-concurrent");
    // While both run (before the first ends), none of their work is on the screen yet.
    const firstEnd = events.findIndex((event) => (event as { subtype?: string }).subtype === "task_notification");
    const running = printAll(events.slice(0, firstEnd));
    expect(running.written).not.toContain("Read hello.txt");
    expect(running.statuses).toEqual([
      "Running Agent…",
      "Running Agent…",
      "Subagent: Reading hello.txt…",
      "Subagent running Read…",
      "Subagent: Searching for TODO…",
      "Subagent running Grep…",
      "Subagent: Running wc -l hello.txt…",
      "Subagent running Bash…",
    ]);

    const done = printAll(events).written;
    expect(done).toContain(
      [
        "⏺ Agent general-purpose: Count lines",
        "⏺ Agent Explore: Find TODOs",
        "  ⎿ Explore: Find TODOs",
        "    ⏺ Grep TODO in src",
        "      ⎿ 2 lines",
        "    ✗ failed · 1 tool use · 1,100 tokens · 0.9 s",
        "    API Error: 500 Internal server error",
        "  ⎿ general-purpose: Count lines",
        "    ⏺ Read hello.txt",
        "      ⎿ read 4 lines",
        "    ⏺ Bash wc -l hello.txt",
        "      ⎿ 1 line of output",
        "    ✓ completed · 2 tool uses · 2,667 tokens (2,580 in, 87 out) · 1.3 s",
        "    hello.txt has 3 lines.",
      ].join("\n"),
    );
    // The Agent prompts are the calls' input, not the user's prompts.
    expect(done).not.toContain("Count the lines of hello.txt");
  });

  it("keeps a subagent's streamed text out of the answer streaming at the top level", () => {
    const delta = (text: string, parent: string | null) =>
      ({
        type: "stream_event",
        event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
        parent_tool_use_id: parent,
      }) as unknown as OutputEvent;
    const { written } = printAll([delta("Top-level answer.\n", null), delta("SUBAGENT TEXT\n", "toolu_1")]);
    expect(written).toContain("Top-level answer.");
    expect(written).not.toContain("SUBAGENT TEXT");
  });

  it("shows a background shell starting and ending", () => {
    const { written } = printAll(golden("background-bash"));
    expect(written).toMatch(/◇ background shell b5c7peivx started: Build in the background\n\s+⎿ running in the background as b5c7peivx/);
    expect(written).toContain(
      '◆ background task b5c7peivx completed: Background command "Build in the background" completed (exit code 0)',
    );
  });
});
