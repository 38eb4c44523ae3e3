import { readdirSync } from "node:fs";
import path from "node:path";
import { projectDirectories } from "../paths/project-directories.js";
import { readRegularFile } from "../trust/regular-file.js";
import { AGENT_SOURCES, type AgentDefinition, type AgentSource } from "./agent-definition.js";
import { parseAgentMarkdown } from "./agent-markdown.js";
import { BUILT_IN_AGENTS } from "./built-in-agents.js";

/** Something about one definition file (or the project's) that a user should hear of. */
export interface AgentProblem {
  /** `agent_skipped`: not loaded; `agent_fixed`: loaded with a fix; `agents_untrusted`: the project's were not read. */
  code: "agent_skipped" | "agent_fixed" | "agents_untrusted";
  message: string;
  path?: string;
}

/** A project's definitions load only when the user trusts them (SECURITY.md). */
export interface ProjectAgentsAccess {
  /** The file as it is now is trusted (recorded by `agentwire trust`, or `--trust-project`). */
  trusted: (file: string) => boolean;
  /** The project root the user would trust, for the notice. */
  root: string;
}

export interface AgentSourcesInput {
  cwd: string;
  /** Undefined: the project's definitions are not read at all (`--setting-sources` without `project`). */
  project: ProjectAgentsAccess | undefined;
  /** The user's home (`~/.claude/agents`). */
  home: string;
  /** `$AGENTWIRE_HOME` (`agents/` in it). */
  agentwireHome: string;
  /** `--agents`, already checked (parseAgentRecord). */
  cliAgents?: readonly AgentDefinition[];
  /** The SDK's `agents` (`initialize`, the library's option), already checked. */
  sdkAgents?: readonly AgentDefinition[];
}

/**
 * The folders definitions are read from, per source, the winning folder first. A project folder
 * that is also a user folder (a run in the home folder itself) counts as the user's: the user's
 * own files need no trust.
 */
export function agentFolders(
  input: Pick<AgentSourcesInput, "cwd" | "home" | "agentwireHome">,
): Array<{ directory: string; source: AgentSource }> {
  const user = [path.join(input.agentwireHome, "agents"), path.join(input.home, ".claude", "agents")].map((directory) =>
    path.resolve(directory),
  );
  return [
    ...projectAgentFolders(input.cwd)
      .filter((directory) => !user.includes(path.resolve(directory)))
      .map((directory) => ({ directory, source: "project" as const })),
    ...user.map((directory) => ({ directory, source: "user" as const })),
  ];
}

/** A project's folders of definitions: from `cwd` up to the repository root, nearest first; agentwire's shared `.agents` before Claude Code's. */
export function projectAgentFolders(cwd: string): string[] {
  return projectDirectories(cwd).flatMap((directory) => [".agents", ".claude"].map((folder) => path.join(directory, folder, "agents")));
}

/**
 * Every agent a session offers, sorted by name, and what was wrong on the way. When names
 * collide the higher source wins: the SDK's over `--agents` over the project's over the user's
 * over the built-ins (Claude Code: session flags over project over user over built-in); within
 * one source the folder listed first by `agentFolders` wins, then the file whose name sorts
 * first. An untrusted project's files are not read; one notice names them and how to trust them.
 */
export async function loadAgentDefinitions(
  input: AgentSourcesInput,
): Promise<{ definitions: AgentDefinition[]; problems: AgentProblem[] }> {
  const problems: AgentProblem[] = [];
  const untrusted: string[] = [];
  const fromFiles: AgentDefinition[] = [];
  for (const { directory, source } of agentFolders(input)) {
    if (source === "project" && input.project === undefined) continue;
    for (const file of markdownFiles(directory)) {
      if (source === "project" && !input.project!.trusted(file)) {
        untrusted.push(file);
        continue;
      }
      const loaded = await readAgentFile(file, source);
      problems.push(...loaded.problems);
      if (loaded.definition) fromFiles.push(loaded.definition);
    }
  }
  if (untrusted.length > 0 && input.project) problems.push(untrustedNotice(input.project.root, untrusted));
  const candidates = [...BUILT_IN_AGENTS, ...fromFiles, ...(input.cliAgents ?? []), ...(input.sdkAgents ?? [])];
  return { definitions: winners(candidates), problems };
}

/**
 * One definition per name: the highest source's; among equals the first. Sorted by name as
 * Claude Code sorts `system/init.agents`: letters of either case together (`claude`, `Explore`,
 * `general-purpose`, `Plan`), names that differ only in case in code-unit order.
 */
export function winners(candidates: readonly AgentDefinition[]): AgentDefinition[] {
  const rank = (definition: AgentDefinition) => AGENT_SOURCES.indexOf(definition.source);
  const byName = new Map<string, AgentDefinition>();
  for (const candidate of candidates) {
    const held = byName.get(candidate.name);
    if (held === undefined || rank(candidate) > rank(held)) byName.set(candidate.name, candidate);
  }
  return [...byName.values()].sort((a, b) => compareText(a.name.toLowerCase(), b.name.toLowerCase()) || compareText(a.name, b.name));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function untrustedNotice(root: string, files: readonly string[]): AgentProblem {
  const shown = files.map((file) => path.relative(root, file) || file).join(", ");
  return {
    code: "agents_untrusted",
    message: `This project's agent definitions (${shown}) were not loaded: a definition sets what a subagent is told and may use, and these are not trusted as they are now. After reading them, run \`agentwire trust ${root}\` to trust them (or pass --trust-project for one run).`,
  };
}

/** The `.md` files of a folder, sorted; none when it is not there. Hidden files are skipped. */
function markdownFiles(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => name.endsWith(".md") && !name.startsWith("."))
      .sort()
      .map((name) => path.join(directory, name));
  } catch {
    return [];
  }
}

/** Definitions are a few KiB; a larger file is not one (and is not read whole). */
const MAX_FILE_BYTES = 256 * 1024;

async function readAgentFile(file: string, source: AgentSource): Promise<{ definition?: AgentDefinition; problems: AgentProblem[] }> {
  const text = readRegularText(file);
  const parsed = typeof text === "string" ? await parseAgentMarkdown(text) : { ok: false as const, reason: text.problem };
  if (!parsed.ok)
    return { problems: [{ code: "agent_skipped", path: file, message: `The agent definition ${file} was not loaded: ${parsed.reason}.` }] };
  return {
    definition: { name: parsed.name, source, file, ...parsed.fields },
    problems: parsed.notes.map((note) => ({ code: "agent_fixed" as const, path: file, message: `The agent definition ${file}: ${note}.` })),
  };
}

/**
 * The file's text, when it is a regular file of a sensible size: read without blocking, so a FIFO
 * named `x.md` in a cloned repository cannot hang the start.
 */
function readRegularText(file: string): string | { problem: string } {
  const read = readRegularFile(file, MAX_FILE_BYTES);
  if ("problem" in read) return { problem: read.problem.replace(/^it is larger than/, "it is more than an agent definition's limit of") };
  return read.bytes.toString("utf8");
}
