import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Skill } from "./catalog.js";
import { SKILL_DIR_PLACEHOLDER } from "./skill-grants.js";
import { splitFrontmatter } from "../text/frontmatter.js";

/** Files listed for the model, at most; a skill with more says how many it left out. */
const MAX_LISTED_FILES = 50;
const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "__pycache__"]);

/**
 * What loading a skill gives the model, as Claude Code words it: the base directory, the
 * instructions (`${CLAUDE_SKILL_DIR}` replaced by that directory, `$ARGUMENTS` by the arguments,
 * or the arguments appended), and the skill's other files, which the model reads with Read or
 * runs with Bash when the instructions say so — the third step of progressive disclosure.
 */
export async function skillInstructions(skill: Skill, args: string | undefined): Promise<string> {
  const text = await readFile(skill.file, "utf8");
  let body = text.slice(splitFrontmatter(text).bodyStart).trim().replaceAll(SKILL_DIR_PLACEHOLDER, skill.directory);
  if (args !== undefined && args !== "") {
    body = body.includes("$ARGUMENTS") ? body.replaceAll("$ARGUMENTS", args) : `${body}\n\nARGUMENTS: ${args}`;
  }
  const files = await listFiles(skill.directory);
  const fileList =
    files.listed.length === 0
      ? ""
      : `\n\nFiles in this skill (Read them, or run its scripts with Bash, when the instructions call for it):\n${files.listed.map((file) => `- ${file}`).join("\n")}${files.more > 0 ? `\n- … and ${files.more} more` : ""}`;
  return `Base directory for this skill: ${skill.directory}\n\n${body}${fileList}`;
}

async function listFiles(root: string): Promise<{ listed: string[]; more: number }> {
  const listed: string[] = [];
  let more = 0;
  const walk = async (directory: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".") || SKIPPED_FOLDERS.has(entry.name)) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (depth < 3) await walk(full, depth + 1);
        continue;
      }
      if (path.relative(root, full) === "SKILL.md") continue;
      // Absolute: a small model should not have to join paths to Read a file.
      if (listed.length < MAX_LISTED_FILES) listed.push(full);
      else more += 1;
    }
  };
  await walk(root, 0);
  return { listed, more };
}
