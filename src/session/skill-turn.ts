import type { Message, UserContentBlock, UserMessage } from "../conversation/messages.js";
import { lastSkillsListing, systemReminder } from "../conversation/reminders.js";
import type { Skill, SkillCatalog } from "../skills/catalog.js";
import { listingFits, skillListing } from "../skills/listing.js";
import { loadSkill } from "../skills/skill-tool.js";
import type { SessionState } from "../tools/session-state.js";

/** How many of the best BM25 matches the model may re-order (`--skill-ranking llm`). */
export const RERANK_CANDIDATES = 20;

export interface SkillTurnInput {
  catalog: SkillCatalog;
  prompt: UserMessage;
  /** The conversation so far: the listing it last carried is not repeated (also after a resume). */
  history: readonly Message[];
  /** The session's tool state, shared with the Skill tool (loaded skills, the turn's rules). */
  sessionState: SessionState;
  budgetChars: number;
  /** `--skill-ranking llm`: re-orders the best matches; absent = BM25 alone. */
  rerank?: (promptText: string, candidates: Skill[]) => Promise<Skill[]>;
}

/**
 * The prompt as the model gets it when the session has skills: a `/name args` prompt for a
 * user-invocable skill is replaced by the skill's instructions (as Claude Code does), and the
 * skill listing, ranked against this prompt when it does not fit its budget, goes before it as a
 * `<system-reminder>` when it differs from the last one the conversation has.
 */
export async function skillPrompt(input: SkillTurnInput): Promise<UserMessage> {
  const { skills } = await input.catalog.load();
  if (skills.length === 0) return input.prompt;
  const text = input.prompt.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  let content: UserContentBlock[] = (await expandSlashCommand(text, skills, input)) ?? input.prompt.content;

  const invocable = skills.filter((skill) => skill.modelInvocable);
  if (invocable.length > 0) {
    // A listing that fits whole keeps discovery order: ranking it would only build the index (~1 ms at a start).
    const fits = listingFits(invocable, input.budgetChars);
    let ranked = fits ? [] : await input.catalog.rank(text);
    if (input.rerank && !fits) {
      const top = ranked.slice(0, RERANK_CANDIDATES);
      const reordered = await input.rerank(
        text,
        top.map(({ skill }) => skill),
      );
      // The model's order, each keeping a positive score so it is described if room allows.
      ranked = [
        ...reordered.map((skill) => ({ skill, score: Math.max(1, top.find((entry) => entry.skill === skill)?.score ?? 0) })),
        ...ranked.slice(RERANK_CANDIDATES),
      ];
    }
    const reminder = systemReminder(skillListing(invocable, ranked, input.budgetChars));
    if (reminder !== lastSkillsListing(input.history)) content = [{ type: "text", text: reminder, reminder: "skills" }, ...content];
  }
  return { ...input.prompt, content };
}

/** `/name args` naming a user-invocable skill → Claude Code's command block and the instructions. */
async function expandSlashCommand(text: string, skills: readonly Skill[], input: SkillTurnInput): Promise<UserContentBlock[] | undefined> {
  const match = /^\/([a-z0-9-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const skill = skills.find((candidate) => candidate.name === match[1] && candidate.userInvocable);
  if (!skill) return undefined;
  const args = match[2]?.trim() ?? "";
  const loaded = await loadSkill(skill, args || undefined, { sessionState: input.sessionState });
  if (loaded.isError || typeof loaded.content !== "string") return undefined;
  return [
    { type: "text", text: `<command-name>/${skill.name}</command-name>\n<command-args>${args}</command-args>` },
    { type: "text", text: loaded.content },
  ];
}
