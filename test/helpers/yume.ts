import { join } from "node:path";
import * as z from "zod";
import type { scenarioSchema } from "../../src/mock-server/scenario.js";

/**
 * What Yume (the desktop GUI, aofp/yume) asks of the `claude` it spawns, shared by the replay test
 * (test/e2e/yume.test.ts, from fixtures/yume/) and the live one (test/e2e/yume-live.test.ts).
 */

/** Yume's two Claude choices: its default, and the "sonnet" one (also the title generator's model). */
export const YUME_MODELS = { default: "claude-opus-4-5-20251101", sonnet: "claude-sonnet-4-5-20250929" } as const;
export type YumeModelChoice = keyof typeof YUME_MODELS;

/** What the replay server answers Yume's title generator. */
export const TITLE = "simple arithmetic";

/** The scripted model turns of a step (a subset of the replay scenario's fields). */
type Turns = Array<{ text?: string; tool_calls?: Array<{ name: string; input: Record<string, unknown> }> }> &
  z.input<typeof scenarioSchema>["turns"];

/**
 * The steps of a working day in Yume, each one message typed in the UI and the model's scripted
 * answer; `project` is the folder the session works in.
 */
export const YUME_STEPS = {
  text: { message: "what is 2 + 2?", turns: (): Turns => [{ text: "2 + 2 = 4" }] },
  read: {
    message: "what does notes.txt say?",
    turns: (project: string): Turns => [
      { tool_calls: [{ name: "Read", input: { file_path: join(project, "notes.txt") } }] },
      { text: "it says ship on friday" },
    ],
  },
  write: {
    message: "write a todo list",
    turns: (project: string): Turns => [
      { tool_calls: [{ name: "Write", input: { file_path: join(project, "todo.md"), content: "- release\n" } }] },
      { text: "wrote it" },
    ],
  },
  bash: {
    message: "list the files",
    turns: (): Turns => [
      { tool_calls: [{ name: "Bash", input: { command: "ls", description: "List the files" } }] },
      { text: "two files" },
    ],
  },
  followUp: { message: "what did i ask first?", turns: (): Turns => [{ text: "you asked what 2 + 2 is" }] },
  reopened: { message: "are you still there?", turns: (): Turns => [{ text: "still here" }] },
  // A command that runs until the interrupt (Claude Code's Bash refuses a plain `sleep 30`).
  interrupted: {
    message: "wait half a minute",
    turns: (): Turns => [
      { tool_calls: [{ name: "Bash", input: { command: 'node -e "setTimeout(() => {}, 30000)"', description: "Wait" } }] },
      { text: "unreachable" },
    ],
  },
  afterInterrupt: { message: "never mind", turns: (): Turns => [{ text: "stopped waiting" }] },
  // Yume's compact button (and its auto-compact) sends this as the message, always with its sonnet model.
  compact: { message: "/compact", turns: (): Turns => [{ text: "The user asked what 2 + 2 is, read notes.txt and wrote todo.md." }] },
} as const;
export type YumeStep = keyof typeof YUME_STEPS;

/** The file the project starts with (read by the `read` step, listed by `bash`). */
export const PROJECT_FILES = { "notes.txt": "ship on friday\n" } as const;

/** One process Yume starts: the command line, where, what it adds to the environment, what it writes to stdin. */
export interface YumeInvocation {
  argv: string[];
  cwd: string;
  /** Variables Yume sets or changes on top of its own environment. */
  env: Record<string, string>;
  stdin: string;
}

/** A recorded invocation in fixtures/yume/: which step started it, and whether it runs a turn or makes a title. */
export const recordedInvocationSchema = z.strictObject({
  step: z.enum(Object.keys(YUME_STEPS) as [YumeStep, ...YumeStep[]]),
  kind: z.enum(["turn", "title"]),
  argv: z.array(z.string()),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  stdin: z.string(),
});
export type RecordedInvocation = z.infer<typeof recordedInvocationSchema>;

/** The UI's turn ends with this event: the process exited and the "thinking" state is cleared. */
export function isStreamEnd(payload: Record<string, unknown>): boolean {
  return payload.type === "system" && payload.subtype === "stream_end";
}

/** Yume's title generator's prompt starts with the user's message in this form. */
export function isTitleInvocation(invocation: YumeInvocation): boolean {
  return invocation.argv.includes("json") && invocation.argv[0] === "-p";
}

/** The step whose message started `invocation` (the turn's stdin, or the title prompt quoting it). */
export function stepOf(invocation: YumeInvocation): YumeStep | undefined {
  const text = isTitleInvocation(invocation) ? invocation.argv[1]! : invocation.stdin;
  return (Object.keys(YUME_STEPS) as YumeStep[]).find((step) =>
    isTitleInvocation(invocation)
      ? text.startsWith(`user message: "${YUME_STEPS[step].message}"`)
      : text === `${YUME_STEPS[step].message}\n`,
  );
}

/**
 * How Yume turns the title generator's output into a title (generateTitle in its backend): the
 * last stdout line's `result`, lowercased, without punctuation, at most 30 characters, kept only
 * when longer than 2.
 */
export function yumeTitle(stdout: string): string | undefined {
  const last = stdout.trim().split("\n").at(-1) ?? "";
  let parsed: { completion?: unknown; result?: unknown };
  try {
    parsed = JSON.parse(last) as typeof parsed;
  } catch {
    return undefined;
  }
  const text = parsed.completion ?? parsed.result;
  if (typeof text !== "string" || text === "") return undefined;
  const title = text
    .toLowerCase()
    .replace(/[^\w\s]/g, "")
    .trim()
    .slice(0, 30);
  return title.length > 2 ? title : undefined;
}
