import * as z from "zod/mini";
import "../validation/english-issues.js";
import { McpServerNameSchema } from "../mcp/mcp-config.js";
import { SessionSettingsSchema } from "../session/session-options.js";

export const OutputFormatSchema = z.enum(["text", "json", "stream-json"]);
export const InputFormatSchema = z.enum(["text", "stream-json"]);
export const EventDialectSchema = z.enum(["claude", "flat"]);
/** Five minutes: long enough for a person to read the question, short enough that CI does not hang. */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 300;

export { PERMISSION_MODES } from "../../protocol/permission-mode.js";

/**
 * A validated run configuration, from argv: the session's settings (the same schema the library
 * validates) plus what only the command line has. Prompts are resolved separately (they may come
 * from stdin or files).
 */
export const RunConfigSchema = z.extend(
  z.omit(SessionSettingsSchema, { systemPrompt: true, appendSystemPrompt: true, maxRetries: true, streamIdleTimeoutMs: true }),
  {
    outputFormat: OutputFormatSchema,
    inputFormat: InputFormatSchema,
    /** `stdio`: ask the host with can_use_tool control requests. */
    permissionPromptTool: z.optional(z.string()),
    debug: z.boolean(),
    /** Install the bundled skills into $AGENTWIRE_HOME/skills when that folder does not exist yet. */
    defaultSkills: z.boolean(),
    /** `--json-schema`: the answer's JSON Schema (compiled when the session starts). */
    outputSchema: z.optional(z.record(z.string(), z.unknown())),
    /** Text mode: the run's progress on stderr (also on by default when stderr is a terminal). */
    verbose: z.boolean(),
    /** `--output-last-message FILE`: the final answer is also written to this file (absolute path). */
    outputLastMessage: z.optional(z.string()),
    /** stream-json: Claude Code's events, or the flat list of the seed design (protocol/flat-events.ts). */
    eventDialect: EventDialectSchema,
    /** `--settings` as given (a file or JSON text); what it holds is already applied, this is for `agentwire chat`, which hands it to the library. */
    settings: z.optional(z.string()),
    /** `start` approval frames: how long a question waits for the host before it is denied. */
    approvalTimeoutMs: z.int().check(z.positive()),
    /** The host's in-process MCP servers named in `--mcp-config` (`type: "sdk"`): served through its control channel. */
    hostMcpServers: z.array(McpServerNameSchema),
    /** `type: "sdk"` entries of the project's `.mcp.json`: only a host can declare those, so they are reported as failed. */
    projectSdkMcpServers: z.array(McpServerNameSchema),
  },
);

export type RunConfig = z.infer<typeof RunConfigSchema>;
export type OutputFormat = z.infer<typeof OutputFormatSchema>;
