/**
 * One model's usage in `result.modelUsage` (and in session files' `turn_end`): whole-number
 * counts, and its cost in US dollars. Data, not a schema: the result event builds its schema with
 * classic zod (events.ts), the session store, which start-up loads, with `zod/mini`; both from
 * these names (the rule: src/validation/english-issues.ts).
 */
export const MODEL_USAGE_COUNTS = [
  "inputTokens",
  "outputTokens",
  "cacheReadInputTokens",
  "cacheCreationInputTokens",
  "webSearchRequests",
  "contextWindow",
  "maxOutputTokens",
] as const;

type CountName = (typeof MODEL_USAGE_COUNTS)[number];

/** The fields of one model's usage entry, each built by `count` (or `cost` for costUSD), in the order they are written. */
export function modelUsageFields<Count, Cost>(count: () => Count, cost: () => Cost): Record<CountName, Count> & { costUSD: Cost } {
  const counts = Object.fromEntries(MODEL_USAGE_COUNTS.map((name) => [name, count()])) as Record<CountName, Count>;
  const { contextWindow, maxOutputTokens, ...before } = counts;
  return { ...before, costUSD: cost(), contextWindow, maxOutputTokens };
}
