import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addPrompt, answerPermission, applyEvent, createConversation, foldEvents, openPermissions } from "../../web/render-events.js";
import { ROOT } from "../helpers/agentwire.js";

const example = (name: string): unknown[] =>
  readFileSync(join(ROOT, "protocol", "examples", `${name}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);

/** What is on screen: one short line per item that is not removed. */
const screen = (conversation: ReturnType<typeof createConversation>): string[] =>
  conversation.items
    .filter((item) => !item.removed)
    .map((item) => {
      switch (item.kind) {
        case "prompt":
          return `> ${item.text}`;
        case "text":
        case "thinking":
          return `${item.kind}${item.streaming ? "…" : ""}: ${item.text}`;
        case "tool":
          return `tool ${item.name} ${item.summary}${item.result ? ` → ${item.result.summary}` : ""}`;
        case "permission":
          return `ask ${item.toolName} ${item.summary} (${item.state}): ${item.reason}`;
        case "result":
          return `result ${item.outcome} · ${item.facts.join(" · ")}`;
        default:
          return `${item.level}: ${item.text}`;
      }
    });

const stream = (event: Record<string, unknown>, messageId = "msg_1") => ({ type: "stream_event", api_message_id: messageId, event });
const assistantLine = (block: Record<string, unknown>, messageId = "msg_1") => ({
  type: "assistant",
  message: { id: messageId, content: [block] },
});

describe("web page event folding", () => {
  it("builds text from deltas, then shows the complete assistant message instead", () => {
    const conversation = createConversation();
    applyEvent(conversation, { type: "system", subtype: "init", cwd: "/repo", model: "m", provider: "p" });
    applyEvent(conversation, stream({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
    applyEvent(conversation, stream({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }));
    applyEvent(conversation, stream({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } }));
    expect(screen(conversation)).toEqual(["text…: Hello"]);
    const item = conversation.items[0]!;
    const revision = item.rev;
    applyEvent(conversation, assistantLine({ type: "text", text: "Hello, world." }));
    expect(screen(conversation)).toEqual(["text: Hello, world."]);
    expect(conversation.items[0]).toBe(item);
    expect(item.rev).toBeGreaterThan(revision);
    expect(conversation.running).toBe(true);
  });

  it("folds a whole recorded turn: text, a Read card with its result, the answer and the result line", () => {
    const conversation = foldEvents(example("partial-messages"));
    expect(screen(conversation)).toEqual([
      "text: I'll read the file.",
      "tool Read hello.txt → read 4 lines",
      expect.stringMatching(/^text: /),
      expect.stringMatching(/^result done · 2 turns · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\) · \$\d+\.\d{4} session · \d+\.\d s$/),
    ]);
    expect(conversation.running).toBe(false);
  });

  it("shows the same conversation from complete messages alone (stored history)", () => {
    const complete = example("partial-messages").filter((event) => (event as { type: string }).type !== "stream_event");
    expect(screen(foldEvents(complete))).toEqual(screen(foldEvents(example("partial-messages"))));
  });

  it("asks permission, then drops the question when it is cancelled or the turn ends", () => {
    const conversation = createConversation();
    applyEvent(conversation, { type: "system", subtype: "init", cwd: "/repo" });
    applyEvent(
      conversation,
      assistantLine({ type: "tool_use", id: "t1", name: "Write", input: { file_path: "/repo/a.txt", content: "x" } }),
    );
    const ask = (id: string) => ({
      type: "control_request",
      request_id: id,
      request: {
        subtype: "can_use_tool",
        tool_name: "Write",
        input: { file_path: "/repo/a.txt" },
        decision_reason: "writes a file",
        tool_use_id: "t1",
      },
    });
    applyEvent(conversation, ask("r1"));
    expect(openPermissions(conversation).map((item) => item.requestId)).toEqual(["r1"]);
    applyEvent(conversation, { type: "control_cancel_request", request_id: "r1" });
    applyEvent(conversation, ask("r2"));
    applyEvent(conversation, {
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      errors: ["interrupted"],
      total_cost_usd: 0.5,
    });
    expect(screen(conversation)).toEqual([
      "tool Write a.txt",
      "ask Write a.txt (cancelled): writes a file",
      "ask Write a.txt (cancelled): writes a file",
      "result error_during_execution: interrupted · $0.5000 session",
    ]);
  });

  it("attaches diffs to Write cards and shows what each turn cost", () => {
    const conversation = createConversation();
    applyEvent(conversation, { type: "system", subtype: "init", cwd: "/repo" });
    applyEvent(
      conversation,
      assistantLine({ type: "tool_use", id: "t1", name: "Write", input: { file_path: "/repo/a.txt", content: "x\n" } }),
    );
    applyEvent(conversation, {
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "File created" }] },
      tool_use_result: {
        type: "update",
        filePath: "/repo/a.txt",
        structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-w", "+x"] }],
      },
    });
    applyEvent(conversation, { type: "result", subtype: "success", is_error: false, total_cost_usd: 0.25, num_turns: 2 });
    applyEvent(conversation, { type: "result", subtype: "success", is_error: false, total_cost_usd: 0.75, num_turns: 1 });
    const card = conversation.items.find((item) => item.kind === "tool")!;
    expect(card.result.diff.map((row: { kind: string }) => row.kind)).toEqual(["hunk", "del", "add"]);
    expect(screen(conversation).slice(1)).toEqual([
      "result done · 2 turns · $0.2500 session",
      "result done · 1 turn · $0.5000 (session $0.7500)",
    ]);
  });

  it("drops an abandoned attempt's partial text on a retry and keeps one copy of an echoed prompt", () => {
    const conversation = createConversation();
    addPrompt(conversation, "hi");
    applyEvent(conversation, stream({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
    applyEvent(conversation, stream({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "half" } }));
    applyEvent(conversation, {
      type: "system",
      subtype: "api_retry",
      attempt: 1,
      max_retries: 10,
      retry_delay_ms: 500,
      error_status: 529,
      error: "overloaded",
    });
    applyEvent(conversation, { type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] } });
    expect(screen(conversation)).toEqual(["> hi", "warning: Model API failed (overloaded, HTTP 529); retry 1 of 10 in 0.5 s"]);
  });
});

describe("web page subagent folding", () => {
  const fixture = (name: string): unknown[] =>
    readFileSync(join(ROOT, "fixtures", "subagents", `${name}.jsonl`), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);

  it("keeps each subagent's calls inside its Agent card, however their lines interleave, with its cost line and report", () => {
    const conversation = foldEvents(fixture("two-concurrent"));
    // No card of its own for a subagent's call, and its prompt is not a prompt of the conversation.
    expect(screen(conversation)).toEqual([
      "text: I'll hand both questions to subagents.",
      "tool Agent general-purpose: Count lines → completed · 2 tool uses · 2,667 tokens (2,580 in, 87 out) · 1.3 s",
      "tool Agent Explore: Find TODOs → failed · 1 tool use · 1,100 tokens · 0.9 s",
      "text: hello.txt has 3 lines; the TODO search failed.",
      "result done · 2 turns · 2,020 tokens (2,000 in, 20 out) · $0.1884 session · 4.2 s",
    ]);
    const [count, todos] = conversation.items.filter((item) => item.kind === "tool");
    const steps = (item: typeof count) =>
      item!.subagent.steps.map(
        (step: { name: string; summary: string; result?: { summary: string } }) => `${step.name} ${step.summary} → ${step.result?.summary}`,
      );
    expect(steps(count)).toEqual(["Read hello.txt → read 4 lines", "Bash wc -l hello.txt → 1 line of output"]);
    expect(steps(todos)).toEqual(["Grep TODO in src → 2 lines"]);
    expect(count!.subagent.summary.report).toBe("hello.txt has **3** lines.\n\nI read it, then checked with `wc -l`.");
    expect(todos!.result).toMatchObject({ failed: true, output: "API Error: 500 Internal server error" });
  });

  it("says when a background task starts and ends, and shows a subagent's progress while it runs", () => {
    expect(screen(foldEvents(fixture("background-bash")))).toEqual([
      "tool Bash npm run build → running in the background as b5c7peivx",
      "info: background shell b5c7peivx started: Build in the background",
      "text: The build is running in the background.",
      "result done · 2 turns · 2,020 tokens (2,000 in, 20 out) · $0.0081 session · 0.9 s",
      'info: background task b5c7peivx completed: Background command "Build in the background" completed (exit code 0)',
      "text: The build finished.",
      "result done · 1 turn · 1,106 tokens (1,100 in, 6 out) · $0.0042 (session $0.0123) · 0.4 s",
    ]);
    const running = foldEvents(fixture("two-concurrent").slice(0, 11));
    const card = running.items.find((item) => item.kind === "tool")!;
    expect(card.result).toBeUndefined();
    expect(card.subagent.progress).toBe("Reading hello.txt");
  });
});

describe("web page permission answers", () => {
  it("shows an answer at once, asks again when it could not be delivered, and never revives a cancelled question", () => {
    const conversation = createConversation();
    const ask = (id: string) => ({
      type: "control_request",
      request_id: id,
      request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: "rm x" }, decision_reason: "deletes" },
    });
    applyEvent(conversation, ask("r1"));
    answerPermission(conversation, "r1", "allowed");
    // The turn's result arrives before the answer's request returns: the answer stays.
    applyEvent(conversation, { type: "result", subtype: "success", is_error: false });
    expect(conversation.permissions.get("r1")!.state).toBe("allowed");
    applyEvent(conversation, ask("r2"));
    answerPermission(conversation, "r2", "denied");
    answerPermission(conversation, "r2", "open");
    expect(openPermissions(conversation).map((item) => item.requestId)).toEqual(["r2"]);
    applyEvent(conversation, { type: "control_cancel_request", request_id: "r2" });
    answerPermission(conversation, "r2", "open");
    expect(conversation.permissions.get("r2")!.state).toBe("cancelled");
  });
});
