import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  results,
  ROOT,
  runAgentwire,
  sequence,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

type Body = { system?: unknown; tools?: unknown[]; messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
const bodyOf = (workspace: Workspace, index: number) => workspace.server.requests[index]!.body as Body;
const textOf = (body: Body) => JSON.stringify(body.messages);
const boundaries = (events: OutputEvent[]) =>
  events.filter((event) => event.type === "system" && event.subtype === "compact_boundary") as Array<{
    compact_metadata: { trigger: string; pre_tokens: number; post_tokens: number; duration_ms: number };
  }>;
const compactionLines = (events: OutputEvent[]) =>
  sequence(events).filter((kind) => kind.startsWith("system/status") || kind === "system/compact_boundary");
const SUMMARY = "1. User requests: read big.txt.\n5. Current work: reading big.txt.\n6. Next step: answer.";

describe("automatic compaction", () => {
  it("over the threshold: the model's summary replaces the conversation, announced as Claude Code does; memory files stay", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "big.txt"), `${"A line of a large file that fills the context window.\n".repeat(600)}`);
    await writeFile(join(workspace.cwd, "AGENTS.md"), "Memory: always answer briefly.\n");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Read", input: { file_path: "big.txt" } }] }, { text: SUMMARY }, { text: "It is a large file." }],
    });
    const run = await runAgentwire(
      ["-p", "Read big.txt and tell me about it", ...STREAM, "--context-window", "8192", "--tool-profile", "compact"],
      { workspace },
    );
    expectWellFormedRun(run, 1);
    expect(compactionLines(run.events)).toEqual(["system/status", "system/compact_boundary", "system/status"]);
    const statuses = run.events.filter((event) => event.type === "system" && event.subtype === "status") as Array<{
      status: string | null;
      compact_result?: string;
    }>;
    expect(statuses.map((status) => [status.status, status.compact_result])).toEqual([
      ["compacting", undefined],
      [null, "success"],
    ]);
    const [boundary] = boundaries(run.events);
    expect(boundary!.compact_metadata.trigger).toBe("auto");
    expect(boundary!.compact_metadata.pre_tokens).toBeGreaterThan(5_000);
    expect(boundary!.compact_metadata.post_tokens).toBeLessThan(boundary!.compact_metadata.pre_tokens / 2);
    // The summary request: the transcript, no tools.
    const summaryRequest = bodyOf(workspace, 1);
    expect(JSON.stringify(summaryRequest.system)).toContain("You summarize a conversation");
    expect(summaryRequest.tools ?? []).toEqual([]);
    // The request after it starts from the summary, with the user's request verbatim; memory is in the system prompt.
    const after = bodyOf(workspace, 2);
    expect(after.messages[0]!.content[0]!.text).toContain(`# Summary\n\n${SUMMARY}`);
    expect(after.messages[0]!.content[0]!.text).toContain("- Read big.txt and tell me about it");
    expect(textOf(after)).not.toContain("A line of a large file");
    expect(JSON.stringify(after.system)).toContain("Memory: always answer briefly.");
    expect(results(run.events)[0]).toMatchObject({ is_error: false, result: "It is a large file." });
    // The summary's usage is part of the turn's.
    expect(results(run.events)[0]!.usage.input_tokens).toBeGreaterThan(0);
  });

  it.each([
    ["anthropic", { status: 400, type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" }],
    ["openai-chat", { status: 400, code: "context_length_exceeded", message: "This model's maximum context length is 128000 tokens." }],
    ["openai-responses", { status: 400, code: "context_length_exceeded", message: "Your input exceeds the context window of this model." }],
    ["gemini", { status: 400, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)." }],
    ["ollama", { status: 400, message: "the request exceeds the available context size, try increasing it" }],
  ] as Array<[ProviderUnderTest, Record<string, unknown>]>)("%s: an overflow error compacts and asks again", async (provider, error) => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ error }, { text: SUMMARY }, { text: "Answered after compacting." }] });
    const run = await runAgentwire(["-p", "A long question", ...STREAM], { workspace, provider });
    expectWellFormedRun(run, 1);
    expect(boundaries(run.events).map((boundary) => boundary.compact_metadata.trigger)).toEqual(["auto"]);
    expect(results(run.events)[0]).toMatchObject({ is_error: false, result: "Answered after compacting." });
    expect(workspace.server.requests).toHaveLength(3);
  });

  it("compacting that does not help three times in a row ends the turn with context_length_exceeded", async () => {
    workspace = await createWorkspace("text");
    const overflow = {
      error: { status: 400, type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" },
    };
    await workspace.useScenario({ turns: [overflow, { text: SUMMARY }, overflow, { text: SUMMARY }, overflow, { text: "never" }] });
    const run = await runAgentwire(["-p", "A long question", ...STREAM], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.code).toBe(1);
    expect(results(run.events)[0]).toMatchObject({ is_error: true, error_code: "context_length_exceeded" });
    expect(results(run.events)[0]!.errors![0]).toMatch(/compacting it did not help 3 times in a row/);
    expect(workspace.server.requests).toHaveLength(5);
  });

  it("--no-auto-compact leaves an overflow as the error it is", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { error: { status: 400, type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" } },
        { text: "never" },
      ],
    });
    const run = await runAgentwire(["-p", "A long question", ...STREAM, "--no-auto-compact"], { workspace });
    expect(results(run.events)[0]).toMatchObject({ is_error: true, error_code: "context_length_exceeded" });
    expect(boundaries(run.events)).toEqual([]);
  });

  it("follows set_model: the threshold is the new model's window, so a conversation that fit the first model is compacted after the switch", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "One." }, { text: SUMMARY }, { text: "Two." }] });
    // About 7,500 tokens: under 2 % of claude-opus-5-5's 1,000,000-token window, over 2 % of haiku's 200,000.
    const longPrompt = `Here are my notes. ${"Notes about the fruit harvest and the weather this season. ".repeat(500)}`;
    const line = (text: string) => `${JSON.stringify({ type: "user", content: text })}\n`;
    const setModel = `${JSON.stringify({ type: "control_request", request_id: "m1", request: { subtype: "set_model", model: "haiku" } })}\n`;
    const args = [
      "--input-format",
      "stream-json",
      ...STREAM,
      "--model",
      "claude-opus-5-5",
      "--auto-compact-threshold",
      "2",
      "--tool-profile",
      "compact",
    ];
    const run = await runAgentwire(args, { workspace, stdin: line("First?") + setModel + line(longPrompt) });
    expectWellFormedRun(run, 2);
    const [boundary] = boundaries(run.events);
    expect(boundary?.compact_metadata.trigger).toBe("auto");
    expect(boundary!.compact_metadata.pre_tokens).toBeGreaterThan(4_000);
    expect(boundary!.compact_metadata.pre_tokens).toBeLessThan(20_000);
    // The summary was asked of the new model, and the answer after it too.
    expect(workspace.server.requests.slice(1).map((request) => (request.body as { model: string }).model)).toEqual([
      "claude-haiku-4-5",
      "claude-haiku-4-5",
    ]);
    expect(results(run.events).map((result) => result.result)).toEqual(["One.", "Two."]);
  });
});

