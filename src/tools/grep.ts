import { stat } from "node:fs/promises";
import * as z from "zod/mini";
import "../validation/english-issues.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolDefinition } from "./define-tool.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { displayPath, resolveWorkspacePath } from "./paths.js";
import { findRipgrep, searchWithRipgrep } from "./search/ripgrep-search.js";
import type { FileMatches, TextSearchRequest } from "./search/text-search.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";

const description = `Searches file contents with a regular expression, fast on large trees (uses ripgrep when it is installed). Prefer it over running grep or rg through Bash.

- \`pattern\` is a regular expression ("log.*Error", "function\\s+\\w+"); escape literal braces and parentheses. \`-i\` ignores case; \`multiline: true\` lets \`.\` match newlines so a match can span lines.
- \`path\` is a file or folder (default: the working directory). Narrow with \`glob\` ("*.ts", "src/**/*.{ts,tsx}"; no slash means any depth) or \`type\` ("ts", "py", "rust", …).
- \`output_mode\`: "files_with_matches" (default) lists matching files, newest first; "content" shows matching lines as path:line:text (context lines with -A, -B, -C, as path-line-text); "count" shows matching lines per file.
- \`head_limit\` caps the entries shown (default 250, 0 = no cap) and \`offset\` skips entries first, to page through long results.
- Files ignored by git and binary files are skipped; hidden files are searched.`;

const DEFAULT_HEAD_LIMIT = 250;
/** Longer lines (minified code, data) are cut: they cost context and are rarely read whole. */
const MAX_LINE_CHARACTERS = 500;
/** A hard cap on one result even with head_limit 0. */
const MAX_OUTPUT_CHARACTERS = 100_000;

/** A whole number of lines or entries, 0 or more: a schema of its own for each field that takes one. */
const count = () => z.int().check(z.minimum(0));

const inputSchema = lazySchema(() =>
  z.strictObject({
    pattern: z.string().check(z.minLength(1), z.describe("Regular expression to look for in the files' text")),
    path: z.optional(z.string()).check(z.describe("File or folder to search; the working directory when left out")),
    glob: z
      .optional(z.string())
      .check(z.describe('Only files whose path matches this glob, e.g. "*.py" or "src/**/*.{ts,tsx}" (rg --glob)')),
    output_mode: z
      .optional(z.enum(["content", "files_with_matches", "count"]))
      .check(
        z.describe(
          'What comes back: "files_with_matches" (the default) the paths of matching files; "content" the matching lines themselves, where -A, -B, -C and -n apply; "count" how many lines match in each file. head_limit applies to all three.',
        ),
      ),
    "-B": z.optional(count()).check(z.describe('Lines of context shown above each match (rg -B); only with output_mode "content"')),
    "-A": z.optional(count()).check(z.describe('Lines of context shown below each match (rg -A); only with output_mode "content"')),
    "-C": z.optional(count()).check(z.describe("Same as context")),
    context: z
      .optional(count())
      .check(z.describe('Lines of context shown on both sides of each match (rg -C); only with output_mode "content"')),
    "-n": z
      .optional(z.boolean())
      .check(z.describe('Put each line\'s number before it (rg -n; on unless set to false); only with output_mode "content"')),
    "-i": z.optional(z.boolean()).check(z.describe("Match regardless of upper or lower case (rg -i)")),
    "-o": z
      .optional(z.boolean())
      .check(
        z.describe(
          'Show just the text each match covers, one match per line, instead of whole lines (off unless true); only with output_mode "content"',
        ),
      ),
    type: z
      .optional(z.string())
      .check(z.describe('Only files of this ripgrep type, e.g. "ts", "py", "go" (rg --type); quicker than a glob for the usual languages')),
    head_limit: z
      .optional(count())
      .check(
        z.describe(
          "Show at most this many entries (lines, paths or counts): 250 when left out, 0 for all of them, which can be a great deal",
        ),
      ),
    offset: z
      .optional(count())
      .check(z.describe("Entries to pass over before the ones shown, for the next page of a long result (default 0)")),
    multiline: z
      .optional(z.boolean())
      .check(z.describe("Let a match run over several lines, with . matching newlines too (rg -U --multiline-dotall; off unless true)")),
  }),
);

