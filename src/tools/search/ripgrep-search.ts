import { childEnvironment } from "../../process/child-environment.js";
import { access, constants } from "node:fs/promises";
import path from "node:path";
import { MAX_COLLECTED_LINES } from "./text-search.js";
import type { FileMatches, SearchedLine, TextSearchOutcome, TextSearchRequest } from "./text-search.js";

let ripgrepLookup: Promise<string | undefined> | undefined;

/**
 * The `rg` executable on PATH, looked up once per process (a PATH scan, no spawn). Undefined
 * when ripgrep is not installed; Grep then uses its built-in search.
 */
export function findRipgrep(): Promise<string | undefined> {
  ripgrepLookup ??= (async () => {
    for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
      if (folder === "") continue;
      const candidate = path.join(folder, process.platform === "win32" ? "rg.exe" : "rg");
      try {
        await access(candidate, constants.X_OK);
        return candidate;
      } catch {
        // Not in this folder.
      }
    }
    return undefined;
  })();
  return ripgrepLookup;
}

/** ripgrep's JSON lines (`rg --json`), the parts used here. */
interface RipgrepText {
  text?: string;
  bytes?: string;
}
interface RipgrepEvent {
  type: "begin" | "match" | "context" | "end" | "summary";
  data: {
    path?: RipgrepText;
    lines?: RipgrepText;
    line_number?: number | null;
    submatches?: Array<{ match: RipgrepText; start: number; end: number }>;
  };
}

/**
 * Runs ripgrep for Grep. ripgrep walks in parallel, honours .gitignore (and .ignore) files and
 * skips binary files; `--hidden` plus `!.git` matches the built-in backend's view of hidden
 * files, and `--no-config` keeps a user's RIPGREP_CONFIG_PATH from changing the output format.
 *
 * Contract: never throws; a bad pattern or unknown type is an `invalid_input` failure with
 * ripgrep's own explanation. Stops ripgrep once MAX_COLLECTED_LINES content lines are kept.
 */
export async function searchWithRipgrep(
  ripgrepPath: string,
  request: TextSearchRequest,
  engine: "default" | "pcre2" = "default",
): Promise<TextSearchOutcome> {
  const args = ["--no-config", "--hidden", "--glob", "!.git", "--no-messages"];
  if (engine === "pcre2") args.push("--pcre2");
  if (request.caseInsensitive) args.push("--ignore-case");
  if (request.multiline) args.push("--multiline", "--multiline-dotall");
  if (request.glob !== undefined) args.push("--glob", request.glob);
  if (request.fileType !== undefined) args.push("--type", request.fileType);
  switch (request.mode) {
    case "files_with_matches":
      args.push("--files-with-matches", "--null");
      break;
    case "count":
      args.push("--count", "--with-filename", "--null");
      break;
    case "content":
      args.push("--json", "--before-context", String(request.contextBefore), "--after-context", String(request.contextAfter));
      break;
  }
  // ripgrep matches a --glob that has a slash (`src/*.ts`) against the path as it prints it, so a
  // folder is searched from inside, as ".", and the printed paths are joined back onto it.
  const inFolder = !request.targetIsFile;
  args.push("--regexp", request.pattern, "--", inFolder ? "." : request.target);
  const absolute = (printed: string): string => (inFolder ? path.join(request.target, printed) : printed);

  const files = new Map<string, FileMatches>();
  let collectedLines = 0;
  let stoppedEarly = false;
  const fileFor = (printedPath: string): FileMatches => {
    const absolutePath = absolute(printedPath);
    let file = files.get(absolutePath);
    if (file === undefined) {
      file = { absolutePath, matchingLines: 0, lines: [] };
      files.set(absolutePath, file);
    }
    return file;
  };
  const onLine = (line: string): boolean => {
    if (request.mode === "files_with_matches") {
      fileFor(line);
      return true;
    }
    if (request.mode === "count") {
      const separator = line.lastIndexOf("\0");
      fileFor(line.slice(0, separator)).matchingLines = Number(line.slice(separator + 1));
      return true;
    }
    const event = JSON.parse(line) as RipgrepEvent;
    if ((event.type !== "match" && event.type !== "context") || event.data.path?.text === undefined) return true;
    const file = fileFor(event.data.path.text);
    const lines = linesOfEvent(event, request.onlyMatching);
    if (event.type === "match") file.matchingLines += 1;
    file.lines.push(...lines);
    collectedLines += lines.length;
    if (collectedLines < MAX_COLLECTED_LINES) return true;
    stoppedEarly = true;
    return false;
  };

  // With --null, --files-with-matches ends each path with NUL instead of a newline.
  const separator = request.mode === "files_with_matches" ? "\0" : "\n";
  const run = await runLines(ripgrepPath, args, inFolder ? request.target : undefined, separator, request.signal, onLine);
  if (run.exitCode === 2 && files.size === 0) {
    const explanation = run.stderr.trim();
    // ripgrep's default engine has no look-around or backreferences and says to use --pcre2,
    // whose engine has them (as the built-in backend's JavaScript regexes do): once more with it.
    if (engine === "default" && /--pcre2/.test(explanation)) return searchWithRipgrep(ripgrepPath, request, "pcre2");
    const badInput = /regex|unrecognized file type|glob/i.test(explanation);
    return {
      ok: false,
      code: badInput ? "invalid_input" : "io_error",
      message: badInput ? `ripgrep rejected the search: ${explanation}` : `ripgrep failed: ${explanation || `exit code ${run.exitCode}`}`,
    };
  }
  if (run.startError !== undefined) return { ok: false, code: "io_error", message: `Could not run ripgrep: ${run.startError.message}` };
  return { ok: true, files: [...files.values()], stoppedEarly };
}

