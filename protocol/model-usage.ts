import * as z from "zod/mini";

const count = () => z.int().check(z.nonnegative());

/**
 * One model's usage in `result.modelUsage` (and in session files' `turn_end`). In a file of its
 * own so that the session store can validate it without building every event schema at start-up;
 * a `zod/mini` schema, as the CLI's start-up path builds it.
 */
export const ModelUsageEntrySchema = z.strictObject({
  inputTokens: count(),
  outputTokens: count(),
  cacheReadInputTokens: count(),
  cacheCreationInputTokens: count(),
  webSearchRequests: count(),
  costUSD: z.number().check(z.nonnegative()),
  contextWindow: count(),
  maxOutputTokens: count(),
});
