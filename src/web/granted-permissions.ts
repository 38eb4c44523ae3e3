import type { PermissionUpdate } from "../../protocol/control.js";
import type { QueryOptions } from "../api/query.js";

type GrantedOptions = Pick<QueryOptions, "allowedTools" | "additionalDirectories" | "permissionMode">;

/**
 * What the page's "always" answers granted, as the options of the session's next turn: the web
 * runs each turn as its own query (so the session's file is free between turns), and a grant
 * must outlive the turn it was given in. The suggestions agentwire makes are allow rules,
 * folders and a mode; nothing else is carried.
 */
export function grantedOptions(base: GrantedOptions, grants: readonly PermissionUpdate[]): GrantedOptions {
  const allowedTools = [...(base.allowedTools ?? [])];
  const additionalDirectories = [...(base.additionalDirectories ?? [])];
  let permissionMode = base.permissionMode;
  for (const grant of grants) {
    if (grant.type === "addRules" && grant.behavior === "allow") {
      allowedTools.push(
        ...grant.rules.map((rule) => (rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`)),
      );
    } else if (grant.type === "addDirectories") {
      additionalDirectories.push(...grant.directories.filter((directory) => !additionalDirectories.includes(directory)));
    } else if (grant.type === "setMode") {
      permissionMode = grant.mode;
    }
  }
  return { allowedTools, additionalDirectories, ...(permissionMode ? { permissionMode } : {}) };
}
