import { existsSync } from "node:fs";
import path from "node:path";
import { projectDirectories } from "../paths/project-directories.js";
import { isSameOrInside, realPathOfNearestAncestor } from "../paths/real-path.js";
import { readRegularFile } from "../trust/regular-file.js";

/** The instruction files every agent CLI reads: the open AGENTS.md convention and Claude Code's own. */
const MEMORY_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"];
/** Room for all memory files together; what does not fit is cut, with a warning. */
export const MEMORY_BUDGET_CHARS = 32 * 1024;
/** A memory file larger than this is not read at all (only its start could be used anyway). */
const MAX_MEMORY_FILE_BYTES = 16 * 1024 * 1024;

export interface MemoryFiles {
  /** The system-prompt section holding the files, or "" when there are none. */
  section: string;
  paths: string[];
  /** Files cut to fit the budget, or unreadable. */
  problems: Array<{ path: string; reason: string }>;
}

/**
 * Project memory: the user's `$AGENTWIRE_HOME/AGENTS.md`, then `AGENTS.md` and `CLAUDE.md` from
 * the repository root down to the working directory (the nearer, the later, so it reads as the
 * more specific). Each file is named by its path, so the model can cite and update it. Read once
 * per session; it sits in the system prompt, so compaction never drops it.
 */
export function loadMemoryFiles(input: { cwd: string; agentwireHome: string }): MemoryFiles {
  const directories = projectDirectories(input.cwd);
  const userFile = path.join(input.agentwireHome, "AGENTS.md");
  const candidates = [
    userFile,
    ...[...directories].reverse().flatMap((directory) => MEMORY_FILE_NAMES.map((name) => path.join(directory, name))),
  ];
  // The outermost of them: the repository root (or the working directory outside a repository).
  const projectRoot = realPathOfNearestAncestor(directories.at(-1) ?? input.cwd);
  const problems: MemoryFiles["problems"] = [];
  const parts: string[] = [];
  const paths: string[] = [];
  let room = MEMORY_BUDGET_CHARS;
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    // A repository's AGENTS.md may be a link to ~/.netrc or a key: its text would reach the model
    // (and the provider) with nobody asked, so a project's memory file must lie in the project.
    if (file !== userFile && !isSameOrInside(realPathOfNearestAncestor(file), projectRoot)) {
      problems.push({ path: file, reason: "it was left out: it is a link to a file outside the project" });
      continue;
    }
    // A repository's file: a FIFO or a device behind the name must not hang or flood the start.
    const read = readRegularFile(file, MAX_MEMORY_FILE_BYTES);
    if ("problem" in read) {
      problems.push({ path: file, reason: read.problem });
      continue;
    }
    let text = read.bytes.toString("utf8").trim();
    if (text === "") continue;
    if (room <= 0) {
      problems.push({ path: file, reason: `it was left out: the memory files together are over ${MEMORY_BUDGET_CHARS} characters` });
      continue;
    }
    if (text.length > room) {
      problems.push({
        path: file,
        reason: `it was cut to ${room} of its ${text.length} characters: the memory files together may hold ${MEMORY_BUDGET_CHARS}`,
      });
      text = `${text.slice(0, room)}\n[… cut: the rest of this file is not shown]`;
    }
    room -= text.length;
    paths.push(file);
    parts.push(`Contents of ${file}:\n\n${text}`);
  }
  if (parts.length === 0) return { section: "", paths, problems };
  const section = `# Memory files\n\nInstructions from the user and the project, from these files; follow them, the later (nearer the working directory) over the earlier.\n\n${parts.join("\n\n")}`;
  return { section, paths, problems };
}