describe("/compact, /clear and resuming", () => {
  const line = (text: string) => `${JSON.stringify({ type: "user", content: text })}\n`;

  it("/compact with instructions, then resume: the session continues from the summary; the file keeps everything", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ text: "The answer about apples." }, { text: SUMMARY }, { text: "Continuing from the summary." }, { text: "Resumed." }],
    });
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], {
      workspace,
      stdin: line("Tell me about apples") + line("/compact keep the fruit names") + line("And now?"),
    });
    expectWellFormedRun(run, 3);
    expect(boundaries(run.events).map((boundary) => boundary.compact_metadata.trigger)).toEqual(["manual"]);
    expect(results(run.events).map((result) => result.result)).toEqual([
      "The answer about apples.",
      "Compacted the conversation.",
      "Continuing from the summary.",
    ]);
    // As Claude Code: the /compact turn reports no usage; the summary is billed in the session totals.
    const [answer, compacted] = results(run.events);
    expect(compacted!.usage).toMatchObject({
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    expect(compacted!.total_cost_usd).toBeGreaterThan(answer!.total_cost_usd);
    expect(textOf(bodyOf(workspace, 1))).toContain("Focus the summary on: keep the fruit names");
    const third = bodyOf(workspace, 2);
    expect(third.messages[0]!.content[0]!.text).toContain(SUMMARY);
    expect(textOf(third)).not.toContain("The answer about apples.");

    const sessionId = results(run.events)[0]!.session_id;
    const resumed = await runAgentwire(["-p", "Still there?", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(resumed, 1);
    const fourth = bodyOf(workspace, 3);
    expect(fourth.messages[0]!.content[0]!.text).toContain(SUMMARY);
    expect(textOf(fourth)).not.toContain("The answer about apples.");
    expect(textOf(fourth)).toContain("Continuing from the summary.");
    // The file still holds the messages from before the compaction, for export and audit.
    const projects = join(workspace.home, ".agentwire", "projects");
    const file = join(projects, readdirSync(projects)[0]!, `${sessionId}.jsonl`);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("The answer about apples.");
    expect(text).toContain('"type":"compaction"');
  });

  it("/clear starts the conversation over in the same session", async () => {
    workspace = await createWorkspace("multi-turn");
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], {
      workspace,
      stdin: line("First?") + line("/clear") + line("Second?"),
    });
    expectWellFormedRun(run, 3);
    expect(results(run.events)[1]!.result).toMatch(/^Cleared the conversation \(2 messages\)/);
    // Nothing of the first question is left; the deferred-tools listing is added to every request.
    expect(bodyOf(workspace, 1).messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Second?" },
          { type: "text", text: expect.stringMatching(/^<system-reminder>\nThe tools below are deferred/) },
        ],
      },
    ]);
  });

  it("a version-1 session file (written by agentwire before compaction existed) resumes, and is upgraded by its first compaction", async () => {
    workspace = await createWorkspace("text");
    const fixture = join(ROOT, "test", "fixtures", "sessions", "version-1.jsonl");
    const sessionId = "ef72fc65-c047-40c1-bdf8-0d3af698e8f4";
    const directory = join(workspace.home, ".agentwire", "projects", workspace.cwd.replace(/[^a-zA-Z0-9]/g, "-"));
    mkdirSync(directory, { recursive: true });
    const file = join(directory, `${sessionId}.jsonl`);
    copyFileSync(fixture, file);
    expect(readFileSync(file, "utf8").split("\n")[0]).toContain('"version":1');

    await workspace.useScenario({ turns: [{ text: SUMMARY }, { text: "After the upgrade." }] });
    const compacted = await runAgentwire(["-p", "/compact", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(compacted, 1);
    expect(textOf(bodyOf(workspace, 0))).toContain("remember the milk");
    const header = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { version: number; session_id: string };
    expect(header).toMatchObject({ version: 2, session_id: sessionId });
    const resumed = await runAgentwire(["-p", "And now?", ...STREAM, "--resume", sessionId], { workspace });
    expectWellFormedRun(resumed, 1);
    expect(bodyOf(workspace, 1).messages[0]!.content[0]!.text).toContain(SUMMARY);
    // The resumed cost is the version-1 file's plus what came after.
    expect(results(resumed.events)[0]!.total_cost_usd).toBeGreaterThan(0);
  });
});
