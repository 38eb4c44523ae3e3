/**
 * The `--json-schema` tool's name and retry limit, apart from the tool itself (which compiles
 * schemas with ajv): the result builder needs them on every path, the tool only when a schema
 * is given.
 */

/** Claude Code's name for the tool that carries a `--json-schema` answer. */
export const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";

/** Further attempts a model gets after answering without the tool or with input the schema rejects. */
export const MAX_STRUCTURED_OUTPUT_RETRIES = 5;
