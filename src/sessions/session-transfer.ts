import { randomUUID } from "../text/random-uuid.js";
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import { entrySchema, exportedSessionSchema, headerSchema, SESSION_FILE_VERSION, sessionFile, type SessionHeader } from "./session-file.js";

/**
 * A session file as one JSON document: `{"session": header, "entries": [...]}`, every entry
 * included (the messages from before each compaction too). Lines are copied as they are, not
 * re-serialised, so a file of hundreds of MB streams through; an unreadable line is left out and
 * counted.
 */
export async function exportSessionJson(file: string, output: Writable): Promise<{ skippedLines: number }> {
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
  let first = true;
  let entries = 0;
  let skippedLines = 0;
  for await (const line of lines) {
    if (line.trim() === "") continue;
    if (!isJson(line)) {
      skippedLines++;
      continue;
    }
    const text = first ? `{"session":${line},"entries":[` : `${entries++ === 0 ? "" : ","}\n${line}`;
    first = false;
    if (!output.write(text)) await new Promise((resolve) => output.once("drain", resolve));
  }
  output.write(first ? '{"session":null,"entries":[]}\n' : "\n]}\n");
  return { skippedLines };
}

/** Why an import was refused: every problem, with where it is. */
export class SessionImportError extends Error {}

/**
 * Adds a session from an exported file (JSONL as stored, or the JSON document of
 * `exportSessionJson`) to the store. Every line is validated first: a file with any invalid
 * entry is refused as a whole, so nothing half-imported is left. The session gets a new id
 * unless `keepId`; `cwd` overrides the working directory it is filed under.
 */
export function importSession(input: { home: string; source: string; keepId: boolean; cwd?: string }): {
  sessionId: string;
  file: string;
  entries: number;
} {
  const { header, entries } = parseExport(readFileSync(input.source, "utf8"));
  const sessionId = input.keepId ? header.session_id : randomUUID();
  const cwd = input.cwd ?? header.cwd;
  const file = sessionFile(input.home, cwd, sessionId);
  const storedHeader: SessionHeader = { ...header, session_id: sessionId, cwd, version: Math.max(header.version, SESSION_FILE_VERSION) };
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, [storedHeader, ...entries].map((line) => `${JSON.stringify(line)}\n`).join(""), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new SessionImportError(
        `A session with id ${sessionId} already exists (${file}); import without --keep-id to give the copy a new id.`,
      );
    throw error;
  }
  return { sessionId, file, entries: entries.length };
}

function parseExport(text: string): { header: SessionHeader; entries: unknown[] } {
  const problems: string[] = [];
  let header: SessionHeader | undefined;
  let rawEntries: Array<{ where: string; value: unknown }> = [];
  const document = text.trimStart().startsWith('{"session"') ? safeJson(text) : undefined;
  if (document !== undefined) {
    const parsed = exportedSessionSchema().safeParse(document);
    if (!parsed.success)
      throw new SessionImportError(
        `Not a session export: ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`.trim(),
      );
    header = parsed.data.session;
    rawEntries = parsed.data.entries.map((value, index) => ({ where: `entry ${index + 1}`, value }));
  } else {
    const lines = text.split("\n");
    lines.forEach((line, index) => {
      if (line.trim() === "") return;
      const value = safeJson(line);
      if (value === undefined) problems.push(`line ${index + 1}: not JSON`);
      else if (header === undefined && index === 0) {
        const parsed = headerSchema().safeParse(value);
        if (parsed.success) header = parsed.data;
        else problems.push(`line 1: not a session header (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message})`);
      } else rawEntries.push({ where: `line ${index + 1}`, value });
    });
  }
  const entries = rawEntries.flatMap(({ where, value }) => {
    const parsed = entrySchema().safeParse(value);
    if (parsed.success) return [parsed.data];
    const issue = parsed.error.issues[0];
    problems.push(`${where}: ${issue?.path.join(".") || "entry"}: ${issue?.message ?? "invalid"}`);
    return [];
  });
  if (header === undefined && problems.length === 0) problems.push("the file is empty");
  if (problems.length > 0 || header === undefined) {
    const shown = problems.slice(0, 10);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : "";
    throw new SessionImportError(
      `Not imported: the file is not a valid session (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${shown.join("\n  ")}${more}`,
    );
  }
  return { header, entries };
}

function isJson(text: string): boolean {
  return safeJson(text) !== undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
