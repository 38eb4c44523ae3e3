/**
 * Parse options for a schema checked once per process (the command line, a session's settings).
 * On an object schema's first parse zod compiles a parser specialised to its shape; for the
 * settings that costs ~2 ms before the first stdout line and never pays back.
 */
export const PARSE_ONCE = { jitless: true } as const;
