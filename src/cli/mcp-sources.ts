import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type * as z from "zod/mini";
import { McpConfigFileSchema, McpServerNameSchema, type McpServers } from "../mcp/mcp-config.js";
import { mcpConfigFingerprint } from "../trust/fingerprint.js";
import { trustRootOf, type ProjectTrust } from "../trust/project-trust.js";
import { readRegularFile } from "../trust/regular-file.js";

/** Names listed from an untrusted file, at most: the file is the repository's, not the user's. */
const MAX_UNTRUSTED_NAMES = 50;

/** Whether a run looks at the project's `.mcp.json`, and which contents of it it trusts. */
export interface ProjectMcpPolicy {
  /** False with `--strict-mcp-config`, or `--setting-sources` without `project`: the file is not even read. */
  read: boolean;
  trust: ProjectTrust;
}

/**
 * The MCP servers of a run, as Claude Code gathers them: the project's `.mcp.json`, then each
 * `--mcp-config` (a file, or the JSON itself, as the Agent SDK passes it) in order, a later
 * server replacing an earlier one of the same name. `${VAR}` and `${VAR:-default}` in strings are
 * expanded from the environment, as Claude Code does.
 *
 * The project's file is the repository's: its servers start (and its variables are expanded)
 * only when that exact file is trusted; otherwise it is not expanded at all and only its server
 * names come back, for `system/init` to list as needing trust. Files the user or host named are
 * theirs, and trusted.
 *
 * In-process servers (`{"type": "sdk"}`) live in the host process, and only the host can
 * declare them: an `--mcp-config` entry names one (the Python Agent SDK announces its servers
 * only that way; the TypeScript SDK names them in `initialize`), and it is reached through the
 * host's control channel. In the project's file such an entry names nothing agentwire may reach:
 * it is never sent to the host, and comes back only to be reported.
 */
export function gatherMcpServers(input: {
  values: readonly string[];
  project: ProjectMcpPolicy;
  cwd: string;
  processCwd: string;
  env: Readonly<Record<string, string | undefined>>;
}): GatheredMcpServers | { error: string } {
  const sources: Array<{ label: string; text: string; fromProject: boolean }> = [];
  const projectFile = join(input.cwd, ".mcp.json");
  let untrusted: string[] = [];
  if (input.project.read && existsSync(projectFile)) {
    // A file the repository made unreadable (a FIFO, a link to a device) starts nothing and
    // stops nothing: it cannot have been trusted, so it is passed over like an untrusted one.
    const read = readRegularFile(projectFile);
    if ("bytes" in read) {
      // The bytes that were hashed are the bytes that are used: no second read to race.
      const root = trustRootOf(input.cwd);
      if (input.project.trust.trusts(root, projectFile, () => mcpConfigFingerprint(read.bytes, input.cwd, root)))
        sources.push({ label: projectFile, text: read.bytes.toString("utf8"), fromProject: true });
      else untrusted = serverNamesIn(read.bytes.toString("utf8"));
    }
  }
  for (const value of input.values) {
    if (value.trimStart().startsWith("{")) {
      sources.push({ label: "--mcp-config", text: value, fromProject: false });
      continue;
    }
    const file = resolve(input.processCwd, value);
    const bytes = readBytes(file);
    if ("error" in bytes) return { error: `--mcp-config: ${bytes.error}` };
    sources.push({ label: file, text: bytes.bytes.toString("utf8"), fromProject: false });
  }
  let servers: McpServers = {};
  // Insertion order is the order of declaration; a later source's entry of the same name replaces any earlier one.
  const inProcess = new Map<string, "host" | "project">();
  for (const source of sources) {
    let json: unknown;
    try {
      json = JSON.parse(source.text);
    } catch (error) {
      return { error: `MCP configuration ${source.label} is not valid JSON: ${(error as Error).message}` };
    }
    const { rest, sdkNames } = splitSdkServers(json);
    const expanded = expandVariables(rest, input.env);
    if ("error" in expanded) return { error: `MCP configuration ${source.label}: ${expanded.error}` };
    const parsed = McpConfigFileSchema.safeParse(expanded.value);
    if (!parsed.success) return { error: `MCP configuration ${source.label}: ${describeIssues(parsed.error)}` };
    for (const name of Object.keys(parsed.data.mcpServers)) inProcess.delete(name);
    servers = { ...servers, ...parsed.data.mcpServers };
    for (const name of sdkNames) {
      const named = McpServerNameSchema.safeParse(name);
      if (!named.success)
        return { error: `MCP configuration ${source.label}: mcpServers.${name}: ${named.error.issues[0]?.message ?? "invalid name"}` };
      delete servers[name];
      inProcess.set(name, source.fromProject ? "project" : "host");
    }
  }
  const named = (from: "host" | "project") => [...inProcess].filter(([, origin]) => origin === from).map(([name]) => name);
  return {
    servers,
    hostServers: named("host"),
    projectSdkServers: named("project"),
    // A server the user configured under the same name replaces the project's, as a later file does.
    untrustedProjectServers: untrusted.filter((name) => !(name in servers) && !inProcess.has(name)),
  };
}

