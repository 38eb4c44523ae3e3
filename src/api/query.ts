import { randomUUID } from "node:crypto";
import path from "node:path";
import * as z from "zod";
import { PermissionModeSchema, SimpleUserCommandSchema, UserMessageCommandSchema } from "../../protocol/commands.js";
import { PermissionResultSchema, type PermissionResult, type PermissionUpdate } from "../../protocol/control.js";
import type { OutputEvent } from "../../protocol/events.js";
import type { UserMessage } from "../conversation/messages.js";
import type { PermissionMode } from "../permissions/policy.js";
import { chooseModel } from "../providers/model-choice.js";
import { resolveModelAlias } from "../providers/models.js";
import type { SessionHooks } from "../session/hook-runners.js";
import { buildFailureResult } from "../session/result.js";
import { createSession, type Session } from "../session/session.js";
import { SessionSettingsSchema, SessionSetupError, SETTING_SOURCES, type SessionLogger, type ToolApprover } from "../session/session-options.js";
import { toUserMessage } from "../session/user-input.js";
import { sessionProjectTrust } from "../session/project-trust-policy.js";
import { flagsOverSettings } from "../settings/effective-settings.js";
import { loadSettings } from "../settings/load-settings.js";
import { settingsFingerprint } from "../trust/settings-fingerprint.js";
import { agentwireHomeDirectory } from "./sessions.js";
import { EventQueue } from "./event-queue.js";

/**
 * Decides a permission question the session's rules leave open, as the Claude Agent SDK's
 * `canUseTool` does: allow (optionally with a replaced input) or deny (optionally interrupting
 * the turn); either may carry `updatedPermissions` ("always allow") for the rest of the session.
 */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: {
    signal: AbortSignal;
    suggestions: PermissionUpdate[];
    toolUseID: string;
    decisionReason: string;
    /** agentwire's: the call in one line (its command, path or pattern), and what made it need asking. */
    description: string;
    decisionReasonType: "rule" | "mode" | "workingDir" | "risk";
  },
) => Promise<z.input<typeof PermissionResultSchema>>;

/** A user message of a streamed prompt: the Agent SDK's SDKUserMessage shape, or a plain string. */
export type QueryUserMessage = string | z.input<typeof UserMessageCommandSchema> | z.input<typeof SimpleUserCommandSchema>;

/** The data options, validated at the boundary; unknown keys (other Agent SDK options) are ignored. */
const QueryDataOptionsShape = {
  cwd: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  provider: z.optional(SessionSettingsSchema.shape.provider),
  baseUrl: SessionSettingsSchema.shape.baseUrl,
  openaiApi: SessionSettingsSchema.shape.openaiApi,
  contextWindow: SessionSettingsSchema.shape.contextWindow,
  /** A string replaces the default prompt; the SDK's `{type: "preset", append}` keeps it and appends. */
  systemPrompt: z.union([z.string(), z.looseObject({ type: z.literal("preset"), preset: z.string().optional(), append: z.string().optional() })]).optional(),
  appendSystemPrompt: z.string().optional(),
  maxTurns: SessionSettingsSchema.shape.maxTurns,
  maxThinkingTokens: SessionSettingsSchema.shape.maxThinkingTokens,
  maxRetries: z.number().int().nonnegative().optional(),
  streamIdleTimeoutMs: z.number().int().positive().optional(),
  permissionMode: z.optional(PermissionModeSchema),
  allowedTools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  tools: z.array(z.string()).optional(),
  additionalDirectories: z.array(z.string().min(1)).optional(),
  resume: SessionSettingsSchema.shape.resume,
  continue: z.boolean().optional(),
  /** With `resume`/`continue`: continue in a new session that starts as a copy. */
  forkSession: z.boolean().optional(),
  sessionId: SessionSettingsSchema.shape.sessionId,
  persistSession: z.boolean().optional(),
  includePartialMessages: z.boolean().optional(),
  /**
   * agentwire's Bash sandbox (the CLI's --sandbox flags): a mode string, not the Agent SDK's
   * `sandbox` object, which is refused rather than ignored, so commands never run unconfined by mistake.
   */
  sandbox: z.optional(SessionSettingsSchema.shape.sandbox),
  sandboxAllowWrite: z.array(z.string().min(1)).optional(),
  sandboxNetwork: z.boolean().optional(),
  /** Credential variables (keys, tokens, passwords) handed to Bash commands and MCP servers, which otherwise never see one (the CLI's --pass-env). */
  passEnv: z.optional(SessionSettingsSchema.shape.passEnv),
  /** The answer's JSON Schema: the result carries it as `structured_output` (the Agent SDK's option). */
  outputFormat: z.looseObject({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) }).optional(),
  /** MCP servers to start (stdio) or reach (http, sse), in the Agent SDK's format; in-process (`sdk`) servers are not supported here. */
  mcpServers: z.optional(SessionSettingsSchema.shape.mcpServers),
  /**
   * Trust what the project brings (its skills' `allowed-tools`) for this query only, as the CLI's
   * --trust-project; default: only what `agentwire trust` recorded. The library never reads a
   * project's `.mcp.json`: its servers are the ones passed in `mcpServers`.
   */
  trustProject: z.boolean().optional(),
  /**
   * The Agent SDK's setting sources: which of the settings files (~/.claude/settings.json and
   * $AGENTWIRE_HOME/settings.json for `user`, .claude/settings.json, .claude/settings.local.json)
   * are read; default all, `[]` none. Without `project`, nothing the project brings takes effect.
   */
  settingSources: z.array(z.enum(SETTING_SOURCES)).optional(),
  /** The Agent SDK's `settings`: more settings over the files, as a settings.json path, its JSON text, or the object (the CLI's --settings). */
  settings: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
};
const QueryDataOptionsSchema = z.looseObject(QueryDataOptionsShape);

