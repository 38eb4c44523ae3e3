import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionOptions } from "../session/session-options.js";
import { installDefaultSkills, upgradeRetiredDefaultSkills } from "../skills/default-skills.js";
import type { Logger } from "./log.js";

/** What the CLI did or noticed while starting, told to the host as `system/warning` lines. */
export type Notice = NonNullable<SessionOptions["notices"]>[number];

/**
 * A first run gets the bundled skills in $AGENTWIRE_HOME/skills, and a notice saying so. Every
 * run updates the copies an earlier version installed and nobody edited, where that version
 * granted more than the skill needs (also with --no-default-skills: it fixes, it adds nothing).
 */
export function installBundledSkills(log: Logger, install: boolean, packageRoot: URL): Notice[] {
  const target = join(process.env.AGENTWIRE_HOME || join(homedir(), ".agentwire"), "skills");
  const bundled = fileURLToPath(new URL("skills", packageRoot));
  const notices: Notice[] = [];
  try {
    const installed = install ? installDefaultSkills(bundled, target) : [];
    if (installed.length > 0)
      notices.push({
        code: "default_skills_installed",
        message: `Installed the default skills (${installed.join(", ")}) into ${target}; --no-default-skills skips this.`,
      });
    const upgraded = upgradeRetiredDefaultSkills(bundled, target);
    if (upgraded.length > 0) {
      notices.push({
        code: "default_skills_updated",
        message: `Updated the default skills ${upgraded.join(", ")} in ${target}: their earlier versions approved more commands than they need.`,
      });
    }
  } catch (error) {
    // An unwritable AGENTWIRE_HOME is reported once by the session (session_not_persisted).
    log.debug({ err: error, target }, "default skills not installed");
  }
  return notices;
}

/** One sentence for every flag a Claude Code host passed that agentwire does not act on yet. */
export function describeIgnoredFlags(flags: string[]): Notice {
  const names = flags.map((flag) => `--${flag}`);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
  const verb = names.length === 1 ? "is" : "are";
  return {
    code: "flags_ignored",
    message: `${list} ${verb} accepted for Claude Code compatibility but ${names.length === 1 ? "has" : "have"} no effect yet.`,
  };
}
