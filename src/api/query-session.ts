import path from "node:path";
import { PermissionResultSchema, type PermissionResult } from "../../protocol/control.js";
import type { OutputEvent } from "../../protocol/events.js";
import { chooseModel } from "../providers/model-choice.js";
import { createSession, type Session } from "../session/session.js";
import { SessionSetupError, type ToolApprover } from "../session/session-options.js";
import { sessionProjectTrust } from "../session/project-trust-policy.js";
import { flagsOverSettings } from "../settings/effective-settings.js";
import { loadSettings } from "../settings/load-settings.js";
import { settingsFingerprint } from "../trust/settings-fingerprint.js";
import { QueryDataOptionsSchema, type CanUseTool, type QueryOptions } from "./query-options.js";
import { agentwireHomeDirectory } from "./sessions.js";

/**
 * Validates the options, reads the settings files they select, and creates the session whose
 * events go to `onEvent`. Throws a `SessionSetupError` when the options cannot work.
 */
export function startSession(options: QueryOptions, onEvent: (event: OutputEvent) => void): Session {
  // process.env is not a plain object (its prototype is not Object.prototype): checked as a copy.
  const parsed = QueryDataOptionsSchema.safeParse(options.env ? { ...options, env: { ...options.env } } : options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SessionSetupError(
      `Invalid option ${issue?.path.join(".") || "(options)"}: ${issue?.message ?? "invalid"}`,
      "invalid_arguments",
    );
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
  const choice = chooseModel({
    model: flags.model,
    provider: data.provider,
    env: Object.keys(fileSettings.env).length === 0 ? env : { ...env, ...fileSettings.env },
  });
  if ("error" in choice)
    throw new SessionSetupError(choice.error.replace("--provider", "provider").replace("--model", "model"), "invalid_arguments");
  const systemPrompt = typeof data.systemPrompt === "string" ? data.systemPrompt : undefined;
  const append = [typeof data.systemPrompt === "object" ? data.systemPrompt.append : undefined, data.appendSystemPrompt]
    .filter(Boolean)
    .join("\n\n");
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
    ...(options.agents ? { agents: options.agents } : {}),
    trustProject,
    ...(data.settingSources ? { settingSources: data.settingSources } : {}),
    ...(data.sandbox ? { sandbox: data.sandbox } : {}),
    ...(data.sandboxAllowWrite ? { sandboxAllowWrite: data.sandboxAllowWrite } : {}),
    ...(data.sandboxNetwork === undefined ? {} : { sandboxNetwork: data.sandboxNetwork }),
    ...(data.passEnv ? { passEnv: data.passEnv } : {}),
    env,
    fileSettings,
    onEvent,
    ...(options.canUseTool ? { approve: approverFor(options.canUseTool) } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/** `canUseTool` as the session's approver; an answer that is not a PermissionResult is a denial saying why. */
function approverFor(canUseTool: CanUseTool): ToolApprover {
  return async (request, signal): Promise<PermissionResult> => {
    const answer = await canUseTool(request.toolName, request.input, {
      signal,
      suggestions: request.suggestions,
      toolUseID: request.toolUseId,
      decisionReason: request.reason,
      description: request.description,
      decisionReasonType: request.reasonType,
    });
    const parsed = PermissionResultSchema.safeParse(answer);
    if (!parsed.success)
      return {
        behavior: "deny",
        message: `canUseTool returned something that is not a PermissionResult: ${parsed.error.issues[0]?.message ?? ""}`,
      };
    return parsed.data;
  };
}
