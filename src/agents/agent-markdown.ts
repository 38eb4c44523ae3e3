import { readFrontmatter, splitFrontmatter } from "../text/frontmatter.js";
import { AGENT_NAME, type AgentFields, agentFieldsSchema, withoutAbsent } from "./agent-definition.js";

/**
 * An agent definition file: markdown whose frontmatter holds `name`, `description` and optionally
 * `tools`, `model` and the SDK definition's other fields, and whose body is the subagent's system
 * prompt. Files written for Claude Code are read as it reads them: `tools: Read, Grep` or a YAML
 * list, `*` for all tools, unknown keys (`color`) ignored, and frontmatter with unquoted colons
 * read again with its values quoted (text/frontmatter.ts).
 */

export type ParsedAgentFile =
  | { ok: true; name: string; fields: AgentFields; notes: string[] }
  | { ok: false; reason: string; name?: string };

/** Fields that list names: written as `A, B`, `A B` or a YAML list. */
const LIST_FIELDS = ["tools", "disallowedTools", "skills"] as const;
/** Fields read as the text the author typed, even when YAML sees a number or a boolean. */
const TEXT_FIELDS = ["name", "description", "model", "initialPrompt"] as const;

export async function parseAgentMarkdown(text: string): Promise<ParsedAgentFile> {
  if (text.includes("\u0000")) return { ok: false, reason: "it is a binary file, not markdown" };
  const { frontmatter, bodyStart } = splitFrontmatter(text);
  if (frontmatter === undefined) return { ok: false, reason: "it has no frontmatter (`---` lines with `name:` and `description:`)" };
  const read = await readFrontmatter(frontmatter);
  if (!read.ok) return read;
  if (typeof read.value !== "object" || read.value === null || Array.isArray(read.value))
    return { ok: false, reason: "its frontmatter is not a set of `key: value` lines" };
  const raw = normalized(read.value as Record<string, unknown>);
  const name = raw.name;
  if (typeof name !== "string" || name.trim() === "") return { ok: false, reason: "its frontmatter has no `name:`" };
  if (!AGENT_NAME.test(name.trim()))
    return {
      ok: false,
      reason: `its name ${JSON.stringify(name)} is not an agent name (1-64 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)`,
    };
  const parsed = agentFieldsSchema().safeParse({ ...raw, prompt: text.slice(bodyStart) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".");
    const reason =
      field === "prompt"
        ? "it has no instructions after its frontmatter (the body is the subagent's system prompt)"
        : field === "description" && raw.description === undefined
          ? "its frontmatter has no `description:`, so the model could not know when to use it"
          : `frontmatter field ${field || "(root)"}: ${issue.message}`;
    return { ok: false, reason, name: name.trim() };
  }
  return { ok: true, name: name.trim(), fields: withoutAbsent(parsed.data), notes: read.note ? [read.note] : [] };
}

/** The frontmatter's values in the shapes the schema reads; nulls (`key:` with no value) count as absent. */
function normalized(fields: Record<string, unknown>): Record<string, unknown> {
  const result = new Map<string, unknown>();
  for (const [key, value] of Object.entries(fields)) if (value !== null) result.set(key, value);
  for (const key of TEXT_FIELDS) {
    const value = result.get(key);
    if (typeof value === "number" || typeof value === "boolean") result.set(key, String(value));
  }
  for (const key of LIST_FIELDS) {
    const value = result.get(key);
    if (typeof value === "string") result.set(key, splitNames(value));
  }
  // `tools: *` (or a list of just `*`): every tool, as when the field is absent.
  const tools = result.get("tools");
  if (Array.isArray(tools) && tools.length === 1 && tools[0] === "*") result.delete("tools");
  return Object.fromEntries(result);
}

/** `Read, Grep`, `Read Grep` or `Bash(git diff:*), Read` → one entry each, parentheses kept whole. */
function splitNames(value: string): string[] {
  return (value.match(/[^\s,()]+(?:\([^)]*\))?/g) ?? []).map((entry) => entry.trim()).filter((entry) => entry !== "");
}
