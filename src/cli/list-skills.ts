import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { discoverSkills } from "../skills/catalog.js";
import { sessionProjectTrust, skillGrantPolicy, usesProjectSettings } from "../session/project-trust-policy.js";
import type { RunConfig } from "./config.js";
import { noticeLine } from "./log-records.js";

/**
 * `--list-skills`: the skills a run in this directory would use, after precedence. Text: a table
 * on stdout, and what is wrong with broken skills on stderr. JSON: one document with both.
 */
export async function listSkills(config: RunConfig, env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  const agentwireHome = env.AGENTWIRE_HOME || join(homedir(), ".agentwire");
  const catalog = discoverSkills({
    enabled: config.skills,
    // As a run would see them: a project's rules only once it is trusted.
    grantPolicy: skillGrantPolicy({
      trust: sessionProjectTrust(config, agentwireHome),
      projectSettings: usesProjectSettings(config.settingSources),
    }),
    cwd: config.cwd,
    addDirs: config.addDirs.map((directory) => resolve(config.cwd, directory)),
    skillsDirs: config.skillsDirs,
    agentwireHome,
    userHome: env.HOME || homedir(),
  });
  const { skills, problems } = await catalog.load();
  if (config.outputFormat !== "text") {
    const document = {
      skills: skills.map((skill) => ({
        name: skill.name,
        description: skill.description,
        path: skill.file,
        source: skill.source,
        model_invocable: skill.modelInvocable,
        user_invocable: skill.userInvocable,
        ...(skill.whenToUse ? { when_to_use: skill.whenToUse } : {}),
        ...(skill.argumentHint ? { argument_hint: skill.argumentHint } : {}),
        ...(skill.allowedTools.length > 0 ? { allowed_tools: skill.allowedTools } : {}),
        ...(skill.withheldGrants
          ? { withheld_allowed_tools: skill.withheldGrants.rules, withheld_because: skill.withheldGrants.reason }
          : {}),
      })),
      warnings: problems.map((problem) => ({ code: problem.code, path: problem.path, reason: problem.reason })),
    };
    return { stdout: `${JSON.stringify(document)}\n`, stderr: "" };
  }
  const stderr = problems.map((problem) => noticeLine("warn", `${problem.path}: ${problem.reason}`)).join("");
  if (skills.length === 0) return { stdout: "No skills found.\n", stderr };
  const nameWidth = Math.max(4, ...skills.map((skill) => skill.name.length));
  const sourceWidth = Math.max(6, ...skills.map((skill) => skill.source.length));
  const rows = skills.map((skill) => {
    const flags = `${skill.modelInvocable ? "" : " (user only)"}${skill.withheldGrants?.reason === "untrusted-project" ? " (allowed-tools need agentwire trust)" : ""}`;
    return `${skill.name.padEnd(nameWidth)}  ${skill.source.padEnd(sourceWidth)}  ${oneLine(skill.description, 100)}${flags}`;
  });
  return { stdout: `${"NAME".padEnd(nameWidth)}  ${"SOURCE".padEnd(sourceWidth)}  DESCRIPTION\n${rows.join("\n")}\n`, stderr };
}

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}
