import { displayPath, type ToolInput } from "./tool-call.js";
import { clip, countLines, plural } from "./text.js";

/** One row of a change: a hunk header, or an added, removed or unchanged line (with its +/-/space). */
export interface DiffRow {
  kind: "hunk" | "add" | "del" | "context";
  text: string;
}

/**
 * What a tool's result says, for any view: `summary` is one line; `output` the full text (a
 * failure's message, a command's output); `diff` the rows of a file change.
 * - error: the tool failed before or without running a command (its message);
 * - exit: a command ran and failed (exit code, its output);
 * - created / updated: a file written or edited;
 * - done: anything else that succeeded.
 */
export type ToolOutcome =
  | { kind: "error" | "exit"; failed: true; summary: string; output: string }
  | { kind: "created" | "updated"; failed: false; summary: string; diff: DiffRow[] }
  | { kind: "done"; failed: false; summary: string; output: string };

/** A tool_result block's content as text (a string, or text and image blocks). */
export function resultText(content: unknown): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content
    .map((block: { type?: string; text?: string } | null) => (block?.type === "text" ? (block.text ?? "") : `[${block?.type ?? "?"}]`))
    .join("\n");
}

/**
 * A tool result: its block (content, is_error) and the event's `tool_use_result` details (Claude
 * Code's structured result: a command's stdout and exit code, a file's structured patch, a read's
 * line count). `summaryWidth` bounds a one-line text result shown as the summary.
 */
export function describeResult(
  toolName: string | undefined,
  input: ToolInput | undefined,
  block: { content?: unknown; is_error?: boolean },
  details: unknown,
  cwd: string | undefined,
  summaryWidth: number,
): ToolOutcome {
  const text = resultText(block.content);
  const bash = bashDetails(details);
  if (block.is_error) {
    if (bash?.exitCode !== undefined) {
      const output = [bash.stdout, bash.stderr]
        .filter((part) => part.trim() !== "")
        .join("\n")
        .replace(/\n+$/, "");
      return { kind: "exit", failed: true, summary: `exit ${bash.exitCode}${bash.interrupted ? " (interrupted)" : ""}`, output };
    }
    const message = text.replace(/<\/?tool_use_error>/g, "").trim();
    return { kind: "error", failed: true, summary: message.split("\n")[0] || "failed", output: message };
  }
  // A background command has no output yet: what matters is that it runs, and under which id.
  if (input?.run_in_background === true) return { kind: "done", failed: false, summary: backgroundSummary(details), output: text };
  const patch = patchDetails(details);
  if (patch) return describePatch(patch, input, cwd);
  if ((toolName === "Edit" || toolName === "MultiEdit") && details === undefined) return describeEditInput(input, cwd);
  const output = bash ? [bash.stdout, bash.stderr].filter((part) => part !== "").join("\n") : text;
  return { kind: "done", failed: false, summary: summarize(toolName, text, bash, details, summaryWidth), output };
}

function summarize(toolName: string | undefined, text: string, bash: BashDetails | undefined, details: unknown, width: number): string {
  if (bash) {
    const output = [bash.stdout, bash.stderr].filter((part) => part !== "").join("\n");
    const exit = bash.exitCode !== undefined && bash.exitCode !== 0 ? `exit ${bash.exitCode}, ` : "";
    return output === "" ? `${exit}no output` : `${exit}${plural(countLines(output), "line")} of output`;
  }
  const read = readDetails(details);
  if (read) return read.type === "image" ? "read an image" : `read ${plural(read.numLines ?? countLines(text), "line")}`;
  if (text === "") return "done";
  if (toolName === "Read") return `read ${plural(countLines(text), "line")}`;
  const lines = countLines(text);
  return lines === 1 ? clip(text, width) : plural(lines, "line");
}

