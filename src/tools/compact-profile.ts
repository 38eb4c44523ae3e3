import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { CompactToolName } from "./builtin-tool-traits.js";
import type { ToolDefinition } from "./define-tool.js";

/**
 * `--tool-profile compact`: for small local models, whose context cannot afford the ~17 KB of
 * the default tool definitions. Bash, Read and Write with one-line descriptions and thin
 * schemas (plus the Skill tool, which the skills module shortens itself); everything else is
 * learnt from skills. Validation stays strict: a call with a field the thin schema lacks is an
 * input error the model can act on, never guessed at. The schemas are built only for a session
 * that asks for the profile.
 */
const COMPACT: Record<CompactToolName, { description: string; inputSchema: () => z.ZodMiniObject }> = {
  Bash: {
    description: "Run a shell command in the working directory and get its stdout and stderr. timeout in ms (default 120000).",
    inputSchema: () => z.strictObject({ command: z.string(), timeout: z.optional(z.number().check(z.positive(), z.maximum(600_000))) }),
  },
  Read: {
    description: "Read a file: numbered lines (offset and limit page through long files), or an image.",
    inputSchema: () =>
      z.strictObject({
        file_path: z.string(),
        offset: z.optional(z.int().check(z.nonnegative())),
        limit: z.optional(z.int().check(z.positive())),
      }),
  },
  Write: {
    description: "Create or overwrite a file with content.",
    inputSchema: () => z.strictObject({ file_path: z.string(), content: z.string() }),
  },
};

/** The compact form of a built-in tool: same behaviour, short description, thin schema. */
export function compactTool(tool: ToolDefinition): ToolDefinition {
  const compact = (COMPACT as Partial<Record<string, (typeof COMPACT)[CompactToolName]>>)[tool.name];
  if (!compact) throw new Error(`${tool.name} has no compact form`);
  // The tool's other fields are copied as they are: a spread would read its full input schema,
  // and so build it at the session's start rather than at the first call.
  const { inputSchema: _full, description: _long, execute: _execute, ...fields } = Object.getOwnPropertyDescriptors(tool);
  const compactForm: ToolDefinition = {
    name: tool.name,
    kind: tool.kind,
    description: compact.description,
    inputSchema: compact.inputSchema(),
    // The thin input is a valid full input; the full schema adds its defaults.
    execute: (input, context) => tool.execute(z.parse(tool.inputSchema, input), context),
  };
  return Object.defineProperties(compactForm, fields);
}
