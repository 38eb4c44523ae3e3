import type { Skill } from "./catalog.js";

/** The listing's opening line (Claude Code opens its listing with a line of its own; this one is agentwire's). */
export const LISTING_HEADER = "Skills you can load with the Skill tool:";

/**
 * The listing the model sees before a prompt: `- name: description` lines within `budgetChars`.
 * `skills` are the model-invocable skills in discovery order; `ranked` the same, most relevant to
 * this prompt first.
 * When every skill fits, they keep their discovery order; when not, `ranked` (most relevant to
 * this prompt first) decides who gets a description, and the rest appear by name only, so the
 * model still knows they exist and can look them up with the Skill tool's `query`.
 */
export function skillListing(
  skills: readonly Skill[],
  ranked: ReadonlyArray<{ skill: Skill; score: number }>,
  budgetChars: number,
): string {
  if (skills.length === 0) return "";
  if (listingFits(skills, budgetChars)) return `${LISTING_HEADER}\n\n${skills.map(fullLine).join("\n")}`;
  const described: string[] = [];
  const namesOnly: string[] = [];
  let used = 0;
  for (const { skill, score } of ranked) {
    const line = fullLine(skill);
    // A skill that shares no word with the prompt is not worth the room of its description.
    if (score > 0 && used + line.length + 1 <= budgetChars) {
      described.push(line);
      used += line.length + 1;
    } else {
      namesOnly.push(skill.name);
    }
  }
  const others =
    namesOnly.length > 0 ? `\n\nMore skills (ask the Skill tool with \`query\` for their descriptions): ${namesOnly.join(", ")}` : "";
  return `${LISTING_HEADER}\n\n${described.join("\n")}${others}`;
}

/** Whether every skill gets its full line within the budget (then no ranking is needed). */
export function listingFits(skills: readonly Skill[], budgetChars: number): boolean {
  return skills.reduce((sum, skill) => sum + fullLine(skill).length + 1, 0) <= budgetChars;
}

function fullLine(skill: Skill): string {
  const when = skill.whenToUse ? ` ${skill.whenToUse}` : "";
  return `- ${skill.name}: ${skill.description}${when}`;
}