type GrepInput = z.infer<ReturnType<typeof inputSchema>>;

export interface GrepToolOptions {
  /** "auto": ripgrep when installed, else the built-in search; "builtin": never ripgrep (tests, benchmarks). */
  backend: "auto" | "builtin";
}

/** Builds the Grep tool; the registry's instance uses `{ backend: "auto" }`. */
export function createGrepTool(options: GrepToolOptions): ToolDefinition<ReturnType<typeof inputSchema>> {
  return defineTool({
    name: "Grep",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.Grep,
    async execute(input, context): Promise<ToolResult> {
      const resolved = await resolveWorkspacePath(context, input.path ?? context.cwd);
      if (resolved.refusal) return resolved.refusal;
      const target = resolved.path;
      let targetIsFile: boolean;
      try {
        targetIsFile = (await stat(target)).isFile();
      } catch {
        return toolError("file_not_found", `Path does not exist: ${target}. Note: your current working directory is ${context.cwd}.`);
      }
      const mode = input.output_mode ?? "files_with_matches";
      const contextLines = input.context ?? input["-C"] ?? 0;
      const request: TextSearchRequest = {
        target,
        targetIsFile,
        pattern: input.pattern,
        caseInsensitive: input["-i"] ?? false,
        multiline: input.multiline ?? false,
        glob: input.glob,
        fileType: input.type,
        mode,
        contextBefore: mode === "content" ? (input["-B"] ?? contextLines) : 0,
        contextAfter: mode === "content" ? (input["-A"] ?? contextLines) : 0,
        onlyMatching: mode === "content" && (input["-o"] ?? false),
        signal: context.signal,
      };
      const ripgrep = options.backend === "auto" ? await findRipgrep() : undefined;
      // The built-in search (its walker, worker pool and glob matcher: ~60 KB) loads only where
      // there is no ripgrep, and only when the model searches.
      const outcome =
        ripgrep === undefined
          ? await (await import("./search/builtin-search.js")).searchWithBuiltin(request)
          : await searchWithRipgrep(ripgrep, request);
      context.signal.throwIfAborted();
      if (!outcome.ok) return toolError(outcome.code, outcome.message);
      const note = outcome.stoppedEarly
        ? "\n(The search stopped early after collecting too many lines; narrow the pattern, path or glob to see everything.)"
        : "";
      switch (mode) {
        case "files_with_matches":
          return filesResult(await newestFirst(outcome.files), input, context.cwd, note);
        case "count":
          return countResult(byPath(outcome.files), input, context.cwd, note);
        case "content":
          return contentResult(byPath(outcome.files), input, context.cwd, note);
      }
    },
  });
}

/** Claude Code lists matching files most recently modified first. */
async function newestFirst(files: FileMatches[]): Promise<FileMatches[]> {
  const withTimes = await Promise.all(
    files.map(async (file) => ({
      file,
      mtimeMs: await stat(file.absolutePath).then(
        (stats) => stats.mtimeMs,
        () => 0,
      ),
    })),
  );
  withTimes.sort((left, right) => right.mtimeMs - left.mtimeMs || left.file.absolutePath.localeCompare(right.file.absolutePath));
  return withTimes.map(({ file }) => file);
}

function byPath(files: FileMatches[]): FileMatches[] {
  return [...files].sort((left, right) => left.absolutePath.localeCompare(right.absolutePath));
}

interface Page<T> {
  shown: T[];
  limited: boolean;
  headLimit: number;
  offset: number;
}

function page<T>(entries: T[], input: GrepInput): Page<T> {
  const offset = input.offset ?? 0;
  const headLimit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
  const rest = entries.slice(offset);
  const shown = headLimit === 0 ? rest : rest.slice(0, headLimit);
  return { shown, limited: shown.length < rest.length, headLimit, offset };
}

function pageNote(shownPage: Page<unknown>, total: number, unit: string): string {
  if (!shownPage.limited) return "";
  const next = shownPage.offset + shownPage.shown.length;
  return `\n\n(Showing ${unit} ${shownPage.offset + 1}-${next} of ${total}. Use offset=${next} to see more.)`;
}

