import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * Copies the skills shipped with agentwire into the user's skills folder on a first run, so a
 * new user has working examples (how to write a skill, a git helper, a skill with a script).
 * Only when the folder does not exist yet: a folder the user has — even an empty one they
 * cleared on purpose — is never written to. Returns the names installed (none when skipped).
 */
export function installDefaultSkills(bundledDirectory: string, userSkillsDirectory: string): string[] {
  if (existsSync(userSkillsDirectory) || !existsSync(bundledDirectory)) return [];
  const names = readdirSync(bundledDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(bundledDirectory, entry.name, "SKILL.md")))
    .map((entry) => entry.name)
    .sort();
  mkdirSync(userSkillsDirectory, { recursive: true });
  for (const name of names) cpSync(path.join(bundledDirectory, name), path.join(userSkillsDirectory, name), { recursive: true, errorOnExist: true, force: false });
  return names;
}