function describePatch(patch: PatchDetails, input: ToolInput | undefined, cwd: string | undefined): ToolOutcome {
  const path = displayPath(patch.filePath ?? String(input?.file_path ?? ""), cwd);
  if (patch.structuredPatch.length === 0 && patch.content !== undefined) {
    const lines = patch.content.replace(/\n$/, "").split("\n");
    return {
      kind: "created",
      failed: false,
      summary: `created ${path} (${plural(lines.length, "line")})`,
      diff: lines.map((line) => ({ kind: "add", text: `+${line}` })),
    };
  }
  const diff = diffRows(patch.structuredPatch);
  const added = diff.filter((row) => row.kind === "add").length;
  const removed = diff.filter((row) => row.kind === "del").length;
  return { kind: "updated", failed: false, summary: `updated ${path}: +${added} -${removed}`, diff };
}

/** Structured-patch hunks as rows: a header per hunk, then its added, removed and context lines. */
export function diffRows(hunks: readonly Hunk[]): DiffRow[] {
  return hunks.flatMap((hunk) => [
    { kind: "hunk" as const, text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` },
    ...hunk.lines.map((line) => ({
      kind: line.startsWith("+") ? ("add" as const) : line.startsWith("-") ? ("del" as const) : ("context" as const),
      text: line,
    })),
  ]);
}

/** A stored session keeps no structured patch: the edit's own old and new text. */
function describeEditInput(input: ToolInput | undefined, cwd: string | undefined): ToolOutcome {
  const edits = Array.isArray(input?.edits) ? (input.edits as Array<Record<string, unknown>>) : [input ?? {}];
  const diff = edits.flatMap((edit): DiffRow[] => [
    ...String(edit.old_string ?? "")
      .split("\n")
      .map((line) => ({ kind: "del" as const, text: `-${line}` })),
    ...String(edit.new_string ?? "")
      .split("\n")
      .map((line) => ({ kind: "add" as const, text: `+${line}` })),
  ]);
  return { kind: "updated", failed: false, summary: `updated ${displayPath(String(input?.file_path ?? ""), cwd)}`, diff };
}

// The details are checked by hand, not with zod: this module is bundled into the page, which
// should not carry a validation library for three shapes. Each check reads only what is used.

interface BashDetails {
  stdout: string;
  stderr: string;
  exitCode?: number;
  interrupted?: boolean;
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

interface PatchDetails {
  filePath?: string;
  content?: string;
  structuredPatch: Hunk[];
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === "object" && value !== null && !Array.isArray(value);
const optional = (value: unknown, type: "string" | "number" | "boolean"): boolean => value === undefined || typeof value === type;

/** Bash's details: both streams, and an exit code once the command ran. */
function bashDetails(details: unknown): BashDetails | undefined {
  if (!isObject(details) || typeof details.stdout !== "string" || typeof details.stderr !== "string") return undefined;
  if (!optional(details.exitCode, "number") || !optional(details.interrupted, "boolean")) return undefined;
  return details as unknown as BashDetails;
}

/** Edit, MultiEdit and Write details: Claude Code's structured patch (unified diff hunks). */
function patchDetails(details: unknown): PatchDetails | undefined {
  if (!isObject(details) || !Array.isArray(details.structuredPatch)) return undefined;
  if (!optional(details.filePath, "string") || !optional(details.content, "string") || !optional(details.type, "string")) return undefined;
  const isHunk = (hunk: unknown): boolean =>
    isObject(hunk) &&
    ["oldStart", "oldLines", "newStart", "newLines"].every((key) => typeof hunk[key] === "number") &&
    Array.isArray(hunk.lines) &&
    hunk.lines.every((line) => typeof line === "string");
  return details.structuredPatch.every(isHunk) ? (details as unknown as PatchDetails) : undefined;
}

/** Read's details: the kind of file, and its line count for text. */
function readDetails(details: unknown): { type: string; numLines?: number } | undefined {
  if (!isObject(details) || typeof details.type !== "string" || !isObject(details.file)) return undefined;
  const { numLines, totalLines, filePath } = details.file;
  if (!optional(numLines, "number") || !optional(totalLines, "number") || !optional(filePath, "string")) return undefined;
  return { type: details.type, numLines: numLines as number | undefined };
}

/** A command started with run_in_background: its id, when its details give one (Bash's `backgroundTaskId`). */
function backgroundSummary(details: unknown): string {
  const id = isObject(details) && typeof details.backgroundTaskId === "string" ? details.backgroundTaskId : undefined;
  return id === undefined ? "running in the background" : `running in the background as ${id}`;
}
