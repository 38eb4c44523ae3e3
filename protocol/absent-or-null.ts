import type * as z from "zod";

/**
 * An optional field of something a host sends, where `null` means the same as leaving it out:
 * the Python Agent SDK writes an unset option as `None`, which is JSON `null`, where the
 * TypeScript SDK omits the key, and Claude Code reads both alike. Parsed, `null` becomes
 * `undefined`, so the code behind the boundary only ever sees "absent". The schema of a field
 * whose `null` means something of its own (`set_max_thinking_tokens`) says so instead.
 */
export function absentOrNull<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .optional();
}