function pageDetails(shownPage: Page<unknown>): Record<string, number> {
  return {
    ...(shownPage.limited ? { appliedLimit: shownPage.headLimit } : {}),
    ...(shownPage.offset > 0 ? { appliedOffset: shownPage.offset } : {}),
  };
}

function filesResult(files: FileMatches[], input: GrepInput, cwd: string, note: string): ToolResult {
  const filenames = files.map((file) => displayPath(cwd, file.absolutePath));
  const shownPage = page(filenames, input);
  const content =
    filenames.length === 0
      ? `No files found${note}`
      : `Found ${filenames.length} file${filenames.length === 1 ? "" : "s"}\n${capOutput(shownPage.shown.join("\n"))}${pageNote(shownPage, filenames.length, "files")}${note}`;
  return {
    content,
    isError: false,
    details: { mode: "files_with_matches", numFiles: shownPage.shown.length, filenames: shownPage.shown, ...pageDetails(shownPage) },
  };
}

function countResult(files: FileMatches[], input: GrepInput, cwd: string, note: string): ToolResult {
  const entries = files.map((file) => `${displayPath(cwd, file.absolutePath)}:${file.matchingLines}`);
  const shownPage = page(entries, input);
  const numMatches = files.reduce((sum, file) => sum + file.matchingLines, 0);
  const body = capOutput(shownPage.shown.join("\n"));
  const summary = `Found ${numMatches} matching line${numMatches === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"}.`;
  return {
    content:
      files.length === 0 ? `No matches found${note}` : `${body}\n\n${summary}${pageNote(shownPage, entries.length, "entries")}${note}`,
    isError: false,
    details: {
      mode: "count",
      numFiles: files.length,
      filenames: files.map((file) => displayPath(cwd, file.absolutePath)),
      content: body,
      numMatches,
      ...pageDetails(shownPage),
    },
  };
}

/**
 * ripgrep's layout: `path:line:text` for matches, `path-line-text` for context lines, and `--`
 * between groups of lines that are not adjacent when context is requested.
 */
function contentResult(files: FileMatches[], input: GrepInput, cwd: string, note: string): ToolResult {
  const showLineNumbers = input["-n"] ?? true;
  const usesContext = files.some((file) => file.lines.some((line) => !line.isMatch));
  const outputLines: string[] = [];
  for (const file of files) {
    const shownPath = displayPath(cwd, file.absolutePath);
    let previousLine: number | undefined;
    for (const line of file.lines) {
      const adjacent = previousLine !== undefined && line.lineNumber <= previousLine + 1;
      if (usesContext && outputLines.length > 0 && !adjacent) outputLines.push("--");
      const separator = line.isMatch ? ":" : "-";
      const text = line.text.length > MAX_LINE_CHARACTERS ? `${line.text.slice(0, MAX_LINE_CHARACTERS)}… [line truncated]` : line.text;
      outputLines.push(
        showLineNumbers ? `${shownPath}${separator}${line.lineNumber}${separator}${text}` : `${shownPath}${separator}${text}`,
      );
      previousLine = line.lineNumber;
    }
  }
  const shownPage = page(outputLines, input);
  const body = capOutput(shownPage.shown.join("\n"));
  const shownFiles = files.map((file) => displayPath(cwd, file.absolutePath));
  return {
    content: outputLines.length === 0 ? `No matches found${note}` : `${body}${pageNote(shownPage, outputLines.length, "lines")}${note}`,
    isError: false,
    details: {
      mode: "content",
      numFiles: files.length,
      filenames: shownFiles,
      content: body,
      numLines: shownPage.shown.length,
      totalLines: outputLines.length,
      ...pageDetails(shownPage),
    },
  };
}

function capOutput(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARACTERS) return text;
  const cut = text.lastIndexOf("\n", MAX_OUTPUT_CHARACTERS);
  return `${text.slice(0, cut > 0 ? cut : MAX_OUTPUT_CHARACTERS)}\n(Output cut at ${MAX_OUTPUT_CHARACTERS} characters; use head_limit and offset, or a narrower pattern.)`;
}
