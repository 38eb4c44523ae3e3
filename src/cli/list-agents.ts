import { homedir } from "node:os";
import { join } from "node:path";
import { toolsSummary } from "../agents/agent-listing.js";
import { sessionProjectTrust } from "../session/project-trust-policy.js";
import { sessionAgents } from "../session/session-agents.js";
import type { RunConfig } from "./config.js";
import { noticeLine } from "./log-records.js";

/**
 * `--list-agents`: the agent types a run in this directory would offer the Agent tool, after
 * precedence (`--agents` included). Text: a table on stdout, what was skipped on stderr. JSON: one
 * document with both. Throws a `SessionSetupError` for a bad `--agents`.
 */
export async function listAgents(config: RunConfig, env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  const agentwireHome = env.AGENTWIRE_HOME || join(homedir(), ".agentwire");
  const catalog = sessionAgents({
    settings: config,
    cwd: config.cwd,
    agentwireHome,
    userHome: env.HOME || homedir(),
    trust: sessionProjectTrust(config, agentwireHome),
  });
  const { definitions, problems } = await catalog.load();
  if (config.outputFormat !== "text") {
    const document = {
      agents: definitions.map((definition) => ({
        name: definition.name,
        description: definition.description,
        source: definition.source,
        ...(definition.file ? { path: definition.file } : {}),
        ...(definition.model ? { model: definition.model } : {}),
        ...(definition.tools ? { tools: definition.tools } : {}),
        ...(definition.disallowedTools ? { disallowed_tools: definition.disallowedTools } : {}),
        ...(definition.inheritsConversation ? { inherits_conversation: true } : {}),
      })),
      warnings: problems.map((problem) => ({
        code: problem.code,
        ...(problem.path ? { path: problem.path } : {}),
        message: problem.message,
      })),
    };
    return { stdout: `${JSON.stringify(document)}\n`, stderr: "" };
  }
  const stderr = problems.map((problem) => noticeLine("warn", problem.message)).join("");
  const rows = definitions.map((definition) => [
    definition.name,
    definition.source,
    definition.model ?? "inherit",
    oneLine(toolsSummary(definition), 40),
    oneLine(definition.description, 80),
  ]);
  const header = ["NAME", "SOURCE", "MODEL", "TOOLS", "DESCRIPTION"];
  const widths = header.slice(0, -1).map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join("  ");
  return { stdout: `${[header, ...rows].map(line).join("\n")}\n`, stderr };
}

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}