export interface GatheredMcpServers {
  /** The servers agentwire starts or connects to. */
  servers: McpServers;
  /** The host's in-process servers named in `--mcp-config` (`type: "sdk"`), reached through its control channel. */
  hostServers: string[];
  /** `type: "sdk"` entries of the project's trusted `.mcp.json`: never reached, only reported. */
  projectSdkServers: string[];
  /** The servers of the project's untrusted `.mcp.json`, by name. */
  untrustedProjectServers: string[];
}

/**
 * The server names of an untrusted `.mcp.json`, read without expanding or validating anything
 * else: valid names only, in-process (`sdk`) entries left out, as a trusted read would. A file
 * that is not JSON names none (trusting it later reports why it cannot be used).
 */
function serverNamesIn(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const listed = (splitSdkServers(json).rest as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof listed !== "object" || listed === null || Array.isArray(listed)) return [];
  return Object.keys(listed)
    .filter((name) => McpServerNameSchema.safeParse(name).success)
    .slice(0, MAX_UNTRUSTED_NAMES);
}

function readBytes(file: string): { bytes: Buffer } | { error: string } {
  try {
    return { bytes: readFileSync(file) };
  } catch (error) {
    return { error: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

/** The document without its in-process (`type: "sdk"`) entries, and the names of those entries. */
function splitSdkServers(json: unknown): { rest: unknown; sdkNames: string[] } {
  if (typeof json !== "object" || json === null || !("mcpServers" in json)) return { rest: json, sdkNames: [] };
  const servers = (json as { mcpServers: unknown }).mcpServers;
  if (typeof servers !== "object" || servers === null) return { rest: json, sdkNames: [] };
  const isSdk = (server: unknown): boolean =>
    typeof server === "object" && server !== null && (server as { type?: unknown }).type === "sdk";
  const entries = Object.entries(servers);
  return {
    rest: { ...json, mcpServers: Object.fromEntries(entries.filter(([, server]) => !isSdk(server))) },
    sdkNames: entries.filter(([, server]) => isSdk(server)).map(([name]) => name),
  };
}

/** `${NAME}` must be set; `${NAME:-fallback}` falls back. Applies to every string in the document. */
function expandVariables(value: unknown, env: Readonly<Record<string, string | undefined>>): { value: unknown } | { error: string } {
  const missing = new Set<string>();
  const expand = (node: unknown): unknown => {
    if (typeof node === "string") {
      return node.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_whole, name: string, fallback: string | undefined) => {
        const set = env[name];
        if (set !== undefined) return set;
        if (fallback !== undefined) return fallback;
        missing.add(name);
        return "";
      });
    }
    if (Array.isArray(node)) return node.map(expand);
    if (typeof node === "object" && node !== null)
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, expand(child)]));
    return node;
  };
  const expanded = expand(value);
  if (missing.size > 0) return { error: `environment variable${missing.size > 1 ? "s" : ""} not set: ${[...missing].join(", ")}` };
  return { value: expanded };
}

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(document)"}: ${issue.message}`)
    .join("; ");
}
