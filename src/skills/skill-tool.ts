import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { editDistance } from "../text/edit-distance.js";
import { defineTool, toolError, type ToolContext } from "../tools/define-tool.js";
import type { Skill, SkillCatalog } from "./catalog.js";
import { skillInstructions } from "./instructions.js";
import { withheldGrantsNote } from "./skill-grants.js";
import { SKILL_TOOL_TRAITS } from "../tools/builtin-tool-traits.js";
import { sessionSlot } from "../tools/session-state.js";
import { withBuiltSchema } from "../tools/tool-json-schema.js";
import { lazySchema } from "../validation/lazy-schema.js";

/** Claude Code's Skill tool (2.1.330: the same input, described in agentwire's words), with agentwire's `query` for finding a skill by need. */
const description = `Loads a skill: instructions someone wrote for one kind of task, such as a release procedure, a review checklist or the way this repository does things.

The session's skills are listed before the user's message, each with a line on what it is for. When the work in front of you matches one of them, call this tool before starting: it returns the skill's instructions, which then take precedence over how you would otherwise go about it. A user who writes \`/<name>\` (a "slash command") or names a skill wants it loaded.

- \`skill\`: a name exactly as listed, without the slash.
- \`args\`: text handed on to the skill, if it takes any.
- \`query\`: in place of \`skill\`, a short description of the task; the answer lists the skills that fit it best, with what each is for. Use it for skills listed by name only, or when the one you need may not be listed.

Never invent a name: only listed ones, or one the user typed, exist. When this turn already holds a \`<command-name>\` block, that skill's instructions are loaded; follow them instead of calling again.`;

export const skillInputSchema = lazySchema(() =>
  z
    .strictObject({
      skill: z.optional(z.string()).check(z.describe("A skill's name exactly as the listing gives it; never a guess")),
      args: z.optional(z.string()).check(z.describe("Text handed on to the skill, if it takes any")),
      query: z.optional(z.string()).check(z.describe("Instead of skill: words describing the task, to find matching skills")),
    })
    .check(
      z.refine((input) => (input.skill === undefined) !== (input.query === undefined), { message: "give exactly one of skill and query" }),
    ),
);

/** Names of the skills whose instructions this session has loaded. */
export const LOADED_SKILLS = sessionSlot<ReadonlySet<string>>("skills.loaded", () => new Set());
/** `allowed-tools` rules of the skills loaded during the running turn (the session clears it after). */
export const TURN_SKILL_RULES = sessionSlot<readonly string[]>("skills.turnRules", () => []);
/**
 * Rules that let Read, Grep, Glob and LS into the folders of the skills loaded this session (a
 * user's skills live outside the workspace), for the session.
 */
export const SKILL_READ_RULES = sessionSlot<readonly string[]>("skills.readRules", () => []);
const QUERY_RESULTS = 5;

/** The compact tool profile's wording: the same tool, for a small model's small context. */
const COMPACT_DESCRIPTION =
  "Load a skill's instructions by exact name (skill, optional args), or find skills for a task (query). Use a listed skill before doing its task yourself.";

export const createSkillTool = (catalog: SkillCatalog, options: { compact?: boolean } = {}) =>
  withBuiltSchema(
    defineTool({
      name: "Skill",
      description: options.compact ? COMPACT_DESCRIPTION : description,
      get inputSchema() {
        return skillInputSchema();
      },
      // Loading instructions changes nothing outside the conversation: no permission needed.
      ...SKILL_TOOL_TRAITS,
      async execute(input, context): Promise<ToolResult> {
        if (input.query !== undefined) return findSkills(catalog, input.query);
        const name = input.skill!.replace(/^\//, "");
        const { skills } = await catalog.load();
        const skill = skills.find((candidate) => candidate.name === name);
        if (!skill?.modelInvocable) return unknownSkill(name, skills);
        return loadSkill(skill, input.args, context);
      },
    }),
  );

/**
 * Loads a skill's instructions into the conversation, once per session; a repeat says it is
 * already there. Its `allowed-tools` apply until the running turn ends. Shared by the Skill tool
 * and `/name` prompts.
 */
export async function loadSkill(skill: Skill, args: string | undefined, context: Pick<ToolContext, "sessionState">): Promise<ToolResult> {
  const state = context.sessionState;
  const loaded = state.get(LOADED_SKILLS);
  state.set(TURN_SKILL_RULES, [...state.get(TURN_SKILL_RULES), ...skill.allowedTools]);
  const readRules = state.get(SKILL_READ_RULES);
  // `//` marks an absolute path in Claude Code's rule syntax; `Read(…)` covers the read-only tools.
  const readRule = `Read(/${skill.directory}/**)`;
  if (!readRules.includes(readRule)) state.set(SKILL_READ_RULES, [...readRules, readRule]);
  if (loaded.has(skill.name)) {
    const again = args ? ` Apply them to: ${args}` : "";
    return {
      content: `The ${skill.name} skill is already loaded in this conversation; follow its instructions above.${again}`,
      isError: false,
      details: { skill: skill.name, alreadyLoaded: true },
    };
  }
  let text: string;
  try {
    text = await skillInstructions(skill, args);
  } catch (error) {
    return toolError("io_error", `The ${skill.name} skill could not be loaded: ${(error as Error).message}`);
  }
  state.set(LOADED_SKILLS, new Set([...loaded, skill.name]));
  const withheld = skill.withheldGrants;
  // Said to the model, so it expects its calls to be asked rather than retrying or working around them.
  const content = withheld ? `${text}\n\n${withheldGrantsNote(withheld.rules, withheld.reason)}` : text;
  return {
    content,
    isError: false,
    details: { skill: skill.name, path: skill.file, allowedTools: skill.allowedTools, ...(withheld ? { withheldGrants: withheld } : {}) },
  };
}

async function findSkills(catalog: SkillCatalog, query: string): Promise<ToolResult> {
  const ranked = (await catalog.rank(query)).filter(({ score }) => score > 0).slice(0, QUERY_RESULTS);
  if (ranked.length === 0)
    return { content: `No skill matches "${query}". Continue with the ordinary tools.`, isError: false, details: { query, matches: [] } };
  const lines = ranked.map(({ skill }) => `- ${skill.name} (${skill.file}): ${skill.description}`);
  return {
    content: `Skills matching "${query}", best first; load one with {"skill": "<name>"}:\n${lines.join("\n")}`,
    isError: false,
    details: {
      query,
      matches: ranked.map(({ skill, score }) => ({ name: skill.name, path: skill.file, description: skill.description, score })),
    },
  };
}

function unknownSkill(name: string, skills: readonly Skill[]): ToolResult {
  const invocable = skills.filter((skill) => skill.modelInvocable).map((skill) => skill.name);
  const closest = invocable
    .map((candidate) => ({ candidate, distance: editDistance(name.toLowerCase(), candidate) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ candidate }) => candidate);
  const hint = closest.length > 0 ? ` The closest names: ${closest.join(", ")}.` : " No skills are available in this session.";
  return toolError("invalid_input", `<tool_use_error>Unknown skill: ${name}.${hint}</tool_use_error>`);
}
