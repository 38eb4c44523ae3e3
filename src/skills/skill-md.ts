import * as z from "zod/mini";
import "../validation/english-issues.js";
import { readFrontmatter, splitFrontmatter } from "../text/frontmatter.js";

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
  /** Not read: clients shape it differently (OpenClaw nests objects; a quoted repair makes it a string). */
  metadata: z.optional(z.unknown()),
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

/**
 * Reads a skill's metadata from the start of its SKILL.md (the frontmatter, or the whole file
 * in the plain-markdown form). `folderName` is the skill's folder: the name must match it. A
 * problem that can be fixed (a name that differs from the folder) is noted and the folder name
 * used, as is frontmatter that reads only with its values quoted; one that cannot (no
 * description, YAML that quoting does not fix) makes the skill unusable.
 */
export async function parseSkillMarkdown(text: string, folderName: string): Promise<ParsedSkill> {
  if (text.includes("\u0000")) return { ok: false, reason: "SKILL.md is a binary file, not markdown" };
  const { frontmatter } = splitFrontmatter(text);
  if (frontmatter === undefined) return parsePlainMarkdown(text, folderName);
  const read = await readFrontmatter(frontmatter);
  if (!read.ok) return read;
  const raw = read.value;
  const repairNote = read.note;
  const fields = SkillFrontmatterSchema.safeParse(textAsWritten(raw, frontmatter));
  if (!fields.success) {
    const issue = fields.error.issues[0]!;
    return { ok: false, reason: `frontmatter field ${issue.path.join(".") || "(root)"}: ${issue.message}` };
  }
  const data = fields.data;
  const checked = checkName(data.name, folderName);
  if ("reason" in checked) return { ok: false, reason: checked.reason };
  const { name } = checked;
  const notes = [repairNote, checked.note].filter((note) => note !== undefined);
  const description = data.description?.trim() ?? "";
  if (description === "")
    return { ok: false, reason: "it has no description (the frontmatter needs `description:`), so no one could know when to use it" };
  return acceptedSkill(name, description, notes, data);
}

/** A skill that parsed, its metadata read from its frontmatter's fields (none for plain markdown: the defaults). */
function acceptedSkill(
  name: string,
  description: string,
  notes: string[],
  data: Partial<z.infer<typeof SkillFrontmatterSchema>>,
): ParsedSkill {
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

/** Fields agentwire reads as text. */
const TEXT_FIELDS = ["name", "description", "when_to_use", "argument-hint", "license", "compatibility"] as const;
/** Text fields nothing depends on: one that is not text in any form is left out rather than refusing the skill. */
const INFORMATIONAL_FIELDS = new Set<string>(["license", "compatibility"]);

/**
 * The frontmatter's fields with the text fields as their author wrote them: YAML reads
 * `argument-hint: [file]` (the form Claude Code's documentation shows) as a list and `name: 2048`
 * as a number, but the author meant the text on the line (a block list: its items). A field given
 * no value (`key:`, null) counts as absent.
 */
function textAsWritten(raw: unknown, frontmatter: string): unknown {
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) return raw;
  const fields: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [key, value] of Object.entries(fields)) if (value === null) delete fields[key];
  for (const key of TEXT_FIELDS) {
    const value = fields[key];
    if (value === undefined || typeof value === "string") continue;
    const written = lineValue(frontmatter, key) ?? listText(value);
    if (written !== undefined) fields[key] = written;
    else if (INFORMATIONAL_FIELDS.has(key)) delete fields[key];
  }
  return fields;
}

/** A block list of plain values (`argument-hint:` then `- what to build`): its items, space-separated. */
function listText(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => ["string", "number", "boolean"].includes(typeof item)))
    return undefined;
  return value.join(" ");
}

/** The text after `key:` on the key's own line, when the value is all on that line. */
function lineValue(frontmatter: string, key: string): string | undefined {
  for (const line of frontmatter.split(/\r?\n/)) {
    if (!line.startsWith(`${key}:`)) continue;
    const value = line.slice(key.length + 1).trim();
    return value === "" ? undefined : value;
  }
  return undefined;
}

/** `# Title` … `## Description` … : the section under `## Description` is the description. */
function parsePlainMarkdown(text: string, folderName: string): ParsedSkill {
  const section = /^##[ \t]+Description[ \t]*\r?\n([\s\S]*?)(?=^#{1,2}[ \t]|(?![\s\S]))/im.exec(text);
  const description = section?.[1]?.trim() ?? "";
  if (description === "")
    return { ok: false, reason: "it has neither frontmatter nor a `## Description` section, so no one could know when to use it" };
  const checked = checkName(undefined, folderName);
  if ("reason" in checked) return { ok: false, reason: checked.reason };
  return acceptedSkill(checked.name, description, [], {});
}

/** The skill's name: the folder's, which the frontmatter's must equal (a mismatch is noted); or why the folder cannot be one. */
function checkName(declared: string | undefined, folderName: string): { name: string; note?: string } | { reason: string } {
  if (!SKILL_NAME.test(folderName))
    return { reason: `the folder name "${folderName}" is not a valid skill name (1-64 characters: a-z, 0-9 and single inner hyphens)` };
  if (declared !== undefined && declared !== folderName)
    return { name: folderName, note: `its name "${declared}" does not match its folder; it is loaded as "${folderName}"` };
  return { name: folderName };
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
