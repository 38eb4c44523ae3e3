import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderTranscript, TranscriptRenderer, type RenderItem } from "../../src/render/transcript-renderer.js";
import { visibleLength, wantsColor } from "../../src/render/style.js";
import { ROOT } from "../helpers/agentwire.js";

const EXAMPLES = join(ROOT, "protocol", "examples");
const CLAUDE_CODE = join(ROOT, "fixtures", "claude-code");
const SUBAGENTS = join(ROOT, "fixtures", "subagents");

function items(text: string): RenderItem[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return { kind: "event", event: JSON.parse(line) as unknown };
      } catch {
        return { kind: "invalid", text: line };
      }
    });
}

const plain = (text: string, width = 80) => renderTranscript(items(text), { width, color: false }).join("\n");
const ANSI = /\u001b\[/;

describe("the transcript renderer", () => {
  // Golden transcripts: agentwire's own protocol examples, and what the real Claude Code printed.
  const examples = readdirSync(EXAMPLES).filter((name) => name.endsWith(".jsonl") && !name.endsWith(".stdin.jsonl"));
  it.each(examples)("renders protocol/examples/%s", (name) => {
    expect(plain(readFileSync(join(EXAMPLES, name), "utf8"))).toMatchSnapshot();
  });

  const transcripts = readdirSync(CLAUDE_CODE).filter((name) => name.endsWith(".jsonl"));
  it("has the Claude Code transcripts", () => expect(transcripts.length).toBe(18));
  it.each(transcripts)("renders the real Claude Code's %s", (name) => {
    const rendered = plain(readFileSync(join(CLAUDE_CODE, name), "utf8"));
    expect(rendered).toMatchSnapshot();
    // Every line Claude Code printed is a known event: none may come out as an unknown line.
    expect(rendered).not.toMatch(/^\? /m);
  });

  const subagentStreams = readdirSync(SUBAGENTS).filter((name) => name.endsWith(".jsonl"));
  it.each(subagentStreams)("renders the subagent stream fixtures/subagents/%s with no unknown line", (name) => {
    const rendered = plain(readFileSync(join(SUBAGENTS, name), "utf8"));
    expect(rendered).toMatchSnapshot();
    expect(rendered).not.toMatch(/^\? /m);
  });

  it("folds a background subagent when its task ends, and a foreground one cut off when the turn ends", () => {
    const call = (id: string, description: string, background: boolean) =>
      JSON.stringify({
        type: "assistant",
        message: {
          content: [{ type: "tool_use", id, name: "Agent", input: { description, prompt: "go", run_in_background: background } }],
        },
        parent_tool_use_id: null,
      });
    const sub = (parent: string, id: string, command: string) =>
      [
        {
          type: "assistant",
          message: { content: [{ type: "tool_use", id, name: "Bash", input: { command } }] },
          parent_tool_use_id: parent,
        },
        {
          type: "user",
          message: { content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
          parent_tool_use_id: parent,
          tool_use_result: { stdout: "ok", stderr: "", interrupted: false },
        },
      ]
        .map((event) => JSON.stringify(event))
        .join("\n");
    const transcript = [
      call("toolu_bg", "Survey", true),
      JSON.stringify({
        type: "system",
        subtype: "task_started",
        task_id: "a1",
        tool_use_id: "toolu_bg",
        description: "Survey",
        task_type: "local_agent",
        is_backgrounded: true,
      }),
      JSON.stringify({
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: "toolu_bg", content: "Async agent launched successfully." }] },
        parent_tool_use_id: null,
        tool_use_result: { isAsync: true, status: "async_launched", agentId: "a1" },
      }),
      sub("toolu_bg", "toolu_s1", "ls"),
      JSON.stringify({
        type: "assistant",
        message: { content: [{ type: "text", text: "Found 2 files." }] },
        parent_tool_use_id: "toolu_bg",
      }),
      JSON.stringify({
        type: "system",
        subtype: "task_notification",
        task_id: "a1",
        tool_use_id: "toolu_bg",
        status: "completed",
        summary: 'Agent "Survey" finished',
        usage: { total_tokens: 900, tool_uses: 1, duration_ms: 2500 },
      }),
      call("toolu_fg", "Cut short", false),
      sub("toolu_fg", "toolu_s2", "pwd"),
      JSON.stringify({ type: "result", subtype: "error_during_execution", is_error: true, num_turns: 1 }),
    ].join("\n");
    expect(plain(transcript).split("\n")).toEqual([
      "⏺ Agent general-purpose: Survey",
      "◇ background agent a1 started: Survey",
      "  ⎿ launched in the background",
      '◆ background task a1 completed: Agent "Survey" finished',
      "  ⎿ general-purpose: Survey",
      "    ⏺ Bash ls",
      "      ⎿ 1 line of output",
      "    Found 2 files.",
      "    ✓ completed · 1 tool use · 900 tokens · 2.5 s",
      '    Agent "Survey" finished',
      "⏺ Agent general-purpose: Cut short",
      "  ⎿ general-purpose: Cut short",
      "    ⏺ Bash pwd",
      "      ⎿ 1 line of output",
      "    ✗ unfinished",
      "✗ error_during_execution · 1 turn",
      "",
    ]);
  });

  it("never styles without colour, and styles with it", () => {
    const text = readFileSync(join(CLAUDE_CODE, "06-write-edit.jsonl"), "utf8");
    expect(plain(text)).not.toMatch(ANSI);
    const coloured = renderTranscript(items(text), { width: 80, color: true });
    expect(coloured.find((line) => line.includes("+gamma"))).toBe("\u001b[32m    +gamma\u001b[39m");
    expect(coloured.find((line) => line.includes("-beta"))).toBe("\u001b[31m    -beta\u001b[39m");
  });

  it("takes colour only from a TTY, never with NO_COLOR or a dumb terminal", () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({}, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: "" })).toBe(true);
    expect(wantsColor({ isTTY: true }, { TERM: "dumb" })).toBe(false);
    expect(wantsColor({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false);
  });

  it("wraps prose, list items and tool results to the width, and keeps code blocks as written", () => {
    const prose = "word ".repeat(60).trim();
    const code = `const x = ${"1 + ".repeat(30)}1;`;
    const text = `# A heading\n\n${prose}\n\n- ${prose}\n2. second\n\n\`\`\`ts\n${code}\n\`\`\`\nUse \`npm test\` and **bold**.`;
    const lines = renderTranscript([{ kind: "event", event: { type: "assistant", message: { content: [{ type: "text", text }] } } }], {
      width: 50,
      color: false,
    });
    expect(lines[0]).toBe("A heading");
    for (const line of lines) if (!line.includes("const x")) expect(visibleLength(line)).toBeLessThanOrEqual(50);
    expect(lines.filter((line) => line.startsWith("• word")).length).toBe(1);
    expect(lines.filter((line) => line.startsWith("  word")).length).toBeGreaterThan(3);
    expect(lines).toContain("2. second");
    expect(lines).toContain(`  ${code}`);
    expect(lines).not.toContain("```ts");
    expect(lines.at(-1)).toBe("Use npm test and bold.");
    // Styled, the width is still counted without the escape codes.
    const coloured = renderTranscript(
      [{ kind: "event", event: { type: "assistant", message: { content: [{ type: "text", text: `${prose} \`code\`` }] } } }],
      { width: 50, color: true },
    );
    for (const line of coloured) expect(visibleLength(line)).toBeLessThanOrEqual(50);
  });

  it("shows a ToolSearch result as the tools it loaded, and the text beside it as the tool's, not a prompt", () => {
    const events = [
      {
        type: "assistant",
        message: { content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:WebFetch" } }] },
      },
      {
        type: "user",
        message: {
          content: [
            { type: "tool_result", tool_use_id: "t1", content: [{ type: "tool_reference", tool_name: "WebFetch" }] },
            { type: "text", text: "Tool loaded." },
          ],
        },
        tool_use_result: { matches: ["WebFetch"], query: "select:WebFetch", total_deferred_tools: 3 },
      },
    ];
    const rendered = plain(events.map((event) => JSON.stringify(event)).join("\n"));
    expect(rendered).toContain("loaded WebFetch");
    expect(rendered).toContain("> Tool loaded.");
    expect(rendered).not.toMatch(/^$\n> Tool loaded\./m);
  });

  it("lists a web search's results under its summary, the first five and a count of the rest", () => {
    const links = Array.from({ length: 7 }, (_, index) => ({ title: `Page ${index + 1}`, url: `https://example.org/${index + 1}` }));
    const events = [
      { type: "system", subtype: "init", session_id: "s1", cwd: "/repo", model: "m", permissionMode: "default" },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "w1", name: "WebSearch", input: { query: "tides" } }] } },
      {
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: "w1", content: "Web search results…" }] },
        tool_use_result: {
          query: "tides",
          results: [{ tool_use_id: "s1", content: links }, "summary"],
          durationSeconds: 1,
          searchCount: 1,
        },
      },
    ];
    const lines = renderTranscript(
      events.map((event) => ({ kind: "event", event })),
      { width: 80, color: false },
    );
    const text = lines.join("\n");
    expect(text).toContain("WebSearch tides");
    expect(text).toContain("  ⎿ 7 results\n    · Page 1 — https://example.org/1\n");
    expect(text).toContain("    · Page 5 — https://example.org/5\n    … 2 more results");
    expect(text).not.toContain("Page 6");
  });

  it("folds thinking into one dim line and shows each call with its key argument and a result summary", () => {
    const events = [
      { type: "system", subtype: "init", session_id: "s1", cwd: "/repo", model: "m", permissionMode: "default" },
      { type: "assistant", message: { content: [{ type: "thinking", thinking: "first\nsecond ".repeat(40) }] } },
      {
        type: "assistant",
        message: { content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm test\nnpm run lint" } }] },
      },
      {
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: "t1", content: "boom", is_error: false }] },
        tool_use_result: { stdout: "a\nb\nc\n", stderr: "", exitCode: 2 },
      },
      {
        type: "assistant",
        message: { content: [{ type: "tool_use", id: "t2", name: "Grep", input: { pattern: "TODO", path: "/repo/src" } }] },
      },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t2", content: "Found 3 files\na\nb\nc" }] } },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t3", name: "Read", input: { file_path: "/elsewhere/x.ts" } }] } },
      {
        type: "user",
        message: {
          content: [
            {
              type: "tool_result",
              tool_use_id: "t3",
              content: "<tool_use_error>File does not exist.\nSecond line of the error.</tool_use_error>",
              is_error: true,
            },
          ],
        },
      },
    ];
    const lines = renderTranscript(
      events.map((event) => ({ kind: "event", event })),
      { width: 80, color: false },
    );
    expect(lines).toEqual([
      "● session s1 · m · /repo · default",
      `${`✻ Thinking: ${"first second ".repeat(40).trim()}`.slice(0, 79)}…`,
      "⏺ Bash npm test …",
      "  ⎿ exit 2, 3 lines of output",
      "⏺ Grep TODO in src",
      "  ⎿ 4 lines",
      "⏺ Read /elsewhere/x.ts",
      "  ⎿ File does not exist.",
      "    Second line of the error.",
    ]);
  });

  it("shows an edit as a unified diff from the structured patch, and a session file's edit from its input", () => {
    const call = {
      type: "assistant",
      message: {
        content: [{ type: "tool_use", id: "e1", name: "Edit", input: { file_path: "a.txt", old_string: "one", new_string: "uno" } }],
      },
    };
    const structuredPatch = [{ oldStart: 3, oldLines: 3, newStart: 3, newLines: 3, lines: [" before", "-one", "+uno", " after"] }];
    const withPatch = renderTranscript(
      [
        call,
        {
          type: "user",
          message: { content: [{ type: "tool_result", tool_use_id: "e1", content: "ok" }] },
          tool_use_result: { filePath: "a.txt", structuredPatch },
        },
      ].map((event) => ({ kind: "event", event })),
      { width: 80, color: false },
    );
    expect(withPatch.slice(1)).toEqual([
      "  ⎿ updated a.txt: +1 -1",
      "    @@ -3,3 +3,3 @@",
      "     before",
      "    -one",
      "    +uno",
      "     after",
    ]);
    const fromInput = renderTranscript(
      [call, { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "e1", content: "ok" }] } }].map((event) => ({
        kind: "event",
        event,
      })),
      { width: 80, color: false },
    );
    expect(fromInput.slice(1)).toEqual(["  ⎿ updated a.txt", "    -one", "    +uno"]);
  });

  it("shows retries, denials, compactions, and a closing line with outcome, turns, tokens, cost and time", () => {
    const events = [
      { type: "system", subtype: "api_retry", attempt: 2, max_retries: 10, retry_delay_ms: 1500, error_status: 529, error: "overloaded" },
      {
        type: "system",
        subtype: "compact_boundary",
        compact_metadata: { trigger: "auto", pre_tokens: 120000, post_tokens: 9000, duration_ms: 40 },
      },
      { type: "system", subtype: "permission_denied", tool_name: "Write", message: "not allowed" },
      {
        type: "result",
        subtype: "error_max_turns",
        is_error: true,
        num_turns: 3,
        duration_ms: 12345,
        total_cost_usd: 0.12345,
        usage: { input_tokens: 1000, cache_read_input_tokens: 500, output_tokens: 250 },
        errors: ["Reached maximum number of turns (3)"],
        permission_denials: [{ tool_name: "Write", tool_input: { file_path: "x.txt" } }],
      },
    ];
    expect(
      renderTranscript(
        events.map((event) => ({ kind: "event", event })),
        { width: 120, color: false },
      ),
    ).toEqual([
      "↻ model API failed (overloaded, HTTP 529); retry 2 of 10 in 1.5 s",
      "── compacted (auto): 120,000 → 9,000 tokens in 40 ms ──",
      "✗ Write denied: not allowed",
      "  ✗ denied: Write x.txt",
      "✗ error_max_turns: Reached maximum number of turns (3) · 3 turns · 1,750 tokens (1,500 in, 250 out) · $0.1235 · 12.3 s",
      "",
    ]);
  });

  it("never throws: malformed lines, unknown events and wrong field types come out dimmed", () => {
    const renderer = new TranscriptRenderer({ width: 60, color: false });
    expect(renderer.render({ kind: "invalid", text: "not json {" })).toEqual(["? not json {"]);
    expect(renderer.render({ kind: "event", event: { type: "mystery", x: 1 } })).toEqual(['? {"type":"mystery","x":1}']);
    expect(renderer.render({ kind: "event", event: { type: "assistant", message: "oops" } })).toEqual([
      '? {"type":"assistant","message":"oops"}',
    ]);
    // Every golden event with each field in turn replaced by a value of the wrong type.
    const golden = readdirSync(EXAMPLES)
      .filter((name) => name.endsWith(".jsonl"))
      .flatMap((name) => items(readFileSync(join(EXAMPLES, name), "utf8")));
    const oddValues = [null, 42, "text", [], {}, [null], { type: 7 }];
    let rendered = 0;
    for (const item of golden) {
      if (item.kind !== "event") continue;
      const event = item.event as Record<string, unknown>;
      for (const key of Object.keys(event))
        for (const odd of oddValues) {
          const broken = structuredClone(event);
          broken[key] = odd;
          if (typeof broken.message === "object" && broken.message !== null && key !== "message")
            (broken.message as Record<string, unknown>).content = odd;
          expect(() => renderer.render({ kind: "event", event: broken })).not.toThrow();
          rendered++;
        }
    }
    expect(rendered).toBeGreaterThan(500);
    for (const odd of [null, 1, "x", [], true]) expect(renderer.render({ kind: "event", event: odd })).toHaveLength(1);
  });
});
