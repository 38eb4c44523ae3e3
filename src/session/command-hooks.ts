import type { HookEventName, HookOutput } from "../../protocol/control.js";
import { runHookProcess, type HookProcessResult } from "../hooks/hook-process.js";
import type { CommandHook } from "../settings/effective-settings.js";
import { compileHookMatcher } from "./hook-matcher.js";
import type { HookRunOptions, SessionHooks } from "./hook-runners.js";

/** Most characters of a hook's command or stderr quoted in a warning. */
const MAX_QUOTED = 400;

export interface CommandHooksOptions {
  hooks: readonly CommandHook[];
  /** The session's directory: where hooks run, and `$CLAUDE_PROJECT_DIR`. */
  cwd: string;
  settingsEnv: Readonly<Record<string, string>>;
  passEnv: readonly string[];
  /** A hook failed, timed out, or had something to say that blocks nothing: for a `system/warning`. */
  onProblem: (message: string) => void;
}

/**
 * The shell-command hooks of the settings files, as `SessionHooks`: Claude Code's protocol. The
 * matching hooks of an event run at once (one run per distinct command; a `once` hook once per
 * session), each with the event's JSON on stdin; what each did is turned into Claude Code's hook
 * output (`hookOutputOf`), so the session gives it the same meaning as a host's answer. An `async`
 * hook runs on its own and answers nothing.
 */
export class CommandHooks implements SessionHooks {
  private readonly hooks: Array<CommandHook & { matches: (value: string | undefined) => boolean }>;
  /** `once` hooks that have run. */
  private readonly ran = new Set<CommandHook>();

  constructor(private readonly options: CommandHooksOptions) {
    this.hooks = options.hooks.map((hook) => ({ ...hook, matches: compileHookMatcher(hook.matcher) }));
  }

  has(event: HookEventName): boolean {
    return this.hooks.some((hook) => hook.event === event);
  }

  async run(
    event: HookEventName,
    input: Record<string, unknown>,
    options: HookRunOptions = {},
  ): Promise<{ outputs: HookOutput[]; undelivered: number }> {
    // The same command declared twice (in two files, or under two matchers) runs once, as in Claude Code.
    const commands = new Set<string>();
    const matching = this.hooks.filter((hook) => {
      if (hook.event !== event || !hook.matches(options.matchValue) || commands.has(hook.command) || this.ran.has(hook)) return false;
      commands.add(hook.command);
      if (hook.once) this.ran.add(hook);
      return true;
    });
    if (matching.length === 0) return { outputs: [], undelivered: 0 };
    // Loaded with the first hook that runs: a session without hooks never builds these schemas.
    const { HookOutputSchema } = await import("../../protocol/control.js");
    const parseOutput = (json: unknown): HookOutput | undefined => {
      const parsed = HookOutputSchema.safeParse(json);
      return parsed.success ? parsed.data : undefined;
    };
    // Claude Code's order: the common fields, the event's name, then the event's own fields.
    const { session_id, transcript_path, cwd, permission_mode, ...fields } = input;
    const stdin = JSON.stringify({ session_id, transcript_path, cwd, permission_mode, hook_event_name: event, ...fields });
    const runOne = async (hook: CommandHook, signal: AbortSignal | undefined): Promise<HookOutput | undefined> => {
      const result = await runHookProcess({
        command: hook.command,
        input: stdin,
        cwd: this.options.cwd,
        settingsEnv: this.options.settingsEnv,
        passEnv: this.options.passEnv,
        hookEnv: { CLAUDE_PROJECT_DIR: this.options.cwd },
        timeoutMs: hook.timeoutSeconds * 1000,
        ...(signal ? { signal } : {}),
      });
      const answer = hookOutputOf(event, hook, result, parseOutput);
      if (answer.problem) this.options.onProblem(answer.problem);
      return answer.output;
    };
    // `async` hooks run on their own (only their timeout stops them); nothing waits for their answer.
    for (const hook of matching.filter((hook) => hook.background)) void runOne(hook, undefined);
    const answers = await Promise.all(matching.filter((hook) => !hook.background).map((hook) => runOne(hook, options.signal)));
    return { outputs: answers.filter((output): output is HookOutput => output !== undefined), undelivered: 0 };
  }
}

/**
 * What one command hook's run means, in Claude Code's terms, as a hook output (for the session)
 * and a problem (for the user). Exit 0: JSON on stdout is the hook's answer; other output is
 * context for UserPromptSubmit and SessionStart (and PreCompact's extra instructions), and
 * nothing for other events. Exit 2: a block with stderr as the reason where the event can be
 * blocked (a PreToolUse denial, which the model reads; PostToolUse and Stop feed it to the model;
 * UserPromptSubmit and PreCompact stop the prompt or the compaction), a problem elsewhere. Any
 * other exit, a timeout or a hook that cannot start: a problem, and the session goes on. An
 * interrupted hook means nothing. Pure.
 */
export function hookOutputOf(
  event: HookEventName,
  hook: Pick<CommandHook, "command" | "source" | "timeoutSeconds">,
  result: HookProcessResult,
  parseOutput: (json: unknown) => HookOutput | undefined,
): { output?: HookOutput; problem?: string } {
  const which = `The ${event} hook \`${quoted(hook.command)}\` (${hook.source})`;
  switch (result.outcome) {
    case "aborted":
      return {};
    case "not_started":
      return { problem: `${which} could not start: ${result.error}.` };
    case "timed_out":
      return { problem: `${which} did not finish within ${hook.timeoutSeconds} s; it was stopped with every process it started.` };
    case "exited":
      break;
  }
  const stderr = result.stderr.trim();
  if (result.exitCode === 2) {
    const output = blockingOutput(event, stderr === "" ? `A ${event} hook blocked this without giving a reason.` : stderr);
    return output ? { output } : { problem: `${which} exited with code 2${stderr ? `: ${quoted(stderr)}` : ""}.` };
  }
  if (result.exitCode !== 0)
    return { problem: `${which} failed with exit code ${result.exitCode}${stderr ? `: ${quoted(stderr)}` : ""}; the session goes on.` };
  const stdout = result.stdout.trim();
  if (stdout === "") return {};
  if (stdout.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch {
      json = undefined;
    }
    if (json !== undefined) {
      const output = parseOutput(json);
      return output ? { output } : { problem: `${which} wrote JSON that is not a hook answer; it was ignored.` };
    }
  }
  return event === "UserPromptSubmit" || event === "SessionStart" || event === "PreCompact"
    ? { output: { hookSpecificOutput: { hookEventName: event, additionalContext: stdout } } }
    : {};
}

/** Exit 2 as the answer that blocks the event; undefined for events that cannot be blocked. */
function blockingOutput(event: HookEventName, reason: string): HookOutput | undefined {
  switch (event) {
    case "PreToolUse":
      return { hookSpecificOutput: { hookEventName: event, permissionDecision: "deny", permissionDecisionReason: reason } };
    case "PostToolUse":
    case "UserPromptSubmit":
    case "Stop":
    case "SubagentStop":
    case "PreCompact":
      return { decision: "block", reason };
    case "SessionStart":
    case "SessionEnd":
    case "PostCompact":
    case "Notification":
      return undefined;
  }
}

function quoted(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > MAX_QUOTED ? `${line.slice(0, MAX_QUOTED)}…` : line;
}
