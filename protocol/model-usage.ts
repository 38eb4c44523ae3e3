import * as z from "zod";

/**
 * One model's usage in `result.modelUsage` (and in session files' `turn_end`). In a file of its
 * own so that the session store can validate it without building every event schema at start-up.
 */
export const ModelUsageEntrySchema = z.strictObject({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadInputTokens: z.number().int().nonnegative(),
  cacheCreationInputTokens: z.number().int().nonnegative(),
  webSearchRequests: z.number().int().nonnegative(),
  costUSD: z.number().nonnegative(),
  contextWindow: z.number().int().nonnegative(),
  maxOutputTokens: z.number().int().nonnegative(),
});
