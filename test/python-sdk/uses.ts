import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { z } from "zod";
import type { RecordedRequest } from "../../src/mock-server/server.js";
import type { scenarioSchema } from "../../src/mock-server/scenario.js";
import { PROVIDERS_UNDER_TEST, ROOT, type ProviderUnderTest, type Workspace } from "../helpers/agentwire.js";
import type { Block, Observation } from "./python-sdk-messages.js";

/**
 * The everyday uses of the Python Agent SDK (issue 24), shared by the real run (uses.py through
 * the SDK) and the replay of its recorded traffic (no Python): each use's workspace and model
 * script, and what must hold afterwards. uses.py holds what the SDK user does for each name.
 */

/** What a run of one use yields, from Python (uses.py's report) or from the replay. */
export interface UseReport {
  messages: Observation[];
  /** What the user's callbacks were called with; the replay reads it off agentwire's control requests. */
  facts: { can_use_tool: string[]; hooks: Array<{ event: string; tool: string | null; input: unknown }>; mcp_tool_calls: unknown[] };
  /** The exception the SDK raised to the user, as "Type: message", or null. */
  raised: string | null;
}

/** A provider as a Python SDK user points the SDK at it: `model`, `extra_args`, `env`. */
export interface SdkProvider {
  name: ProviderUnderTest;
  /** What `model=` (and so `--model`) says. */
  model: string;
  /** The model id the requests carry. */
  modelId: string;
  /** What `set_model` switches to, and the id later requests carry. */
  otherModel: { alias: string; id: string };
  /** agentwire's provider flags other than --model, as the SDK's `extra_args`. */
  extraArgs: (serverUrl: string) => Record<string, string | null>;
  env: Record<string, string>;
}

const OTHER_MODELS: Record<ProviderUnderTest, { alias: string; id: string }> = {
  anthropic: { alias: "haiku", id: "claude-haiku-4-5" },
  "openai-chat": { alias: "gpt-4.1-mini", id: "gpt-4.1-mini" },
  "openai-responses": { alias: "gpt-5.4-mini", id: "gpt-5.4-mini" },
  ollama: { alias: "qwen2.5-coder:7b", id: "qwen2.5-coder:7b" },
  gemini: { alias: "gemini-3.8-pro", id: "gemini-3.8-pro" },
};

/** PROVIDERS_UNDER_TEST, with --model taken out of the flags (the SDK passes it from `model`). */
export const SDK_PROVIDERS: SdkProvider[] = (Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[]).map((name) => {
  const entry = PROVIDERS_UNDER_TEST[name];
  const flags = (url: string): Array<[string, string]> => {
    const args = entry.args(url);
    return Array.from({ length: args.length / 2 }, (_, index) => [args[2 * index]!.replace(/^--/, ""), args[2 * index + 1]!]);
  };
  const model = flags("").find(([flag]) => flag === "model")?.[1] ?? entry.model;
  return {
    name,
    model,
    modelId: entry.model,
    otherModel: OTHER_MODELS[name],
    extraArgs: (url) => Object.fromEntries(flags(url).filter(([flag]) => flag !== "model")),
    env: entry.env,
  };
});

export interface UseContext {
  workspace: Workspace;
  provider: SdkProvider;
  requests: RecordedRequest[];
}

export interface PythonSdkUse {
  /** uses.py's name for it, and the fixture's file name. */
  name: string;
  /** Writes the use's files and returns the model's script. */
  prepare(workspace: Workspace): Promise<z.input<typeof scenarioSchema>>;
  check(report: UseReport, context: UseContext): void;
}

// ---------------------------------------------------------------------------------------------
// Reading a report

export function results(report: UseReport): Array<Extract<Observation, { type: "result" }>> {
  return report.messages.filter((message): message is Extract<Observation, { type: "result" }> => message.type === "result");
}

export function toolResults(report: UseReport): Array<Extract<Block, { type: "tool_result" }>> {
  return report.messages.flatMap((message) =>
    message.type === "user" && Array.isArray(message.content)
      ? message.content.filter((block): block is Extract<Block, { type: "tool_result" }> => block.type === "tool_result")
      : [],
  );
}

function expectSuccesses(report: UseReport, texts: string[]): void {
  expect(results(report).map(({ subtype, is_error, result }) => ({ subtype, is_error, result }))).toEqual(
    texts.map((result) => ({ subtype: "success", is_error: false, result })),
  );
  expect(report.raised).toBeNull();
}

/** The model a request asked for: in the body, or in Gemini's path. */
export function requestModel(request: RecordedRequest): string | undefined {
  const body = request.body as { model?: unknown };
  if (typeof body.model === "string") return body.model;
  return /\/models\/([^/:]+):/.exec(request.path)?.[1];
}

function requestText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body ?? null);
}

// ---------------------------------------------------------------------------------------------
// The uses

const textOnly = (...texts: string[]) => ({ turns: texts.map((text) => ({ text })) });

