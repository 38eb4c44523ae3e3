import type { PermissionDecision } from "../agent/loop.js";
import type { ToolUseBlock } from "../conversation/messages.js";
import type { ToolTraits } from "../conversation/tool-traits.js";
import { whatWouldAllow } from "../permissions/permission-hint.js";
import { decidePermission, type PermissionVerdict } from "../permissions/policy.js";
import type { PermissionState } from "../permissions/permission-updates.js";
import { runPreToolUseHooks, type HookStop, type SessionHooks } from "./hook-runners.js";

/** How a question reaches a person, if anyone is there to answer it. */
export type HostApproval = (
  call: ToolUseBlock,
  verdict: Extract<PermissionVerdict, { behavior: "ask" }>,
  signal: AbortSignal,
) => Promise<PermissionDecision>;

export interface ToolAuthorizerOptions {
  /** Read per call: the mode, rules and roots can change mid-turn (set_permission_mode, "always allow"). */
  permissions: () => PermissionState;
  /** What a tool does (its definition's kind and fields); unknown tools are `other`. */
  traitsOf: (name: string) => ToolTraits;
  /** Undefined: nobody can answer, so questions are denied at once (CI, plain -p). */
  askHost: HostApproval | undefined;
  hooks: SessionHooks | undefined;
  /** Common fields of every hook input (session_id, cwd, permission_mode, …). */
  hookBase: () => Record<string, unknown>;
  /** A PreToolUse hook answered `continue: false`: the call is still decided here, and the run ends after it. */
  onHookStop: (stop: HookStop) => void;
  /** Where a shell command would start now (Bash's current directory), for the checks that depend on it. */
  commandDirectory?: () => string;
  /** The host vouched for the project for this run (`--trust-project`); see PermissionQuestion. */
  projectVouched?: boolean;
  /** The agentwire home; see PermissionQuestion. */
  agentwireHome?: string;
}

/**
 * Decides whether one tool call may run: PreToolUse hooks first (they may deny, allow, ask or
 * rewrite the input), then the permission policy, then the host for anything the policy leaves
 * open. Contract: never throws; a host that cannot answer means "deny", never a hang.
 */
export function createToolAuthorizer(
  options: ToolAuthorizerOptions,
): (call: ToolUseBlock, signal: AbortSignal) => Promise<PermissionDecision> {
  return async (call, signal) => {
    const hooked = await runPreToolUseHooks(options.hooks, options.hookBase(), call, signal);
    if (hooked.stop) options.onHookStop(hooked.stop);
    if (hooked.deny !== undefined) return { allow: false, message: hooked.deny };
    // A hook the host registered is a guard; if it could not be asked, the call does not run.
    if (hooked.undelivered > 0)
      return {
        allow: false,
        message: `${call.name} was not run: a PreToolUse hook registered by the host could not be asked (the host is gone).`,
      };
    const { input, allow: hookSaysAllow, ask: hookAsks } = hooked;
    if (signal.aborted) return { allow: false, message: "Interrupted before the call was authorized." };
    const updated = input === call.input ? {} : { updatedInput: input };
    const { mode, rules, roots } = options.permissions();
    const commandDirectory = options.commandDirectory?.();
    const policy = decidePermission({
      toolName: call.name,
      input,
      traits: options.traitsOf(call.name),
      mode,
      rules,
      roots: [...roots],
      ...(commandDirectory ? { commandDirectory } : {}),
      projectVouched: options.projectVouched === true,
      ...(options.agentwireHome === undefined ? {} : { agentwireHome: options.agentwireHome }),
    });
    // Deny rules, plan mode and dontAsk always win; a hook can only turn an allow into a question
    // or answer the policy's question.
    if (policy.behavior === "deny") return { allow: false, message: policy.message };
    const verdict: PermissionVerdict =
      hookAsks && policy.behavior === "allow" ? { behavior: "ask", reason: hookAsks, reasonType: "rule" } : policy;
    // A hook's "allow" is the host's own decision: the call runs as approved, not confined. An ask
    // rule still asks, as in Claude Code: the user wrote it to be asked whatever a hook says.
    const askRuleMatched = policy.behavior === "ask" && policy.reasonType === "rule";
    if (hookSaysAllow && !hookAsks && !askRuleMatched) return { allow: true, approvedExplicitly: true, ...updated };
    if (verdict.behavior === "allow")
      return { allow: true, ...updated, ...(verdict.judgedReadOnly ? { judgedReadOnly: true as const } : {}) };
    if (!options.askHost) {
      const hint = whatWouldAllow({ toolName: call.name, input, traits: options.traitsOf(call.name) }, verdict, roots[0]!);
      return { allow: false, message: deniedWithoutHost(call, verdict.reason, hint) };
    }
    const answer = await options.askHost({ ...call, input }, verdict, signal).catch(
      (error: unknown): PermissionDecision => ({
        allow: false,
        message: `Permission for ${call.name} could not be obtained: ${(error as Error).message}`,
      }),
    );
    return answer.allow
      ? { allow: true, approvedExplicitly: true, ...(answer.updatedInput ? { updatedInput: answer.updatedInput } : updated) }
      : answer;
  };
}

/** The model-facing text when nobody could be asked; it says why and what to do instead. */
function deniedWithoutHost(call: ToolUseBlock, reason: string, hint: string): string {
  return `Permission to use ${call.name} was denied: ${reason}, and there is no one to approve it in this session. Do not retry this call; continue without it or tell the user what would allow it: ${hint}.`;
}
