/**
 * A skill's `allowed-tools` are permission rules that approve calls while the skill's turn runs.
 * Who wrote the skill decides whether they may: the user's own skills grant what they say; a
 * skill a repository brings grants nothing until the user trusts that repository.
 */

/** Claude Code's placeholder for a skill's own folder, in its instructions and its rules. */
export const SKILL_DIR_PLACEHOLDER = "${CLAUDE_SKILL_DIR}";

/** Why a skill's `allowed-tools` are not in effect in this session. */
export type WithheldReason = "untrusted-project" | "project-settings-off";

/** What a grant policy looks at: where the skill was found, and for a project's skill, which project. */
export interface GrantSubject {
  source: "project" | "add-dir" | "skills-dir" | "user";
  directory: string;
  /** The directory whose project brought the skill (the cwd, an --add-dir); absent for the user's. */
  origin?: string;
}

/** Whether a skill's `allowed-tools` take effect; the session builds one from the trust store. */
export type SkillGrantPolicy = (skill: GrantSubject) => "granted" | WithheldReason;

/** The user's skills (and `--skills-dir` folders) grant what they say; for tests and listings of them. */
export const GRANT_ALL: SkillGrantPolicy = () => "granted";

/** Characters a path may hold and still be written into a rule without changing what it means. */
const RULE_SAFE_PATH = /^[\w ./@+,:=~-]+$/;

/**
 * `${CLAUDE_SKILL_DIR}` in the rules → the skill's folder, quoted for the shell when it has a
 * space, so `Bash(${CLAUDE_SKILL_DIR}/scripts/map.sh)` names exactly that script wherever the
 * skill is installed. A folder whose name would change the rule's meaning (parentheses, quotes,
 * `$`) drops the rules that use it, with a note.
 */
export function expandSkillDirectory(rules: readonly string[], directory: string): { rules: string[]; notes: string[] } {
  if (!rules.some((rule) => rule.includes(SKILL_DIR_PLACEHOLDER))) return { rules: [...rules], notes: [] };
  if (!RULE_SAFE_PATH.test(directory)) {
    const dropped = rules.filter((rule) => rule.includes(SKILL_DIR_PLACEHOLDER));
    return {
      rules: rules.filter((rule) => !rule.includes(SKILL_DIR_PLACEHOLDER)),
      notes: [
        `its folder's path has characters a permission rule cannot hold, so ${dropped.join(", ")} ${dropped.length === 1 ? "is" : "are"} not granted`,
      ],
    };
  }
  return { rules: rules.map((rule) => rule.replaceAll(SKILL_DIR_PLACEHOLDER, shellQuoted(directory))), notes: [] };
}

function shellQuoted(text: string): string {
  return text.includes(" ") ? `'${text}'` : text;
}

/** What the Skill tool tells the model when a skill's rules are withheld, so it expects questions. */
export function withheldGrantsNote(rules: readonly string[], reason: WithheldReason): string {
  const why =
    reason === "untrusted-project"
      ? "it comes from a project that is not trusted (the user can trust it with `agentwire trust`)"
      : "this session does not use project settings";
  return `Note: this skill's allowed-tools (${rules.join(", ")}) are not in effect because ${why}. Calls it needs are asked for as usual, and refused when nobody can answer.`;
}
