import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { defineTool, type ToolDefinition } from "./define-tool.js";
import { STRUCTURED_OUTPUT_TOOL } from "./structured-output-limits.js";

/** A `--json-schema` that is not JSON Schema ajv can compile. */
export class OutputSchemaError extends Error {}

type JsonSchema = Record<string, unknown>;

/**
 * The tool the model answers a `--json-schema` run with: its input schema is the user's schema,
 * and input the schema rejects goes back to the model as an InputValidationError listing every
 * violation (before permission, like any malformed call). A schema whose root is not an object
 * (tool input must be one) is wrapped in `{output: …}` and unwrapped again.
 * Throws an `OutputSchemaError` for a schema that does not compile.
 */
export async function createStructuredOutputTool(schema: JsonSchema): Promise<ToolDefinition> {
  const validate = await compile(schema);
  const wrapped = !isObjectSchema(schema);
  const { $schema: _dialect, ...advertised } = schema;
  const inputJsonSchema = wrapped
    ? { type: "object", properties: { output: advertised }, required: ["output"], additionalProperties: false }
    : advertised;
  const unwrap = (input: Record<string, unknown>): unknown => (wrapped ? input.output : input);
  return defineTool({
    name: STRUCTURED_OUTPUT_TOOL,
    description:
      "Give your final answer in the structured format the user asked for. Call this exactly once, when the work is done, with the answer as its input; " +
      "the conversation ends when the input matches the schema. If it does not, you get the errors back: fix them and call it again.",
    inputSchema: z.record(z.string(), z.unknown()).check(
      z.superRefine((input, context) => {
        for (const issue of validate(unwrap(input)))
          context.addIssue({ code: "custom", path: wrapped ? ["output", ...issue.path] : issue.path, message: issue.message });
      }),
    ),
    inputJsonSchema,
    kind: "other",
    // Answering changes nothing outside the session: no permission question.
    sessionStateOnly: true,
    async execute(input): Promise<ToolResult> {
      const output = unwrap(input);
      return { content: "Structured output accepted.", isError: false, details: output, endTurn: { output } };
    },
  });
}

/** Object-rooted schemas are tool input as they are. */
function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === "object" || (schema.type === undefined && typeof schema.properties === "object");
}

interface SchemaIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * Compiles with the dialect the schema names: draft-07 by default, 2019-09 and 2020-12 (what
 * `z.toJSONSchema` emits) when `$schema` says so. Not strict: annotations ajv does not know
 * (`propertyOrdering`, vendor keys) are allowed, as model APIs allow them.
 */
async function compile(schema: JsonSchema): Promise<(value: unknown) => SchemaIssue[]> {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const module = dialect.includes("2020-12")
    ? await import("ajv/dist/2020.js")
    : dialect.includes("2019-09")
      ? await import("ajv/dist/2019.js")
      : await import("ajv");
  const { default: addFormats } = await import("ajv-formats");
  const Ajv = defaultExport(module) as typeof import("ajv").default;
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  (defaultExport(addFormats) as (ajv: unknown) => void)(ajv);
  let validate: import("ajv").ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new OutputSchemaError((error as Error).message);
  }
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => ({
      path: error.instancePath
        .split("/")
        .slice(1)
        .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~")),
      message:
        error.keyword === "additionalProperties"
          ? `${error.message}: ${String((error.params as { additionalProperty?: string }).additionalProperty)}`
          : (error.message ?? "invalid"),
    }));
  };
}

/** CommonJS modules reach ESM as `{default: module.exports}`, sometimes nested once more. */
function defaultExport(module: unknown): unknown {
  let value = module as { default?: unknown };
  while (typeof value === "object" || typeof value === "function") {
    if (value.default === undefined || value.default === value) break;
    value = value.default as { default?: unknown };
  }
  return value;
}