// From the plain object: a loose object's index signature would erase every named key under Omit.
export interface QueryOptions extends Omit<z.input<z.ZodObject<typeof QueryDataOptionsShape>>, "env"> {
  /** Credentials and endpoints (`ANTHROPIC_API_KEY`, `OPENAI_BASE_URL`, …). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Aborting interrupts the running turn (it still ends with its `result`) and ends the query. */
  abortSignal?: AbortSignal;
  /** The Agent SDK's spelling of `abortSignal`. */
  abortController?: AbortController;
  /** Answers permission questions; without it they are denied at once (nobody to ask). */
  canUseTool?: CanUseTool;
  /** Hooks of Claude Code's events (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, …) as plain functions; they run beside the settings files' hooks. */
  hooks?: SessionHooks;
  /** Where agentwire's diagnostics go (pino-compatible); default: nowhere. Never stdout. */
  logger?: SessionLogger;
}

/** The running query: the session's events in order, plus controls while it runs. */
export interface Query extends AsyncGenerator<OutputEvent, void> {
  /** Stops the running turn; it ends with an `error_during_execution` result and the query goes on. */
  interrupt(): Promise<void>;
  /** From the next model request on; no argument returns to the first model. Aliases resolve. */
  setModel(model?: string): Promise<void>;
  setPermissionMode(mode: PermissionMode): Promise<void>;
  /** Ends the query now: no further prompts are taken, the running turn is interrupted. */
  close(): void;
}

/**
 * Runs an agent session in this process and yields exactly the objects `agentwire
 * --output-format stream-json` prints (validated by protocol/'s OutputEventSchema): for each user
 * message a `system/init`, the turn's events, and its `result`. `prompt` is one message, or an
 * async iterable of messages that are run one after another as they arrive. Shaped after the
 * Claude Agent SDK's `query()`; the differences are listed in the README.
 *
 * Contract: never throws. Bad options or an unknown session end the query with one error
 * `result`; every turn ends with its `result`. Nothing is written to stdout, no signal or exit
 * handler is installed, no child process runs the agent; the provider's SDK loads on the first
 * model request.
 */
