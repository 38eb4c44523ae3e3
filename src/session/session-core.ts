import { randomUUID } from "../text/random-uuid.js";
import type { ResultEvent, SystemInitEvent } from "../../protocol/events.js";
import { parseAgentRecord, type AgentDefinition } from "../agents/agent-definition.js";
import type { UserMessage } from "../conversation/messages.js";
import type { McpServerStatus } from "../mcp/mcp-servers.js";
import type { PermissionMode } from "../permissions/policy.js";
import { createStructuredOutputTool } from "../tools/structured-output.js";
import type { SessionHooks } from "./hook-runners.js";
import type { OutputDirectory } from "./output-directory.js";
import type { BackgroundTaskView, SessionControls, SessionParts } from "./session-parts.js";
import type { HostMcpServer } from "./tool-set.js";
import { runUserTurn } from "./turn-runner.js";
import { buildInitEvent } from "./wire/init-event.js";

/**
 * The session as its hosts see it (`Session`): a thin coordinator that keeps what changes between turns
 * (`SessionControls`), runs turns one at a time through the turn runner, and hands everything
 * else to the collaborators in `SessionParts`.
 */
export class SessionCore {
  private currentTurn: AbortController | undefined;
  private turnDone: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly parts: SessionParts,
    private readonly controls: SessionControls,
    private readonly output: OutputDirectory,
    /** The key's origin as `system/init` reports it. */
    private readonly apiKeySource: string,
  ) {}

  get sessionId(): string {
    return this.parts.sessionId;
  }

  get cwd(): string {
    return this.parts.cwd;
  }

  get transcriptPath(): string | undefined {
    return this.parts.persistence.file;
  }

  get model(): string {
    return this.controls.model;
  }

  get permissionMode(): PermissionMode {
    return this.parts.permissions.mode;
  }

  get busy(): boolean {
    return this.currentTurn !== undefined;
  }

  get closed(): boolean {
    return this.controls.closed;
  }

  setModel(model: string | undefined): void {
    this.controls.model = model ?? this.parts.settings.model;
  }

  setPermissionMode(mode: PermissionMode): void {
    this.parts.permissions.setMode(mode);
  }

  setMaxThinkingTokens(tokens: number | undefined): void {
    this.controls.maxThinkingTokens = tokens === undefined ? this.parts.settings.maxThinkingTokens : tokens > 0 ? tokens : undefined;
  }

  setHooks(hooks: SessionHooks): void {
    this.parts.hooks.setHost(hooks);
  }

  async setOutputSchema(schema: Record<string, unknown> | undefined): Promise<void> {
    const tool = schema === undefined ? undefined : createStructuredOutputTool(schema).catch((error: Error) => error);
    this.controls.outputTool = tool;
    const built = await tool;
    if (built instanceof Error) throw built;
  }

  addMcpServer(server: HostMcpServer): void {
    this.parts.tools.addHostServer(server);
  }

  mcpServerStatus(): McpServerStatus[] {
    return this.parts.tools.status();
  }

  mcpReady(): Promise<void> {
    return this.parts.tools.ready();
  }

  async agentDefinitions(): Promise<AgentDefinition[]> {
    return (await this.parts.agents.load()).definitions;
  }

  setHostAgents(record: unknown): void {
    this.parts.agents.setHostAgents(parseAgentRecord(record, "sdk", "initialize agents"));
  }

  skillCommands(): Promise<Array<{ name: string; description: string; argumentHint: string }>> {
    return this.parts.skills.commands();
  }

  get backgroundTasks(): BackgroundTaskView {
    return this.parts.tasks;
  }

  whenIdle(): Promise<void> {
    return this.turnDone.then(() => undefined);
  }

  interrupt(): boolean {
    if (!this.currentTurn) return false;
    this.currentTurn.abort();
    return true;
  }

  async close(): Promise<void> {
    this.controls.closed = true;
    this.interrupt();
    await this.whenIdle();
    // Nothing the session started in the background outlives it; hosts hear of each end, then
    // nothing more (a late end must not write to a stdout that may be gone).
    this.parts.tasks.stopAll();
    this.parts.tasks.mute();
    await this.parts.hooks.end();
    await this.parts.tools.close();
    this.parts.persistence.close();
    this.output.remove();
  }

  async initEvent(): Promise<SystemInitEvent> {
    const [{ skills }, agents] = await Promise.all([this.parts.skills.loaded(), this.agentDefinitions()]);
    return buildInitEvent({
      cwd: this.cwd,
      sessionId: this.sessionId,
      toolNames: this.parts.tools.offered().map((tool) => tool.name),
      mcpServers: this.mcpServerStatus().map(({ name, status, error }) => ({ name, status, ...(error !== undefined ? { error } : {}) })),
      model: this.controls.model,
      provider: this.parts.profileOf(this.controls.model).provider.id,
      permissionMode: this.permissionMode,
      skills,
      agents,
      apiKeySource: this.apiKeySource,
    });
  }

  runTurn(prompt: UserMessage): Promise<ResultEvent> {
    const controller = new AbortController();
    this.currentTurn = controller;
    const turn = runUserTurn(this.parts, this.controls, prompt, controller).finally(() => {
      if (this.currentTurn === controller) this.currentTurn = undefined;
    });
    this.turnDone = turn.catch(() => undefined);
    return turn;
  }
}

/** The `system/status` line a mode change sends. */
export function modeStatus(sessionId: string, mode: PermissionMode) {
  return {
    type: "system" as const,
    subtype: "status" as const,
    status: null,
    permissionMode: mode,
    session_id: sessionId,
    uuid: randomUUID(),
  };
}
