import type { PermissionResult } from "../../protocol/control.js";
import type { PermissionDecision } from "../agent/loop.js";
import { applyPermissionUpdates, type PermissionState } from "../permissions/permission-updates.js";
import type { PermissionMode } from "../permissions/policy.js";
import { parseRuleList } from "../permissions/rule-syntax.js";
import { SKILL_READ_RULES, TURN_SKILL_RULES } from "../skills/skill-tool.js";
import type { SessionState } from "../tools/session-state.js";
import { permissionDescription } from "../render/present/tool-call.js";
import type { ToolApprover } from "./session-options.js";
import type { HostApproval } from "./tool-authorizer.js";

/**
 * What the session allows: the mode, the rules and roots, what skills grant, and what the host's
 * answers change ("always allow", a new mode). Read per decision, since all of it can change mid-turn.
 */
export class SessionPermissions {
  constructor(
    private current: PermissionState,
    private readonly state: SessionState,
    /** Tells the host the mode changed (`system/status`). */
    private readonly announceMode: (mode: PermissionMode) => void,
  ) {}

  get mode(): PermissionMode {
    return this.current.mode;
  }

  denials(): PermissionState["rules"]["deny"] {
    return this.current.rules.deny;
  }

  setMode(mode: PermissionMode): void {
    this.current = { ...this.current, mode };
    this.announceMode(mode);
  }

  /**
   * The session's permissions, plus reading the folders of loaded skills, plus the allowed-tools
   * of skills loaded in the running turn. Allow rules only: deny rules, plan mode and the risk
   * sentinel still come first.
   */
  effective(): PermissionState {
    const skillRules = [...this.state.get(SKILL_READ_RULES), ...this.state.get(TURN_SKILL_RULES)];
    if (skillRules.length === 0) return this.current;
    return { ...this.current, rules: { ...this.current.rules, allow: [...this.current.rules.allow, ...parseRuleList(skillRules)] } };
  }

  /** A skill's allowed-tools last only as long as the turn that loaded it. */
  endTurn(): void {
    this.state.clear(TURN_SKILL_RULES);
  }

  /**
   * Questions the policy leaves open go to the approver; its "always allow" updates apply to the
   * session. Undefined when nobody can answer (questions are then denied at once).
   */
  hostApproval(
    approve: ToolApprover | undefined,
    hooks: { notify: (message: string) => void; interrupt: () => void; agentId?: string },
  ): HostApproval | undefined {
    if (!approve) return undefined;
    return async (call, verdict, signal) => {
      hooks.notify(`agentwire needs your permission to use ${call.name}`);
      const answer = await approve(
        {
          toolName: call.name,
          toolUseId: call.id,
          input: call.input,
          description: permissionDescription(call),
          reason: verdict.reason,
          reasonType: verdict.reasonType,
          suggestions: [{ type: "addRules", rules: [{ toolName: call.name }], behavior: "allow", destination: "session" }],
          ...(hooks.agentId === undefined ? {} : { agentId: hooks.agentId }),
        },
        signal,
      );
      return this.apply(answer, hooks.interrupt);
    };
  }

  private apply(answer: PermissionResult, interrupt: () => void): PermissionDecision {
    if (answer.updatedPermissions?.length) {
      const before = this.current.mode;
      this.current = applyPermissionUpdates(this.current, answer.updatedPermissions);
      if (this.current.mode !== before) this.setMode(this.current.mode);
    }
    if (answer.behavior === "deny") {
      if (answer.interrupt) interrupt();
      return { allow: false, message: answer.message };
    }
    return { allow: true, ...(answer.updatedInput ? { updatedInput: answer.updatedInput } : {}) };
  }
}
