import { randomBytes, randomUUID } from "../../text/random-uuid.js";
import { platform } from "node:os";
import type { OutputEvent } from "../../../protocol/events.js";
import type { AgentEvent } from "../../agent/events.js";
import { runTurn, type TurnOutcome } from "../../agent/loop.js";
import { subagentSystemPrompt } from "../../agent/system-prompt.js";
import type { AgentDefinition } from "../../agents/agent-definition.js";
import type { ToolUseBlock } from "../../conversation/messages.js";
import { mcpServerNameCovers } from "../../permissions/rule-syntax.js";
import type { ToolResult } from "../../conversation/tool-result.js";
import { resolveModelAlias } from "../../providers/models.js";
import { describeCall } from "../../render/present/tool-call.js";
import type { ToolDefinition } from "../../tools/define-tool.js";
import type { HookStop } from "../hook-runners.js";
import { loopDependencies, turnSettings, type TurnScope } from "../loop-wiring.js";
import type { ModelProfile } from "../model-profile.js";
import type { SessionParts } from "../session-parts.js";
import type { TranslationContext } from "../wire/stream-lines.js";
import { nestedLines, taskProgressLine, type TaskRef, type TaskUsage } from "../wire/subagent-lines.js";
import { AGENT_TOOL_INIT_NAME, AGENT_TOOL_NAME, type AgentInput } from "./agent-tool.js";
import { forkedConversation } from "./fork-conversation.js";
import { endingOf, reportFile, type Ending } from "./subagent-ending.js";
import { SUBAGENT_LIMITS } from "./subagent-limits.js";
import { totalTokens, type SubagentRun } from "./subagent-report.js";
import { countOnce } from "./subagent-stats.js";
import type { Subagents } from "./subagents.js";

/** Who starts the subagent: the turn it nests in, and how deep that turn already is. */
export interface AgentCallOrigin {
  parts: SessionParts;
  subagents: Subagents;
  /** The loop that made the Agent call (the main conversation's, or a subagent's). */
  turn: TurnScope;
  /** 0 for the main conversation, N inside a depth-N subagent. */
  depth: number;
}

/** How an Agent call made inside a subagent is run (handed in: the module that runs calls imports this one). */
export type RunAgentCall = (origin: AgentCallOrigin, call: ToolUseBlock, signal: AbortSignal) => Promise<ToolResult>;

/** One subagent, set up to run: its identity on the wire, what it runs with, and what it has done so far. */
export interface Subagent {
  task: TaskRef;
  definition: AgentDefinition;
  prompt: string;
  depth: number;
  profile: ModelProfile;
  maxTurns: number;
  outputFile: string;
  context: TranslationContext;
  startedAt: number;
  run: SubagentRun;
}

/**
 * Where the subagent's loop reports what concerns more than itself. A foreground subagent's
 * owner is the turn that waits for it; a background one's is the session.
 */
export interface SubagentOwner {
  /** Its lines for hosts (nested under the Agent call). */
  line: (event: OutputEvent) => void;
  /** Session-wide news from its loop: a warning, a denied tool call. */
  emit: (event: AgentEvent) => void;
  /** A hook's `continue: false` inside it. */
  noteHookStop: (stop: HookStop) => void;
  /** A host's answer that stops everything (a denial with `interrupt`). */
  interrupt: () => void;
}

export function prepareSubagent(
  origin: AgentCallOrigin,
  call: ToolUseBlock,
  input: AgentInput,
  definition: AgentDefinition,
  depth: number,
): Subagent {
  const { parts } = origin;
  const agentId = `a${randomBytes(8).toString("hex")}`;
  const profile = parts.profileOf(modelFor(parts, definition, input, origin.turn.profile.model));
  return {
    task: { taskId: agentId, runId: randomUUID(), toolUseId: call.id, description: input.description, subagentType: definition.name },
    definition,
    prompt: input.prompt,
    depth,
    profile,
    maxTurns: definition.maxTurns ?? SUBAGENT_LIMITS.maxTurns,
    outputFile: reportFile(parts.outputDirectory, agentId),
    context: { sessionId: parts.sessionId, includePartialMessages: false, newUuid: randomUUID, now: Date.now },
    startedAt: Date.now(),
    run: {
      agentId,
      agentType: definition.name,
      prompt: input.prompt,
      resolvedModel: profile.model,
      toolsUsed: [],
      toolUseCount: 0,
      toolCounts: {},
      usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      durationMs: 0,
    },
  };
}

/** What it has used so far; `inFlight`: tokens of a response still streaming, not yet in its usage. */
export function usageSoFar(sub: Subagent, inFlight = 0): TaskUsage {
  return { totalTokens: totalTokens(sub.run) + inFlight, toolUses: sub.run.toolUseCount, durationMs: Date.now() - sub.startedAt };
}

/**
 * Runs the subagent's own Think → Act → Observe loop (the same loop and session parts as the
 * main conversation, with its own conversation, prompt, tools and limits) to its end. Its tool
 * calls reach stdout nested under the Agent call; its requests count in the session's modelUsage
 * and cost. Never throws.
 */