export const USES: PythonSdkUse[] = [
  {
    name: "query-text",
    prepare: async () => textOnly("Hello! I am the mock model. 2 + 2 = 4."),
    check(report, { provider }) {
      expect(report.messages[0]).toMatchObject({ type: "system", subtype: "init", model: provider.modelId });
      expect(report.messages.filter((message) => message.type !== "system").map((message) => message.type)).toEqual([
        "assistant",
        "result",
      ]);
      expect(report.messages.find((message) => message.type === "assistant")).toMatchObject({
        content: [{ type: "text", text: "Hello! I am the mock model. 2 + 2 = 4." }],
      });
      expectSuccesses(report, ["Hello! I am the mock model. 2 + 2 = 4."]);
    },
  },
  {
    name: "client-multi-turn",
    prepare: async () => textOnly("First answer.", "Second answer.", "Third answer."),
    check(report, { requests }) {
      expectSuccesses(report, ["First answer.", "Second answer.", "Third answer."]);
      expect(new Set(results(report).map((result) => result.session_id)).size).toBe(1);
      expect(requests).toHaveLength(3);
      // The third turn carries the whole conversation.
      for (const text of ["First?", "First answer.", "Second?", "Second answer.", "Third?"])
        expect(requestText(requests[2])).toContain(text);
    },
  },
  {
    name: "can-use-tool-allow",
    async prepare(workspace) {
      await mkdir(join(workspace.root, "outside"));
      await writeFile(join(workspace.root, "outside", "o.txt"), "outside\n");
      return {
        turns: [{ tool_calls: [{ name: "Read", input: { file_path: join(workspace.root, "outside", "o.txt") } }] }, { text: "Read it." }],
      };
    },
    check(report) {
      expect(report.facts.can_use_tool).toEqual(["Read"]);
      expect(toolResults(report)).toEqual([expect.objectContaining({ is_error: false, content: expect.stringContaining("outside") })]);
      expectSuccesses(report, ["Read it."]);
      expect(results(report)[0]!.permission_denials).toEqual([]);
    },
  },
  {
    name: "can-use-tool-deny",
    prepare: async () => ({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "touch made-by-bash.txt" } }] }, { text: "done" }] }),
    check(report, { workspace, requests }) {
      expect(report.facts.can_use_tool).toEqual(["Bash"]);
      expect(toolResults(report)).toEqual([{ type: "tool_result", is_error: true, content: "No shell today." }]);
      expect(existsSync(join(workspace.cwd, "made-by-bash.txt"))).toBe(false);
      expectSuccesses(report, ["done"]);
      expect(results(report)[0]!.permission_denials).toEqual(["Bash"]);
      expect(requestText(requests[1])).toContain("No shell today.");
    },
  },
  {
    name: "hook-with-matcher",
    async prepare(workspace) {
      await writeFile(join(workspace.cwd, "hello.txt"), "secret\n");
      return {
        turns: [
          { tool_calls: [{ name: "Read", input: { file_path: "hello.txt" } }] },
          { tool_calls: [{ name: "Glob", input: { pattern: "*.txt" } }] },
          { text: "done" },
        ],
      };
    },
    check(report) {
      // The matcher names Read: the hook sees Read and not Glob.
      expect(report.facts.hooks).toEqual([{ event: "PreToolUse", tool: "Read", input: { file_path: "hello.txt" } }]);
      const [read, glob] = toolResults(report);
      expect(read).toEqual({ type: "tool_result", is_error: true, content: "Hook says no." });
      expect(glob).toMatchObject({ is_error: false, content: expect.stringContaining("hello.txt") });
      expectSuccesses(report, ["done"]);
    },
  },
  {
    name: "hook-without-matcher",
    async prepare(workspace) {
      await writeFile(join(workspace.cwd, "hello.txt"), "secret\n");
      return {
        turns: [
          { tool_calls: [{ name: "Read", input: { file_path: "hello.txt" } }] },
          { tool_calls: [{ name: "Bash", input: { command: "touch by-bash.txt" } }] },
          { text: "done" },
        ],
      };
    },
    check(report, { workspace }) {
      // No matcher (`"matcher": null` on the wire): the hook sees every tool.
      expect(report.facts.hooks.map((hook) => hook.tool)).toEqual(["Read", "Bash"]);
      const [read, bash] = toolResults(report);
      expect(read).toMatchObject({ is_error: false, content: expect.stringContaining("secret") });
      expect(bash).toEqual({ type: "tool_result", is_error: true, content: "No matcher, still guarded." });
      expect(existsSync(join(workspace.cwd, "by-bash.txt"))).toBe(false);
      expectSuccesses(report, ["done"]);
    },
  },
  {
    name: "sdk-mcp-tool",
    prepare: async () => ({
      turns: [{ tool_calls: [{ name: "mcp__harness__echo_upper", input: { text: "shout this" } }] }, { text: "Echoed." }],
    }),
    check(report, { requests }) {
      expect(report.messages[0]).toMatchObject({
        type: "system",
        subtype: "init",
        mcp_servers: [{ name: "harness", status: "connected" }],
      });
      expect(report.facts.mcp_tool_calls).toEqual([{ text: "shout this" }]);
      expect(toolResults(report)).toEqual([{ type: "tool_result", is_error: false, content: "ECHO:SHOUT THIS" }]);
      expect(requestText(requests[0])).toContain("mcp__harness__echo_upper");
      expectSuccesses(report, ["Echoed."]);
    },
  },
  {
    name: "interrupt",
    prepare: async () =>
      JSON.parse(readFileSync(join(ROOT, "fixtures", "scenarios", "interrupt.json"), "utf8")) as z.input<typeof scenarioSchema>,
    check(report) {
      const [first, second] = results(report);
      expect(first).toMatchObject({ subtype: "error_during_execution", is_error: true });
      expect(second).toMatchObject({ subtype: "success", is_error: false, result: "Done." });
      expect(results(report)).toHaveLength(2);
      expect(report.messages.some((message) => message.type === "stream_event" && message.event_type === "content_block_delta")).toBe(true);
      expect(report.raised).toBeNull();
    },
  },
  {
    name: "resume",
    prepare: async () => textOnly("First answer.", "Second answer."),
    check(report, { requests }) {
      expectSuccesses(report, ["First answer.", "Second answer."]);
      const [first, second] = results(report);
      expect(second!.session_id).toBe(first!.session_id);
      expect(requestText(requests[1])).toContain("First answer.");
    },
  },
  {
    name: "fork-session",
    prepare: async () => textOnly("First answer.", "Second answer."),
    check(report, { requests }) {
      expectSuccesses(report, ["First answer.", "Second answer."]);
      const [first, second] = results(report);
      expect(second!.session_id).not.toBe(first!.session_id);
      expect(requestText(requests[1])).toContain("First answer.");
    },
  },
  {
    name: "partial-messages",
    prepare: async () => textOnly("Hello! I am the mock model. 2 + 2 = 4."),
    check(report) {
      const kinds = report.messages.map((message) =>
        message.type === "stream_event" ? `stream:${String(message.event_type)}` : message.type,
      );
      expect(kinds.indexOf("stream:content_block_delta")).toBeGreaterThan(-1);
      expect(kinds.indexOf("stream:content_block_delta")).toBeLessThan(kinds.indexOf("assistant"));
      expectSuccesses(report, ["Hello! I am the mock model. 2 + 2 = 4."]);
    },
  },
  {
    name: "output-format",
    prepare: async () => ({ turns: [{ tool_calls: [{ name: "StructuredOutput", input: { answer: 4 } }] }] }),
    check(report) {
      expect(results(report)).toEqual([expect.objectContaining({ subtype: "success", is_error: false, structured_output: { answer: 4 } })]);
      expect(report.raised).toBeNull();
    },
  },
  {
    name: "set-permission-mode",
    prepare: async () => ({
      turns: [
        { tool_calls: [{ name: "Write", input: { file_path: "w.txt", content: "one\n" } }] },
        { text: "Not written." },
        { tool_calls: [{ name: "Write", input: { file_path: "w.txt", content: "two\n" } }] },
        { text: "Written." },
      ],
    }),
    check(report, { workspace }) {
      // No approver in the default mode: the first Write is refused; after acceptEdits it goes through.
      const [refused, written] = toolResults(report);
      expect(refused).toMatchObject({ is_error: true });
      expect(written).toMatchObject({ is_error: false });
      expect(readFileSync(join(workspace.cwd, "w.txt"), "utf8")).toBe("two\n");
      expectSuccesses(report, ["Not written.", "Written."]);
      expect(results(report).map((result) => result.permission_denials)).toEqual([["Write"], []]);
    },
  },
  {
    name: "set-model",
    prepare: async () => textOnly("one", "two", "three"),
    check(report, { provider, requests }) {
      expectSuccesses(report, ["one", "two", "three"]);
      // set_model(alias), then set_model() with no argument: back to the model the session started with.
      expect(requests.map(requestModel)).toEqual([provider.modelId, provider.otherModel.id, provider.modelId]);
    },
  },
  {
    name: "max-turns",
    async prepare(workspace) {
      await writeFile(join(workspace.cwd, "hello.txt"), "x\n");
      return { turns: [{ text: "Reading.", tool_calls: [{ name: "Read", input: { file_path: "hello.txt" } }], repeat: true }] };
    },
    check(report) {
      expect(results(report)).toEqual([expect.objectContaining({ subtype: "error_max_turns", is_error: true })]);
      expect(report.raised).toMatch(/^ResultError: Claude Code returned an error result: /);
    },
  },
  {
    name: "provider-error",
    prepare: async () => ({
      turns: [{ error: { status: 401, type: "authentication_error", message: "invalid x-api-key" }, repeat: true }],
    }),
    check(report) {
      expect(report.messages.find((message) => message.type === "assistant")).toMatchObject({ error: "authentication_failed" });
      expect(results(report)).toEqual([expect.objectContaining({ is_error: true })]);
      expect(report.raised).toMatch(/^ResultError: Claude Code returned an error result: .*401/);
    },
  },
];
