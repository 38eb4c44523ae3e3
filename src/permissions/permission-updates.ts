import path from "node:path";
import type { PermissionUpdate } from "../../protocol/control.js";
import type { PermissionMode, PermissionRules } from "./policy.js";
import { parseRule, type PermissionRule } from "./rule-syntax.js";

/** What a session's permission decisions depend on, and what a host's answers may change. */
export interface PermissionState {
  mode: PermissionMode;
  rules: PermissionRules;
  /** Workspace roots; the working directory is first and always stays. */
  roots: readonly string[];
}

/**
 * The state after a host's "always allow / deny" answers (`updatedPermissions`): rules added,
 * replaced or removed, the mode set, directories added or removed (relative ones resolve against
 * the working directory, the first root). Pure: the input state is not changed.
 */
export function applyPermissionUpdates(state: PermissionState, updates: readonly PermissionUpdate[]): PermissionState {
  let { mode } = state;
  const rules: PermissionRules = { allow: [...state.rules.allow], deny: [...state.rules.deny], ask: [...state.rules.ask] };
  const roots = [...state.roots];
  const cwd = roots[0]!;
  for (const update of updates) {
    switch (update.type) {
      case "addRules":
      case "replaceRules":
      case "removeRules": {
        const changed = update.rules.map((rule) =>
          parseRule(rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`),
        );
        const current = rules[update.behavior];
        rules[update.behavior] =
          update.type === "addRules"
            ? [...current, ...changed]
            : update.type === "replaceRules"
              ? changed
              : current.filter((rule) => !changed.some((gone) => sameRule(gone, rule)));
        break;
      }
      case "setMode":
        mode = update.mode;
        break;
      case "addDirectories":
        for (const directory of update.directories.map((entry) => path.resolve(cwd, entry))) {
          if (!roots.includes(directory)) roots.push(directory);
        }
        break;
      case "removeDirectories":
        for (const directory of update.directories.map((entry) => path.resolve(cwd, entry))) {
          const index = roots.indexOf(directory);
          if (index > 0) roots.splice(index, 1);
        }
        break;
    }
  }
  return { mode, rules, roots };
}

function sameRule(a: PermissionRule, b: PermissionRule): boolean {
  return a.toolName === b.toolName && a.content === b.content;
}