export function query(input: { prompt: string | AsyncIterable<QueryUserMessage>; options?: QueryOptions }): Query {
  const options = input.options ?? {};
  const queue = new EventQueue<OutputEvent>();
  const startedAt = Date.now();
  let session: Session | undefined;
  let closed = false;
  const abortSignal = options.abortSignal ?? options.abortController?.signal;

  const endWithError = (message: string, terminalReason: "invalid_arguments" | "session_not_found" | "session_unreadable" | "internal_error"): void => {
    queue.push(buildFailureResult({ sessionId: session?.sessionId ?? randomUUID(), terminalReason, message, durationMs: Date.now() - startedAt, newUuid: randomUUID }));
  };
  const close = (): void => {
    if (closed) return;
    closed = true;
    // The interrupted turn still ends with its result; the queue ends once the session is idle.
    if (session) void session.close().finally(() => queue.end());
    else queue.end();
  };
  const onAbort = (): void => close();

  const drive = async (): Promise<void> => {
    try {
      session = startSession(options, queue);
      const outputSchema = options.outputFormat?.schema;
      if (outputSchema) {
        await session.setOutputSchema(outputSchema).catch((error: Error) => {
          throw new SessionSetupError(`Invalid option outputFormat.schema: not a valid JSON Schema: ${error.message}`, "invalid_arguments");
        });
      }
    } catch (error) {
      if (error instanceof SessionSetupError) endWithError(error.message, error.terminalReason);
      else endWithError(`agentwire could not start the session: ${(error as Error).message}`, "internal_error");
      closed = true;
      queue.end();
      return;
    }
    if (abortSignal?.aborted) return close();
    abortSignal?.addEventListener("abort", onAbort, { once: true });
    try {
      for await (const message of userMessages(input.prompt)) {
        if (closed) break;
        await session.mcpReady();
        queue.push(await session.initEvent());
        await session.runTurn(message);
      }
    } catch (error) {
      // A malformed streamed message, or the caller's iterable threw: say so in-protocol.
      if (!closed) endWithError((error as Error).message, "invalid_arguments");
    } finally {
      abortSignal?.removeEventListener("abort", onAbort);
      close();
    }
  };
  void drive();

  async function* events(): AsyncGenerator<OutputEvent, void> {
    try {
      yield* queue;
    } finally {
      // The consumer stopped iterating (break, return, throw): nothing more to run.
      close();
    }
  }
  return Object.assign(events(), {
    interrupt: async () => void session?.interrupt(),
    setModel: async (model?: string) => session?.setModel(model === undefined ? undefined : resolveModelAlias(model)),
    setPermissionMode: async (mode: PermissionMode) => session?.setPermissionMode(PermissionModeSchema.parse(mode)),
    close,
  });
}

