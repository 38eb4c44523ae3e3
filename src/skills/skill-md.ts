import * as z from "zod/mini";
import "../validation/english-issues.js";
import { parseSimpleFrontmatter } from "./simple-frontmatter.js";

/**
 * The SKILL.md format of the open Agent Skills specification (agentskills.io): YAML frontmatter
 * between `---` lines, then markdown instructions. Claude Code's extra fields are read too.
 * Also accepted: plain markdown with a `# Title` and a `## Description` section, the form some
 * skill collections use; its description is that section.
 */

/** Lowercase letters, digits and single hyphens, not at either end (the specification's rule). */
export const SKILL_NAME = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/;
export const MAX_DESCRIPTION_CHARS = 1024;

const listOrString = z.union([z.string(), z.array(z.string())]);

/** The frontmatter fields agentwire reads; others are kept by the file but ignored. */
export const SkillFrontmatterSchema = z.looseObject({
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  license: z.optional(z.string()),
  compatibility: z.optional(z.string()),
  metadata: z.optional(z.record(z.string(), z.unknown())),
  /** Specification: space-separated; Claude Code also writes commas or a YAML list. */
  "allowed-tools": z.optional(listOrString),
  when_to_use: z.optional(z.string()),
  "disable-model-invocation": z.optional(z.boolean()),
  "user-invocable": z.optional(z.boolean()),
  "argument-hint": z.optional(z.string()),
});

export interface SkillMetadata {
  name: string;
  description: string;
  whenToUse: string | undefined;
  /** Claude Code permission rules (`Bash(git:*)`, `Read`) approved while the skill's turn runs. */
  allowedTools: string[];
  /** The model may call it with the Skill tool (not `disable-model-invocation`). */
  modelInvocable: boolean;
  /** A user may run it as `/name args` (not `user-invocable: false`). */
  userInvocable: boolean;
  argumentHint: string | undefined;
  license: string | undefined;
  compatibility: string | undefined;
}

export type ParsedSkill = { ok: true; metadata: SkillMetadata; notes: string[] } | { ok: false; reason: string };

/** Where the instructions start, and the frontmatter text, of a SKILL.md's beginning. */
export function splitFrontmatter(text: string): { frontmatter: string | undefined; bodyStart: number } {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return match ? { frontmatter: match[1]!, bodyStart: match[0].length } : { frontmatter: undefined, bodyStart: 0 };
}

/**
 * Reads a skill's metadata from the start of its SKILL.md (the frontmatter, or the whole file
 * in the plain-markdown form). `folderName` is the skill's folder: the name must match it. A
 * problem that can be fixed (a name that differs from the folder) is noted and the folder name
 * used; one that cannot (no description, unreadable YAML) makes the skill unusable.
 */
export async function parseSkillMarkdown(text: string, folderName: string): Promise<ParsedSkill> {
  if (text.includes("\u0000")) return { ok: false, reason: "SKILL.md is a binary file, not markdown" };
  const { frontmatter } = splitFrontmatter(text);
  if (frontmatter === undefined) return parsePlainMarkdown(text, folderName);
  let raw: unknown = parseSimpleFrontmatter(frontmatter);
  if (raw === undefined) {
    // Loaded on first use: runs whose skills have simple frontmatter never pay for the YAML parser.
    // `yaml` is CommonJS: the bundle's dynamic import exposes it as `default` only, Node's own
    // import also by name.
    const yaml = (await import("yaml")) as typeof import("yaml") & { default?: typeof import("yaml") };
    const { parse } = yaml.default ?? yaml;
    try {
      raw = parse(frontmatter);
    } catch (error) {
      return { ok: false, reason: `the frontmatter is not valid YAML: ${firstLine((error as Error).message)}` };
    }
  }
  const fields = SkillFrontmatterSchema.safeParse(raw ?? {});
  if (!fields.success) {
    const issue = fields.error.issues[0]!;
    return { ok: false, reason: `frontmatter field ${issue.path.join(".") || "(root)"}: ${issue.message}` };
  }
  const data = fields.data;
  const notes: string[] = [];
  const name = checkName(data.name, folderName, notes);
  if (name === undefined) return { ok: false, reason: notes.join("; ") };
  const description = data.description?.trim() ?? "";
  if (description === "") return { ok: false, reason: "it has no description (the frontmatter needs `description:`), so no one could know when to use it" };
  return {
    ok: true,
    notes,
    metadata: {
      name,
      description: clampDescription(description, notes),
      whenToUse: data.when_to_use?.trim() || undefined,
      allowedTools: toolRules(data["allowed-tools"]),
      modelInvocable: data["disable-model-invocation"] !== true,
      userInvocable: data["user-invocable"] !== false,
      argumentHint: data["argument-hint"],
      license: data.license,
      compatibility: data.compatibility,
    },
  };
}

/** `# Title` … `## Description` … : the section under `## Description` is the description. */
function parsePlainMarkdown(text: string, folderName: string): ParsedSkill {
  const section = /^##[ \t]+Description[ \t]*\r?\n([\s\S]*?)(?=^#{1,2}[ \t]|(?![\s\S]))/im.exec(text);
  const description = section?.[1]?.trim() ?? "";
  if (description === "") return { ok: false, reason: "it has neither frontmatter nor a `## Description` section, so no one could know when to use it" };
  const notes: string[] = [];
  const name = checkName(undefined, folderName, notes);
  if (name === undefined) return { ok: false, reason: notes.join("; ") };
  return {
    ok: true,
    notes,
    metadata: {
      name,
      description: clampDescription(description, notes),
      whenToUse: undefined,
      allowedTools: [],
      modelInvocable: true,
      userInvocable: true,
      argumentHint: undefined,
      license: undefined,
      compatibility: undefined,
    },
  };
}

/** The skill's name: the folder's, which the frontmatter's must equal; mismatches are noted. */
function checkName(declared: string | undefined, folderName: string, notes: string[]): string | undefined {
  if (!SKILL_NAME.test(folderName)) {
    notes.push(`the folder name "${folderName}" is not a valid skill name (1-64 characters: a-z, 0-9 and single inner hyphens)`);
    return undefined;
  }
  if (declared !== undefined && declared !== folderName) {
    notes.push(`its name "${declared}" does not match its folder; it is loaded as "${folderName}"`);
  }
  return folderName;
}

function clampDescription(description: string, notes: string[]): string {
  if (description.length <= MAX_DESCRIPTION_CHARS) return description;
  notes.push(`its description is ${description.length} characters, over the ${MAX_DESCRIPTION_CHARS} allowed; it is cut there`);
  return description.slice(0, MAX_DESCRIPTION_CHARS);
}

/** `Bash(git:*) Read`, `Bash(git:*), Read` or a YAML list → one rule per entry, parentheses kept whole. */
function toolRules(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const entries = Array.isArray(value) ? value : (value.match(/[^\s,()]+(?:\([^)]*\))?/g) ?? []);
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== "");
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}