function linesOfEvent(event: RipgrepEvent, onlyMatching: boolean): SearchedLine[] {
  const isMatch = event.type === "match";
  const firstLine = event.data.line_number ?? 0;
  const text = (event.data.lines?.text ?? "").replace(/\r?\n$/, "");
  if (isMatch && onlyMatching) {
    return (event.data.submatches ?? []).map((submatch) => ({
      lineNumber: firstLine + countNewlines(text.slice(0, submatch.start)),
      text: submatch.match.text ?? "",
      isMatch,
    }));
  }
  // A multiline match carries all the lines it spans in one event.
  return text.split("\n").map((lineText, index) => ({ lineNumber: firstLine + index, text: lineText.replace(/\r$/, ""), isMatch }));
}

function countNewlines(text: string): number {
  return text.split("\n").length - 1;
}

interface LinesRun {
  exitCode: number | null;
  stderr: string;
  startError?: Error;
}

/** Spawns a process and feeds each stdout record to `onLine` until it returns false (then kills it). */
function runLines(
  command: string,
  args: string[],
  cwd: string | undefined,
  separator: string,
  signal: AbortSignal,
  onLine: (line: string) => boolean,
): Promise<LinesRun> {
  return new Promise((resolve) => {
    // Loaded at the first start, not with this module: a run that starts no child skips its ~0.7 ms of CPU.
    const { spawn } = process.getBuiltinModule("node:child_process");
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], signal, env: childEnvironment(process.env) });
    let pending = "";
    let stderr = "";
    let stopped = false;
    let startError: Error | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stopped) return;
      const lines = (pending + chunk).split(separator);
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line !== "" && !onLine(line)) {
          stopped = true;
          child.kill("SIGKILL");
          return;
        }
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      // The first few KB explain any failure; the rest is noise.
      if (stderr.length < 8192) stderr += chunk;
    });
    child.on("error", (error) => {
      startError = error;
    });
    child.on("close", (exitCode) => {
      if (!stopped && pending !== "") onLine(pending);
      resolve({ exitCode: stopped ? 0 : exitCode, stderr, ...(startError && !signal.aborted ? { startError } : {}) });
    });
  });
}
