import { z } from "zod";
import { PermissionModeSchema } from "../../protocol/commands.js";
import { PROVIDER_IDS } from "../providers/registry.js";

export const OutputFormatSchema = z.enum(["text", "json", "stream-json"]);
export const InputFormatSchema = z.enum(["text", "stream-json"]);

export { PermissionModeSchema } from "../../protocol/commands.js";

/** A validated run configuration, from argv. Prompts are resolved separately (they may come from stdin or files). */
export const RunConfigSchema = z.object({
  outputFormat: OutputFormatSchema,
  inputFormat: InputFormatSchema,
  provider: z.enum(PROVIDER_IDS),
  model: z.string().min(1),
  /** `--base-url`: the model API's endpoint, overriding the provider's default and *_BASE_URL. */
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** `--openai-api`: Chat Completions or Responses for OpenAI-family providers (default: per model). */
  openaiApi: z.enum(["chat", "responses"]).optional(),
  /** `--context-window`: the model's context in tokens, for models agentwire does not know (local ones). */
  contextWindow: z.number().int().positive().optional(),
  maxTurns: z.number().int().positive().optional(),
  maxThinkingTokens: z.number().int().positive().optional(),
  cwd: z.string().min(1),
  includePartialMessages: z.boolean(),
  /** A session id; never a path (it becomes a file name under the sessions folder). */
  resume: z
    .string()
    .regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, "must be a session id (letters, digits, '-', '_', '.'), not a path")
    .optional(),
  continue: z.boolean(),
  sessionId: z.uuid().optional(),
  sessionPersistence: z.boolean(),
  permissionMode: PermissionModeSchema,
  /** Claude Code permission rules (`Read`, `Bash(npm run:*)`): allowed without asking / always refused. */
  allowedTools: z.array(z.string()),
  disallowedTools: z.array(z.string()),
  /** `stdio`: ask the host with can_use_tool control requests. */
  permissionPromptTool: z.string().optional(),
  /** `--tools`: the tool names to offer (undefined = the default set; see selectTools). */
  tools: z.array(z.string()).optional(),
  /** `--add-dir`: more absolute directories tools may use besides cwd. */
  addDirs: z.array(z.string()),
  debug: z.boolean(),
});

export type RunConfig = z.infer<typeof RunConfigSchema>;
export type OutputFormat = z.infer<typeof OutputFormatSchema>;
