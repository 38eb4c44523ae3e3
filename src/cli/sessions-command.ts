import { createReadStream, createWriteStream } from "node:fs";
import { resolve } from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yargs from "yargs";
import { strictParse } from "./strict-parse.js";
import { findSessionFile, listSessions, removeSessionFile, type SessionSummary } from "../sessions/session-catalog.js";
import { agentwireHome } from "../sessions/session-file.js";
import { exportSessionJson, importSession, SessionImportError } from "../sessions/session-transfer.js";
import { writeRendered } from "../render/render-stream.js";
import { outputWidth, wantsColor } from "../render/style.js";
import { noticeLine } from "./log-records.js";

const USAGE = `agentwire sessions <command>

Stored sessions ($AGENTWIRE_HOME/projects/<cwd-key>/<id>.jsonl): the same files --resume reads.

  list [--all]                          this directory's sessions (--all: every directory), newest first
  show ID                               the conversation as readable text, compactions included
  export ID [--format jsonl|json] [-o FILE]   the whole file (every message, also before compactions)
  import FILE [--keep-id] [--cwd DIR]   add an exported session (a new id unless --keep-id)
  delete ID                             remove a session (refused while a process is using it)

An ID is looked up in the working directory's sessions first, then in every directory's.`;

/** `agentwire sessions …`; returns the exit code. Output on stdout, problems on stderr. */
export async function runSessionsCommand(argv: string[], processCwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const fail = (message: string): number => {
    process.stderr.write(`Error: ${message}\n`);
    return 1;
  };
  const parser = yargs(argv)
    .scriptName("agentwire sessions")
    .usage(USAGE)
    .help(false)
    .version(false)
    .options({
      all: { type: "boolean", default: false, description: "list: sessions of every working directory" },
      cwd: {
        type: "string",
        description: "The working directory whose sessions are meant (default: the current one); import: file the session under it",
      },
      format: {
        type: "string",
        choices: ["jsonl", "json"],
        default: "jsonl",
        description: "export: the file as stored (jsonl) or one JSON document (json)",
      },
      output: { alias: "o", type: "string", description: "export: write to this file instead of stdout" },
      "output-format": { type: "string", choices: ["text", "json"], default: "text", description: "list: a table (text) or a JSON array" },
      "keep-id": { type: "boolean", default: false, description: "import: keep the session's id (refused if it exists)" },
      help: { alias: "h", type: "boolean", default: false },
    });
  // Positional words are the command and its argument; only options are checked.
  const outcome = await strictParse(parser);
  if ("mistake" in outcome) return fail(`${outcome.mistake}\n\n${USAGE}`);
  const { parsed } = outcome;
  const [command, target, ...extra] = parsed._.map(String);
  if (parsed.help || command === "help") {
    process.stdout.write(`${await parser.getHelp()}\n`);
    return 0;
  }
  if (command === undefined) return fail(`a command is missing.\n\n${USAGE}`);
  if (extra.length > 0) return fail(`Unexpected argument: ${extra.join(" ")}`);
  const home = agentwireHome(env);
  const cwd = resolve(processCwd, parsed.cwd ?? ".");
  const needsTarget = (what: string): string | undefined =>
    target === undefined ? `agentwire sessions ${command} needs ${what}.` : undefined;
  const sessionFileOf = (id: string): string | undefined => findSessionFile(home, id, cwd);

  switch (command) {
    case "list": {
      const sessions = listSessions(home, parsed.all ? undefined : cwd);
      process.stdout.write(
        parsed["output-format"] === "json" ? `${JSON.stringify(sessions.map(toJson), null, 2)}\n` : formatTable(sessions, parsed.all, cwd),
      );
      return 0;
    }
    case "show":
    case "export":
    case "delete": {
      const missing = needsTarget("a session id");
      if (missing) return fail(missing);
      const file = sessionFileOf(target!);
      if (!file) return fail(`No session ${target} in ${home}/projects (agentwire sessions list --all shows them).`);
      if (command === "show") {
        await writeRendered(createReadStream(file), process.stdout, {
          width: outputWidth(process.stdout, env),
          color: wantsColor(process.stdout, env),
          sessionFile: true,
        });
        return 0;
      }
      if (command === "delete") {
        const removed = removeSessionFile(file);
        if (removed !== "removed") return fail(`Session ${target} is in use by process ${removed.inUseBy}; it was not deleted.`);
        process.stderr.write(`Deleted session ${target} (${file}).\n`);
        return 0;
      }
      const output: Writable = parsed.output
        ? createWriteStream(resolve(processCwd, parsed.output), { flags: "wx", mode: 0o600 })
        : process.stdout;
      try {
        if (parsed.format === "json") {
          const { skippedLines } = await exportSessionJson(file, output);
          if (skippedLines > 0) process.stderr.write(noticeLine("warn", `left out ${skippedLines} unreadable line(s) of ${file}.`));
          if (output !== process.stdout) await new Promise((done) => output.end(done));
        } else {
          await pipeline(createReadStream(file), output, { end: output !== process.stdout });
        }
      } catch (error) {
        return fail(`Could not export ${target}: ${(error as Error).message}`);
      }
      return 0;
    }
    case "import": {
      const missing = needsTarget("the file to import");
      if (missing) return fail(missing);
      try {
        const imported = importSession({
          home,
          source: resolve(processCwd, target!),
          keepId: parsed["keep-id"],
          ...(parsed.cwd ? { cwd } : {}),
        });
        process.stdout.write(`${imported.sessionId}\n`);
        process.stderr.write(
          `Imported ${imported.entries} entries as session ${imported.sessionId} (${imported.file}); agentwire --resume ${imported.sessionId} continues it.\n`,
        );
        return 0;
      } catch (error) {
        if (error instanceof SessionImportError) return fail(error.message);
        return fail(`Could not import ${target}: ${(error as Error).message}`);
      }
    }
    default:
      return fail(`Unknown sessions command: ${command}\n\n${USAGE}`);
  }
}

function toJson(summary: SessionSummary): Record<string, unknown> {
  return {
    session_id: summary.sessionId,
    cwd: summary.cwd,
    title: summary.title,
    created_at: summary.createdAt,
    updated_at: summary.updatedAt,
    bytes: summary.bytes,
    turns: summary.turns,
    total_cost_usd: summary.totalCostUsd,
    ...(summary.forkedFrom ? { forked_from: summary.forkedFrom } : {}),
    file: summary.file,
  };
}

function formatTable(sessions: SessionSummary[], all: boolean, cwd: string): string {
  if (sessions.length === 0) return all ? "No sessions yet.\n" : `No sessions in ${cwd} yet (--all lists every directory's).\n`;
  const rows = sessions.map((session) => [
    session.sessionId,
    session.updatedAt.slice(0, 16).replace("T", " "),
    formatBytes(session.bytes),
    String(session.turns),
    `$${session.totalCostUsd.toFixed(2)}`,
    ...(all ? [session.cwd] : []),
    session.title || "(no prompt)",
  ]);
  const header = ["ID", "UPDATED", "SIZE", "TURNS", "COST", ...(all ? ["CWD"] : []), "FIRST PROMPT"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
  return `${[format(header), ...rows.map(format)].join("\n")}\n`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
