import { notebookEditRows } from "./notebook-edit.js";
import { displayPath, type ToolInput } from "./tool-call.js";
import { clip, countLines, plural } from "./text.js";
import { linkLine, searchLinks, type SearchLink } from "./web-search.js";

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
 * - done: anything else that succeeded; `links` for a web search's results (one per line in `output`).
 */
export type ToolOutcome =
  | { kind: "error" | "exit"; failed: true; summary: string; output: string }
  | { kind: "created" | "updated"; failed: false; summary: string; diff: DiffRow[] }
  | { kind: "done"; failed: false; summary: string; output: string; links?: SearchLink[] };

/** A tool_result block's content as text (a string, or text and image blocks). */
export function resultText(content: unknown): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content
    .map((block: { type?: string; text?: string; tool_name?: string } | null) =>
      block?.type === "text"
        ? (block.text ?? "")
        : block?.type === "tool_reference"
          ? `[loaded ${block.tool_name}]`
          : `[${block?.type ?? "?"}]`,
    )
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
  if (toolName === "NotebookEdit") return describeNotebookEdit(input, details, cwd);
  const links = searchLinks(details);
  if (links) return { kind: "done", failed: false, summary: plural(links.length, "result"), output: links.map(linkLine).join("\n"), links };
  const patch = patchDetails(details);
  if (patch) return describePatch(patch, input, cwd);
  if ((toolName === "Edit" || toolName === "MultiEdit") && details === undefined) return describeEditInput(input, cwd);
  const report = agentReport(details);
  if (report) return { kind: "done", failed: false, summary: report.summary, output: report.text };
  const output = bash ? [bash.stdout, bash.stderr].filter((part) => part !== "").join("\n") : text;
  return { kind: "done", failed: false, summary: summarize(toolName, text, bash, details, summaryWidth), output };
}

/** An Agent call's hand-back (its `tool_use_result`): the subagent's report, and how much work it took. */
function agentReport(details: unknown): { summary: string; text: string } | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const { status, content, totalToolUseCount, totalTokens } = details as Record<string, unknown>;
  if (status !== "completed" || !Array.isArray(content) || typeof totalToolUseCount !== "number") return undefined;
  const tokens = typeof totalTokens === "number" ? `, ${plural(totalTokens, "token")}` : "";
  return { summary: `subagent reported after ${plural(totalToolUseCount, "tool call")}${tokens}`, text: resultText(content) };
}

function summarize(toolName: string | undefined, text: string, bash: BashDetails | undefined, details: unknown, width: number): string {
  // A background command's call returns before any output: say where it went.
  if (bash?.backgroundTaskId !== undefined) return `running in the background as ${bash.backgroundTaskId}`;
  if (toolName === "TaskStop" && isObject(details) && typeof details.task_id === "string") return `stopped ${details.task_id}`;
  // A background agent's call returns at launch: its report comes later, as a task notification.
  if (isObject(details) && details.status === "async_launched" && typeof details.agentId === "string")
    return `agent running in the background as ${details.agentId}`;
  if (bash) {
    const output = [bash.stdout, bash.stderr].filter((part) => part !== "").join("\n");
    const exit = bash.exitCode !== undefined && bash.exitCode !== 0 ? `exit ${bash.exitCode}, ` : "";
    return output === "" ? `${exit}no output` : `${exit}${plural(countLines(output), "line")} of output`;
  }
  const search = toolSearchDetails(details);
  if (search) return search.matches.length === 0 ? "no tool matched" : clip(`loaded ${search.matches.join(", ")}`, width);
  const fetched = fetchDetails(details);
  if (fetched) {
    const status = `${fetched.code} ${fetched.codeText}`.trim();
    return fetched.code >= 300 && fetched.code < 400 ? `redirected (${status})` : `fetched ${formatBytes(fetched.bytes)} (${status})`;
  }
  const read = readDetails(details);
  if (read?.cells !== undefined) return `read ${plural(read.cells, "cell")}`;
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

/** A notebook edit as a cell diff: "updated cell abc in demo.ipynb", the old source removed, the new added. */
function describeNotebookEdit(input: ToolInput | undefined, details: unknown, cwd: string | undefined): ToolOutcome {
  const { verb, cellId, rows } = notebookEditRows(input, details);
  const path = displayPath(String(input?.notebook_path ?? ""), cwd);
  return { kind: "updated", failed: false, summary: `${verb} cell ${cellId} in ${path}`, diff: rows };
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
  /** Set when the command was started in the background (`run_in_background`). */
  backgroundTaskId?: string;
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
  if (!optional(details.exitCode, "number") || !optional(details.interrupted, "boolean") || !optional(details.backgroundTaskId, "string"))
    return undefined;
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

/** WebFetch's details: the page's size in bytes and the HTTP status. */
function fetchDetails(details: unknown): { bytes: number; code: number; codeText: string } | undefined {
  if (!isObject(details) || typeof details.url !== "string" || typeof details.bytes !== "number" || typeof details.code !== "number")
    return undefined;
  return { bytes: details.bytes, code: details.code, codeText: typeof details.codeText === "string" ? details.codeText : "" };
}

/** A size as people read it: bytes, KB or MB (powers of 1024, one decimal). */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return plural(bytes, "byte");
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / (1024 * 1024), "MB"];
  return `${value.toFixed(1)} ${unit}`;
}

/** ToolSearch's details: the tools it loaded. */
function toolSearchDetails(details: unknown): { matches: string[] } | undefined {
  if (!isObject(details) || !Array.isArray(details.matches) || typeof details.total_deferred_tools !== "number") return undefined;
  return { matches: details.matches.filter((name): name is string => typeof name === "string") };
}

/** Read's details: the kind of file, and its line count for text (its cell count for a notebook). */
function readDetails(details: unknown): { type: string; numLines?: number; cells?: number } | undefined {
  if (!isObject(details) || typeof details.type !== "string" || !isObject(details.file)) return undefined;
  const { numLines, totalLines, filePath, cells } = details.file;
  if (!optional(numLines, "number") || !optional(totalLines, "number") || !optional(filePath, "string")) return undefined;
  return { type: details.type, numLines: numLines as number | undefined, cells: Array.isArray(cells) ? cells.length : undefined };
}

/** A command or agent started with run_in_background: its id, when its details give one (Bash's `backgroundTaskId`, an agent's `agentId`). */
function backgroundSummary(details: unknown): string {
  if (isObject(details) && details.status === "async_launched" && typeof details.agentId === "string")
    return `agent running in the background as ${details.agentId}`;
  const id = isObject(details) && typeof details.backgroundTaskId === "string" ? details.backgroundTaskId : undefined;
  return id === undefined ? "running in the background" : `running in the background as ${id}`;
}