/** Validates the options and creates the session whose events go to `queue`. */
function startSession(options: QueryOptions, queue: EventQueue<OutputEvent>): Session {
  // process.env is not a plain object (its prototype is not Object.prototype): checked as a copy.
  const parsed = QueryDataOptionsSchema.safeParse(options.env ? { ...options, env: { ...options.env } } : options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SessionSetupError(`Invalid option ${issue?.path.join(".") || "(options)"}: ${issue?.message ?? "invalid"}`, "invalid_arguments");
  }
  const data = parsed.data;
  const env = options.env ?? process.env;
  const cwd = path.resolve(data.cwd ?? process.cwd());
  const trustProject = data.trustProject ?? false;
  const loaded = loadSettings({
    settingsFingerprint,
    flag: data.settings,
    sources: data.settingSources,
    cwd,
    processCwd: process.cwd(),
    env,
    agentwireHome: agentwireHomeDirectory(env),
    trust: sessionProjectTrust({ trustProject }, agentwireHomeDirectory(env)),
  });
  if ("error" in loaded) throw new SessionSetupError(loaded.error.replaceAll("--settings", "settings"), "invalid_arguments");
  const fileSettings = loaded.settings;
  const flags = flagsOverSettings(
    {
      model: data.model,
      permissionMode: data.permissionMode,
      allowedTools: data.allowedTools ?? [],
      disallowedTools: data.disallowedTools ?? [],
      addDirs: (data.additionalDirectories ?? []).map((directory) => path.resolve(cwd, directory)),
    },
    fileSettings,
  );
  const choice = chooseModel({ model: flags.model, provider: data.provider, env: Object.keys(fileSettings.env).length === 0 ? env : { ...env, ...fileSettings.env } });
  if ("error" in choice) throw new SessionSetupError(choice.error.replace("--provider", "provider").replace("--model", "model"), "invalid_arguments");
  const systemPrompt = typeof data.systemPrompt === "string" ? data.systemPrompt : undefined;
  const append = [typeof data.systemPrompt === "object" ? data.systemPrompt.append : undefined, data.appendSystemPrompt].filter(Boolean).join("\n\n");
  return createSession({
    cwd,
    addDirs: flags.addDirs,
    provider: choice.provider,
    model: choice.model,
    ...(data.baseUrl ? { baseUrl: data.baseUrl } : {}),
    ...(data.openaiApi ? { openaiApi: data.openaiApi } : {}),
    ...(data.contextWindow ? { contextWindow: data.contextWindow } : {}),
    ...(data.maxTurns ? { maxTurns: data.maxTurns } : {}),
    ...(data.maxThinkingTokens ? { maxThinkingTokens: data.maxThinkingTokens } : {}),
    ...(data.maxRetries === undefined ? {} : { maxRetries: data.maxRetries }),
    ...(data.streamIdleTimeoutMs === undefined ? {} : { streamIdleTimeoutMs: data.streamIdleTimeoutMs }),
    includePartialMessages: data.includePartialMessages ?? false,
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    ...(append ? { appendSystemPrompt: append } : {}),
    permissionMode: flags.permissionMode,
    allowedTools: flags.allowedTools,
    disallowedTools: flags.disallowedTools,
    ...(data.tools ? { tools: data.tools } : {}),
    ...(data.resume ? { resume: data.resume } : {}),
    continue: data.continue ?? false,
    forkSession: data.forkSession ?? false,
    ...(data.sessionId ? { sessionId: data.sessionId } : {}),
    persistSession: data.persistSession ?? true,
    ...(data.mcpServers ? { mcpServers: data.mcpServers } : {}),
    trustProject,
    ...(data.settingSources ? { settingSources: data.settingSources } : {}),
    ...(data.sandbox ? { sandbox: data.sandbox } : {}),
    ...(data.sandboxAllowWrite ? { sandboxAllowWrite: data.sandboxAllowWrite } : {}),
    ...(data.sandboxNetwork === undefined ? {} : { sandboxNetwork: data.sandboxNetwork }),
    ...(data.passEnv ? { passEnv: data.passEnv } : {}),
    env,
    fileSettings,
    onEvent: (event) => queue.push(event),
    ...(options.canUseTool ? { approve: approverFor(options.canUseTool) } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/** `canUseTool` as the session's approver; an answer that is not a PermissionResult is a denial saying why. */
function approverFor(canUseTool: CanUseTool): ToolApprover {
  return async (request, signal): Promise<PermissionResult> => {
    const answer = await canUseTool(request.toolName, request.input, { signal, suggestions: request.suggestions, toolUseID: request.toolUseId, decisionReason: request.reason, description: request.description, decisionReasonType: request.reasonType });
    const parsed = PermissionResultSchema.safeParse(answer);
    if (!parsed.success) return { behavior: "deny", message: `canUseTool returned something that is not a PermissionResult: ${parsed.error.issues[0]?.message ?? ""}` };
    return parsed.data;
  };
}

/** The prompt as conversation messages, validated one by one as they arrive. */
async function* userMessages(prompt: string | AsyncIterable<QueryUserMessage>): AsyncGenerator<UserMessage> {
  if (typeof prompt === "string") {
    yield toUserMessage(prompt);
    return;
  }
  let position = 0;
  for await (const message of prompt) {
    position++;
    if (typeof message === "string") {
      yield toUserMessage(message);
      continue;
    }
    const parsed = z.union([UserMessageCommandSchema, SimpleUserCommandSchema]).safeParse(message);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`Prompt message ${position} is not a user message: ${issue ? `${issue.path.join(".") || "(message)"}: ${issue.message}` : "invalid"}`);
    }
    yield toUserMessage("message" in parsed.data ? parsed.data.message.content : parsed.data.content);
  }
}

