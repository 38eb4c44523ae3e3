import type { CommandHook } from "../settings/effective-settings.js";
import { combineHooks } from "./combined-hooks.js";
import { CommandHooks } from "./command-hooks.js";
import {
  runNotificationHooks,
  runSessionEndHooks,
  runSessionStartHooks,
  type HookStop,
  type SessionHooks,
  type SessionStartSource,
} from "./hook-runners.js";

export interface SessionHookSetInput {
  /** The settings files' shell-command hooks. */
  settingsHooks: readonly CommandHook[];
  /** The host's hooks, when given at creation (the library's); a stdin host registers them later. */
  hostHooks: SessionHooks | undefined;
  cwd: string;
  /** The settings files' `env`, for the processes hooks start (credentials still removed). */
  settingsEnv: Readonly<Record<string, string>>;
  passEnv: readonly string[];
  /** Common fields of every hook input, as they are now. */
  base: () => Record<string, unknown>;
  /** A hook failed (`hook_failed`) or had something to tell the user (`hook_message`). */
  warn: (code: "hook_failed" | "hook_message", message: string) => void;
}

/**
 * The session's hooks (the settings files' and the host's, as one) and the session-level events
 * they hear: SessionStart once before the first turn, SessionEnd once at close (only after a
 * start), Notification in the background, and the context SessionStart hooks give the next prompt.
 */
export class SessionHookSet {
  private readonly fromSettings: CommandHooks | undefined;
  private host: SessionHooks | undefined;
  private combined: SessionHooks | undefined;
  private started = false;
  private ended = false;
  /** Context from SessionStart hooks, for the next prompt. */
  private readonly context: string[] = [];
  /** Notification hooks still running: nobody waits for them, but the session does not close before they end. */
  private readonly notifications = new Set<Promise<void>>();

  constructor(private readonly input: SessionHookSetInput) {
    this.fromSettings =
      input.settingsHooks.length > 0
        ? new CommandHooks({
            hooks: input.settingsHooks,
            cwd: input.cwd,
            settingsEnv: input.settingsEnv,
            passEnv: input.passEnv,
            onProblem: (message) => input.warn("hook_failed", message),
          })
        : undefined;
    this.setHost(input.hostHooks);
  }

  /** The hooks as one, or undefined when there are none. */
  get current(): SessionHooks | undefined {
    return this.combined;
  }

  setHost(hooks: SessionHooks | undefined): void {
    this.host = hooks;
    // A hook's `systemMessage` is for the user: a warning, wherever the hook came from.
    this.combined = combineHooks([this.fromSettings, this.host], (message) => this.input.warn("hook_message", message));
  }

  base(): Record<string, unknown> {
    return this.input.base();
  }

  /** SessionStart before the session's first turn (later calls do nothing); its stop, if a hook gave one. */
  async startOnce(source: SessionStartSource, model: string, signal: AbortSignal): Promise<HookStop | undefined> {
    if (this.started) return undefined;
    this.started = true;
    const started = await runSessionStartHooks(this.combined, this.base(), source, model, signal);
    this.context.push(...started.context);
    return started.stop;
  }

  /**
   * `/clear`: Claude Code ends the old conversation and starts a new one, SessionEnd then
   * SessionStart. Their `continue: false` is not honoured: the conversation is cleared already.
   */
  async restart(model: string, signal: AbortSignal): Promise<void> {
    await runSessionEndHooks(this.combined, this.base(), "clear");
    this.context.push(...(await runSessionStartHooks(this.combined, this.base(), "clear", model, signal)).context);
  }

  /** The SessionStart context not yet given to a prompt; taking it empties it. */
  takeContext(): string[] {
    return this.context.splice(0);
  }

  /** Notification hooks hear that someone must answer; nothing waits for them. */
  notify(message: string): void {
    const notifying = runNotificationHooks(this.combined, this.base(), { message, notificationType: "permission_prompt" });
    this.notifications.add(notifying);
    void notifying.finally(() => this.notifications.delete(notifying));
  }

  /** At close: waits for Notification hooks, then SessionEnd once, if the session started. */
  async end(): Promise<void> {
    await Promise.all(this.notifications);
    if (!this.started || this.ended) return;
    this.ended = true;
    await runSessionEndHooks(this.combined, this.base(), "other");
  }
}
