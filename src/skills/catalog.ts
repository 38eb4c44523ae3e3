import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { projectDirectories } from "../paths/project-directories.js";
import { Bm25Index } from "../text/bm25.js";
import { isRetiredBundledSkill } from "./default-skills.js";
import { expandSkillDirectory, type GrantSubject, type SkillGrantPolicy, type WithheldReason } from "./skill-grants.js";
import { splitFrontmatter } from "../text/frontmatter.js";
import { parseSkillMarkdown, type SkillMetadata } from "./skill-md.js";

/** Where a skill was found, in precedence order. */
export type SkillSource = GrantSubject["source"];

export interface SkillLocation {
  directory: string;
  source: SkillSource;
  /** For project and add-dir skills: the directory whose project brought them (the cwd, an --add-dir). */
  origin?: string;
}

/** A skill folder found on disk, before its SKILL.md is read: its name is its folder's. */
export interface SkillEntry {
  name: string;
  /** The skill's base directory. */
  directory: string;
  file: string;
  source: SkillSource;
  /** For project and add-dir skills: the directory whose project brought them (the cwd, an --add-dir). */
  origin?: string;
}

export type Skill = SkillEntry &
  SkillMetadata & {
    /** The skill's `allowed-tools` that are not in effect in this session, and why (`allowedTools` is then empty). */
    withheldGrants?: { rules: string[]; reason: WithheldReason };
  };

/** Something wrong with one skill: it was skipped, or loaded with a fix. */
export interface SkillProblem {
  code: "skill_skipped" | "skill_fixed";
  path: string;
  reason: string;
}

/** The three folder names an Agent Skills client looks in, agentwire's own first. */
const PROJECT_SKILL_FOLDERS = [".agentwire/skills", ".agents/skills", ".claude/skills"];
/** A frontmatter longer than this is read whole; shorter files are read in one go. */
const HEAD_BYTES = 16 * 1024;

/**
 * Where skills are looked for, in precedence order (the first skill of a name wins): the
 * project's folders from the cwd up to the repository root, each `--add-dir`'s, each
 * `--skills-dir`, then the user's — so skills written for Claude Code, Codex or any Agent Skills
 * client work unchanged.
 */
export function skillLocations(input: {
  cwd: string;
  addDirs: readonly string[];
  skillsDirs: readonly string[];
  agentwireHome: string;
  userHome: string;
}): SkillLocation[] {
  const locations: SkillLocation[] = projectSkillLocations(input.cwd);
  for (const directory of input.addDirs) {
    for (const folder of PROJECT_SKILL_FOLDERS)
      locations.push({ directory: path.join(directory, folder), source: "add-dir", origin: directory });
  }
  for (const directory of input.skillsDirs) locations.push({ directory: path.resolve(directory), source: "skills-dir" });
  locations.push(
    { directory: path.join(input.agentwireHome, "skills"), source: "user" },
    { directory: path.join(input.userHome, ".agents", "skills"), source: "user" },
    { directory: path.join(input.userHome, ".claude", "skills"), source: "user" },
  );
  const seen = new Set<string>();
  return locations.filter((location) => !seen.has(location.directory) && Boolean(seen.add(location.directory)));
}

/** Where a project keeps its skills: the three folders in the cwd and each parent up to the repository root. */
export function projectSkillLocations(cwd: string): SkillLocation[] {
  return projectDirectories(cwd).flatMap((directory) =>
    PROJECT_SKILL_FOLDERS.map((folder) => ({ directory: path.join(directory, folder), source: "project" as const, origin: cwd })),
  );
}

/**
 * The session's skills, or none when discovery is off (`--no-skills`). `grantPolicy` decides
 * whose `allowed-tools` take effect (a repository's only once it is trusted).
 */
export function discoverSkills(
  input: Parameters<typeof skillLocations>[0] & { enabled: boolean; grantPolicy: SkillGrantPolicy },
): SkillCatalog {
  return input.enabled ? SkillCatalog.discover(skillLocations(input), input.grantPolicy) : SkillCatalog.empty();
}

/**
 * The skills of a session. Finding their folders is cheap and synchronous; a folder is not yet a
 * skill: its SKILL.md frontmatter is read and checked once (`load`), and only what loads counts
 * as a skill anywhere — `system/init`, the listing, `--list-skills`, the Skill tool. A body is
 * read only when the skill is invoked.
 */
export class SkillCatalog {
  private loading: Promise<{ skills: Skill[]; problems: SkillProblem[] }> | undefined;
  private index: Bm25Index | undefined;

  private constructor(
    readonly entries: readonly SkillEntry[],
    private readonly grantPolicy: SkillGrantPolicy,
  ) {}

  static empty(): SkillCatalog {
    return new SkillCatalog([], () => "granted");
  }

  static discover(locations: readonly SkillLocation[], grantPolicy: SkillGrantPolicy): SkillCatalog {
    const byName = new Map<string, SkillEntry>();
    for (const location of locations) {
      for (const entry of skillFolders(location)) if (!byName.has(entry.name)) byName.set(entry.name, entry);
    }
    return new SkillCatalog([...byName.values()], grantPolicy);
  }

