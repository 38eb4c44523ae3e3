import path from "node:path";
import type { GrantSubject, SkillGrantPolicy } from "../skills/skill-grants.js";
import { folderFingerprint } from "../trust/fingerprint.js";
import { recordedProjectTrust, TRUST_FOR_THIS_RUN, trustRootOf, type ProjectTrust } from "../trust/project-trust.js";

/**
 * How a session treats what the project brings, from its settings: `trustProject` (the host
 * vouches for it, this run only), else what `agentwire trust` recorded in the agentwire home.
 */
export function sessionProjectTrust(settings: { trustProject: boolean }, home: string): ProjectTrust {
  return settings.trustProject ? TRUST_FOR_THIS_RUN : recordedProjectTrust(home);
}

/** Whether the session reads project settings at all (`--setting-sources` without `project` says no). */
export function usesProjectSettings(settingSources: readonly string[] | undefined): boolean {
  return settingSources === undefined || settingSources.includes("project");
}

/**
 * The user's skills and `--skills-dir` folders grant their `allowed-tools`; a skill a project
 * brought (its `.claude/skills`, `.agents/skills`, `.agentwire/skills`, or an --add-dir's) grants
 * them only when the session reads project settings and the skill's folder, as it is now, is
 * trusted.
 */
export function skillGrantPolicy(input: { trust: ProjectTrust; projectSettings: boolean }): SkillGrantPolicy {
  return (skill: GrantSubject) => {
    if (skill.source === "user" || skill.source === "skills-dir") return "granted";
    if (!input.projectSettings) return "project-settings-off";
    if (skill.origin === undefined) return "untrusted-project";
    const folder = `${skill.directory}${path.sep}`;
    return input.trust.trusts(trustRootOf(skill.origin), folder, () => folderFingerprint(skill.directory))
      ? "granted"
      : "untrusted-project";
  };
}

/**
 * The one warning a session gives when its project is not trusted: which servers were not
 * started, which skills' rules are ignored, what of its settings files was left out (hooks, allow
 * rules, env, …), and how to trust them. Undefined when nothing was held back.
 */
export function untrustedProjectWarning(input: {
  root: string;
  servers: readonly string[];
  skills: readonly string[];
  settings?: readonly string[];
  storeProblem: string | undefined;
}): string | undefined {
  const held: string[] = [];
  if (input.servers.length > 0) held.push(`its .mcp.json servers ${quotedList(input.servers)} were not started`);
  if (input.skills.length > 0)
    held.push(`the allowed-tools of its skills ${quotedList(input.skills)} are ignored (their calls are asked for)`);
  if (input.settings && input.settings.length > 0)
    held.push(`its settings files were applied without what needs trust: ${input.settings.join(", ")}`);
  if (held.length === 0) return undefined;
  const store = input.storeProblem ? ` The trust store could not be used: ${input.storeProblem}.` : "";
  return `This project is not trusted, so ${held.join(", and ")}. After checking those files, run \`agentwire trust ${input.root}\` to trust them (or pass --trust-project for one run).${store}`;
}

function quotedList(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}