export async function runSubagentLoop(
  origin: AgentCallOrigin,
  sub: Subagent,
  owner: SubagentOwner,
  signal: AbortSignal,
  runAgentCall: RunAgentCall,
): Promise<{ outcome: TurnOutcome | undefined; ending: Ending }> {
  const { parts, subagents } = origin;
  const { task, run, context, definition } = sub;
  subagents.counters.spawned(definition.name, sub.depth);
  const emit = (event: AgentEvent): void => {
    if (event.type === "warning" || event.type === "tool_permission_denied") owner.emit(event);
    if (event.type === "model_stream" && event.event.type === "tool_call_end") {
      const { name, input: callInput } = event.event;
      run.toolUseCount++;
      countOnce(run.toolCounts, name);
      if (!run.toolsUsed.includes(name)) run.toolsUsed.push(name);
      const streaming = event.response.usage;
      const activity = describeCall(name, callInput, parts.cwd, 60).trim();
      owner.line(taskProgressLine(task, activity, name, usageSoFar(sub, streaming.inputTokens + streaming.outputTokens), context));
    }
    for (const line of nestedLines(event, task, context)) owner.line(line);
  };
  let hookStop: HookStop | undefined;
  const scope: TurnScope = {
    profile: sub.profile,
    maxThinkingTokens: origin.turn.maxThinkingTokens,
    outputTool: undefined,
    emit,
    signal,
    hookStop: {
      note: (stop) => {
        if (!stop) return;
        hookStop ??= stop;
        owner.noteHookStop(stop);
      },
      stopped: () => hookStop !== undefined,
    },
    interrupt: owner.interrupt,
    nested: {
      agentId: run.agentId,
      agentType: definition.name,
      system: subagentSystemPrompt(definition.prompt, {
        cwd: parts.cwd,
        platform: platform(),
        date: new Date().toISOString().slice(0, 10),
        model: sub.profile.model,
      }),
      maxTurns: sub.maxTurns,
      pickTools: (offered) => pickTools(offered, definition),
      onUsage: (usage) => {
        run.usage.inputTokens += usage.inputTokens;
        run.usage.outputTokens += usage.outputTokens;
        run.usage.cacheReadInputTokens += usage.cacheReadInputTokens;
        run.usage.cacheCreationInputTokens += usage.cacheCreationInputTokens;
      },
    },
  };
  // Deeper Agent calls go the same way (and are refused past the depth limit).
  scope.runAgent = (nestedCall, nestedSignal) =>
    runAgentCall({ parts, subagents, turn: scope, depth: sub.depth }, nestedCall, nestedSignal);

  // A fork starts from the main conversation (forks are only started there); any other type from its prompt alone.
  const start = definition.inheritsConversation
    ? forkedConversation(parts.history, sub.prompt)
    : { history: [], prompt: { role: "user" as const, content: [{ type: "text" as const, text: sub.prompt }] } };
  const outcome = await runTurn(start.history, start.prompt, turnSettings(parts, scope), loopDependencies(parts, scope), signal).catch(
    (error: unknown): undefined => {
      parts.log.error({ err: error, agentId: run.agentId }, "subagent failed");
      return undefined;
    },
  );
  run.durationMs = Date.now() - sub.startedAt;
  return { outcome, ending: endingOf(outcome, signal.aborted, sub.maxTurns) };
}

/** The call's model alias (Anthropic's names, so only where the session's own model is Claude), else the type's, else the caller's. */
function modelFor(parts: SessionParts, definition: AgentDefinition, input: AgentInput, callerModel: string): string {
  const claude = parts.profileOf(callerModel).provider.id === "anthropic";
  if (input.model !== undefined && claude) return resolveModelAlias(input.model);
  // "inherit" is how Claude Code's definitions say "the caller's model".
  return definition.model === undefined || definition.model === "inherit" ? callerModel : resolveModelAlias(definition.model);
}

/** The type's tools out of the session's (a type without a list gets them all), less those it disallows. */
function pickTools(offered: ToolDefinition[], definition: AgentDefinition): ToolDefinition[] {
  const { tools: allowed, disallowedTools: denied = [] } = definition;
  return offered.filter(
    (tool) =>
      (allowed === undefined || allowed.some((name) => namesTool(name, tool.name))) && !denied.some((name) => namesTool(name, tool.name)),
  );
}

/**
 * Whether a definition's entry names the tool: by its name (definitions written for Claude Code
 * call the Agent tool `Task`) or as a whole MCP server (`mcp__github`, `mcp__github__*`), as
 * Claude Code reads them. A server named in `disallowedTools` must take all its tools away.
 */
function namesTool(entry: string, toolName: string): boolean {
  const name = entry === AGENT_TOOL_INIT_NAME ? AGENT_TOOL_NAME : entry;
  return name === toolName || mcpServerNameCovers(name, toolName);
}
