import { ResponseAccumulator } from "../providers/response-accumulator.js";
import type { Provider, Usage } from "../providers/types.js";
import type { Skill } from "../skills/catalog.js";

const SYSTEM =
  "You choose which skills help with a request. Answer with only a JSON array of skill names, most useful first, including every name given.";
/** A name list of 20 skills fits well within this. */
const MAX_OUTPUT_TOKENS = 400;

/**
 * `--skill-ranking llm`: asks the session's own model, in a separate request with a fresh context
 * (no conversation, no tools), to order the best BM25 matches for this prompt. Its usage is
 * counted like any request's. Whatever goes wrong (an error, an answer that is not a list),
 * the BM25 order stands: ranking must never cost the turn.
 */
export async function rerankWithModel(input: {
  provider: Provider;
  model: string;
  sessionId: string;
  promptText: string;
  candidates: Skill[];
  signal: AbortSignal;
  onUsage: (usage: Usage, model: string) => void;
}): Promise<Skill[]> {
  const listing = input.candidates.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n");
  const accumulator = new ResponseAccumulator();
  try {
    const stream = input.provider.stream(
      {
        model: input.model,
        system: SYSTEM,
        messages: [{ role: "user", content: [{ type: "text", text: `Request:\n${input.promptText}\n\nSkills:\n${listing}` }] }],
        tools: [],
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        sessionId: input.sessionId,
      },
      input.signal,
    );
    for await (const event of stream) {
      if (event.type === "error") break;
      accumulator.apply(event);
    }
  } finally {
    if (accumulator.messageId) input.onUsage(accumulator.usage, accumulator.model || input.model);
  }
  const text = accumulator
    .blocks()
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("");
  const names = parseNameList(text);
  if (!names) return input.candidates;
  const byName = new Map(input.candidates.map((skill) => [skill.name, skill]));
  const chosen = [...new Set(names)].flatMap((name) => byName.get(name) ?? []);
  return [...chosen, ...input.candidates.filter((skill) => !chosen.includes(skill))];
}

/** The first JSON array of strings in the answer (models like to wrap it in prose or a code fence). */
function parseNameList(text: string): string[] | undefined {
  const match = /\[[\s\S]*?\]/.exec(text);
  if (!match) return undefined;
  try {
    const value: unknown = JSON.parse(match[0]);
    return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
  } catch {
    return undefined;
  }
}
