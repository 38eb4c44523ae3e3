import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../text/sha256.js";

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
  for (const name of names)
    cpSync(path.join(bundledDirectory, name), path.join(userSkillsDirectory, name), { recursive: true, errorOnExist: true, force: false });
  return names;
}

/**
 * Files earlier agentwire versions installed, by the sha256 of their exact content. The first
 * repo-map granted `Bash(sh:*)` (any shell command, without a question, once the model loaded it)
 * and git-helper `Bash(git log:*)` and `Bash(git branch:*)` (`git log --output=FILE` writes any
 * file); writing-skills taught such rules. A copy still byte-identical to one of these was never
 * edited by its user, so replacing it with the bundled version loses nothing of theirs.
 */
const RETIRED_BUNDLED_FILES: Readonly<Record<string, ReadonlyArray<RetiredFile>>> = {
  "repo-map/SKILL.md": [{ bytes: 1226, sha256: "f94ddcd0efc6b1b7a006e062c82d4079d597ecf3cfec02444a7f047ba22fe4d6" }],
  "repo-map/scripts/repo-map.sh": [{ bytes: 1417, sha256: "b2c690f1d5d868690bf5b5b8328b4f4ab3858d37b30ab15cf8fbf04af3918e68" }],
  "git-helper/SKILL.md": [{ bytes: 2756, sha256: "ae8ad5d452629f530e30f3d44d045c056000b33a5034ce6602d72536df3a64d1" }],
  "writing-skills/SKILL.md": [{ bytes: 3490, sha256: "731e97cc927767212e3ed3a1f3f18ecb77c11e486a103ecb7f4660b3c725ad38" }],
};

/** A file as an earlier agentwire wrote it. The size is compared first, so a run hashes nothing in the usual case. */
interface RetiredFile {
  bytes: number;
  sha256: string;
}

function isRetired(relative: string, content: Buffer): boolean {
  const retired = RETIRED_BUNDLED_FILES[relative] ?? [];
  return retired.some((file) => file.bytes === content.length && file.sha256 === sha256Hex(content));
}

/**
 * Brings an existing install of the bundled skills up to date where the user left a file as an
 * earlier agentwire wrote it (see RETIRED_BUNDLED_FILES); an edited file, or a symlink, is the
 * user's and stays. Each replacement is written beside the old file and renamed over it. Returns
 * the names of the skills that changed.
 */
export function upgradeRetiredDefaultSkills(bundledDirectory: string, userSkillsDirectory: string): string[] {
  const upgraded = new Set<string>();
  for (const relative of Object.keys(RETIRED_BUNDLED_FILES)) {
    const installed = path.join(userSkillsDirectory, relative);
    const bundled = path.join(bundledDirectory, relative);
    if (!isRegularFile(installed) || !existsSync(bundled) || !isRetired(relative, readFileSync(installed))) continue;
    const temporary = `${installed}.${process.pid}.upgrade`;
    try {
      copyFileSync(bundled, temporary);
      renameSync(temporary, installed);
    } finally {
      rmSync(temporary, { force: true });
    }
    upgraded.add(relative.split("/")[0]!);
  }
  return [...upgraded].sort();
}

/**
 * Whether `text` is the SKILL.md of skill `name` exactly as an earlier agentwire installed it: its
 * rules are not granted even before the CLI's next run replaces the file (a library host may
 * never run the CLI).
 */
export function isRetiredBundledSkill(name: string, text: string): boolean {
  return isRetired(`${name}/SKILL.md`, Buffer.from(text));
}

function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}
