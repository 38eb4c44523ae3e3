/**
 * Parse options for a schema checked once or a few times per process: the command line, a
 * session's settings, a tool's input (most runs call each tool a handful of times). On an object
 * schema's first parse zod compiles a parser specialised to its shape (`new Function`, which no
 * code cache keeps): ~2 ms for the settings before the first stdout line, ~0.3 ms for a tool's
 * first call, and it pays back only after some fifty parses of the same schema.
 */
export const PARSE_ONCE = { jitless: true } as const;