  /** Every usable skill with its metadata, and what was wrong with the others. Read once. */
  load(): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
    this.loading ??= loadEntries(this.entries, this.grantPolicy);
    return this.loading;
  }

  /** Model-invocable skills, most relevant to `text` first (ties in discovery order). */
  async rank(text: string): Promise<Array<{ skill: Skill; score: number }>> {
    const invocable = (await this.load()).skills.filter((skill) => skill.modelInvocable);
    this.index ??= new Bm25Index(
      invocable.map((skill) => [
        { text: skill.name.replaceAll("-", " "), weight: 3 },
        { text: skill.description, weight: 1 },
        { text: skill.whenToUse ?? "", weight: 1 },
      ]),
    );
    return this.index.rank(text).map(({ index, score }) => ({ skill: invocable[index]!, score }));
  }
}

/** The Skill tool is offered only when the model may invoke at least one loaded skill. */
export function offersSkillTool(skills: readonly Skill[]): boolean {
  return skills.some((skill) => skill.modelInvocable);
}

function skillFolders(location: SkillLocation): SkillEntry[] {
  let names: string[];
  try {
    names = readdirSync(location.directory);
  } catch {
    return [];
  }
  return names.sort().flatMap((name) => {
    if (name.startsWith(".")) return [];
    const directory = path.join(location.directory, name);
    const file = path.join(directory, "SKILL.md");
    try {
      // Follows symlinks: a skill linked in from elsewhere counts.
      if (!statSync(directory).isDirectory() || !existsSync(file)) return [];
    } catch {
      return [];
    }
    return [{ name, directory, file, source: location.source, ...(location.origin !== undefined ? { origin: location.origin } : {}) }];
  });
}

async function loadEntries(
  entries: readonly SkillEntry[],
  grantPolicy: SkillGrantPolicy,
): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
  const results = await Promise.all(entries.map(async (entry) => ({ entry, parsed: await readSkill(entry) })));
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  for (const { entry, parsed } of results) {
    if (!parsed.ok) {
      problems.push({ code: "skill_skipped", path: entry.file, reason: parsed.reason });
      continue;
    }
    const expanded = expandSkillDirectory(parsed.metadata.allowedTools, entry.directory);
    for (const note of [...parsed.notes, ...expanded.notes]) problems.push({ code: "skill_fixed", path: entry.file, reason: note });
    const decision = expanded.rules.length === 0 ? "granted" : grantPolicy(entry);
    skills.push(
      decision === "granted"
        ? { ...entry, ...parsed.metadata, allowedTools: expanded.rules }
        : { ...entry, ...parsed.metadata, allowedTools: [], withheldGrants: { rules: expanded.rules, reason: decision } },
    );
  }
  return { skills, problems };
}

/** Reads the start of a SKILL.md (all of it when the frontmatter runs longer) and parses it. */
async function readSkill(entry: SkillEntry): ReturnType<typeof parseSkillMarkdown> {
  const text = readSkillHead(entry.file);
  if (typeof text !== "string") return text;
  const parsed = await parseSkillMarkdown(text, entry.name);
  if (!parsed.ok || parsed.metadata.allowedTools.length === 0 || entry.source !== "user" || !isRetiredBundledSkill(entry.name, text))
    return parsed;
  const note =
    "it is an earlier agentwire's copy of a bundled skill whose allowed-tools approved more than it needs, so they are ignored; the next agentwire run updates it";
  return { ...parsed, notes: [...parsed.notes, note], metadata: { ...parsed.metadata, allowedTools: [] } };
}

/**
 * The start of a SKILL.md, or why it cannot be read. Synchronous on purpose: `system/init` waits
 * for every skill's frontmatter, and a thousand small reads take ~40 ms this way against several
 * hundred through the thread pool. Without blocking, and only a regular file: a FIFO named
 * SKILL.md in a cloned repository would otherwise hang the session.
 */
let headBuffer: Buffer | undefined;

function readSkillHead(file: string): string | { ok: false; reason: string } {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, reason: `SKILL.md cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  try {
    if (!fstatSync(descriptor).isFile()) return { ok: false, reason: "SKILL.md is not a regular file" };
    // One buffer for every read: the reads are synchronous, and the text is copied out of it.
    headBuffer ??= Buffer.allocUnsafe(HEAD_BYTES);
    const head = headBuffer;
    const bytesRead = readSync(descriptor, head, 0, HEAD_BYTES, 0);
    const text = head.subarray(0, bytesRead).toString("utf8");
    // Positional reads leave the file position at 0, so this reads the whole file.
    return bytesRead === HEAD_BYTES && splitFrontmatter(text).frontmatter === undefined ? readFileSync(descriptor, "utf8") : text;
  } catch (error) {
    return { ok: false, reason: `SKILL.md cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  } finally {
    closeSync(descriptor);
  }
}
