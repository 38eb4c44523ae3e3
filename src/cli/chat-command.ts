import { join } from "node:path";
import type { ParsedCommand } from "./arguments.js";
import type { QueryOptions } from "../api/query.js";
import { agentwireHomeDirectory } from "../api/sessions.js";
import { Chat } from "../chat/chat.js";
import { wantsColor } from "../render/style.js";

/**
 * `agentwire chat [options]`: the run options of the command line as the library's query
 * options, then the chat. A terminal that can be redrawn gets the full line editor; a dumb
 * terminal, or input that is not a terminal, gets plain lines. Returns the exit code.
 */
export async function runChatCommand(command: Extract<ParsedCommand, { kind: "run" }>, env: NodeJS.ProcessEnv): Promise<number> {
  const { config } = command;
  const queryOptions: QueryOptions = {
    cwd: config.cwd,
    model: config.model,
    provider: config.provider,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.openaiApi ? { openaiApi: config.openaiApi } : {}),
    ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}),
    ...(config.maxTurns ? { maxTurns: config.maxTurns } : {}),
    ...(config.maxThinkingTokens ? { maxThinkingTokens: config.maxThinkingTokens } : {}),
    ...(command.promptFiles.systemPrompt ? { systemPrompt: command.promptFiles.systemPrompt } : {}),
    ...(command.promptFiles.appendSystemPrompt ? { appendSystemPrompt: command.promptFiles.appendSystemPrompt } : {}),
    permissionMode: config.permissionMode,
    allowedTools: config.allowedTools,
    disallowedTools: config.disallowedTools,
    ...(config.tools ? { tools: config.tools } : {}),
    additionalDirectories: config.addDirs,
    ...(config.resume ? { resume: config.resume } : {}),
    continue: config.continue,
    forkSession: config.forkSession,
    ...(config.sessionId ? { sessionId: config.sessionId } : {}),
    persistSession: config.persistSession,
    // Never dropped: a chat asked to sandbox its commands must not run them unconfined.
    sandbox: config.sandbox,
    sandboxAllowWrite: config.sandboxAllowWrite,
    sandboxNetwork: config.sandboxNetwork,
    trustProject: config.trustProject,
    // --agents, through the library's option: in a chat no host adds definitions above them.
    ...(config.cliAgents !== undefined ? { agents: config.cliAgents as Record<string, unknown> } : {}),
    ...(config.settingSources ? { settingSources: config.settingSources } : {}),
    // The library reads the settings files again, and applies what no option above carries (hooks, env, ask rules).
    ...(config.settings !== undefined ? { settings: config.settings } : {}),
    env,
  };
  const fancy = process.stdin.isTTY === true && process.stdout.isTTY === true && env.TERM !== "dumb";
  const chat = new Chat({
    queryOptions,
    input: process.stdin,
    output: process.stdout,
    fancy,
    color: wantsColor(process.stdout, env),
    historyFile: join(agentwireHomeDirectory(env), "chat-history.jsonl"),
    ...(command.prompt ? { firstPrompt: command.prompt } : {}),
  });
  const signals = ["SIGTERM", "SIGHUP"] as const;
  for (const signal of signals) process.once(signal, () => void chat.exit(signal === "SIGTERM" ? 143 : 129));
  return chat.run();
}
