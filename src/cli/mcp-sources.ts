import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type * as z from "zod/mini";
import { McpConfigFileSchema, type McpServers } from "../mcp/mcp-config.js";

/**
 * The MCP servers of a run, as Claude Code gathers them: the project's `.mcp.json` (unless
 * `--strict-mcp-config`), then each `--mcp-config` (a file, or the JSON itself, as the Agent SDK
 * passes it) in order, a later server replacing an earlier one of the same name. `${VAR}` and
 * `${VAR:-default}` in strings are expanded from the environment, as Claude Code does.
 * In-process servers (`type: "sdk"`) are the host's: they arrive with `initialize`, not here.
 */
export function gatherMcpServers(input: { values: readonly string[]; strict: boolean; cwd: string; processCwd: string; env: Readonly<Record<string, string | undefined>> }): { servers: McpServers } | { error: string } {
  const sources: Array<{ label: string; text: string }> = [];
  const projectFile = join(input.cwd, ".mcp.json");
  if (!input.strict && existsSync(projectFile)) {
    const text = readText(projectFile);
    if ("error" in text) return text;
    sources.push({ label: projectFile, text: text.text });
  }
  for (const value of input.values) {
    if (value.trimStart().startsWith("{")) {
      sources.push({ label: "--mcp-config", text: value });
      continue;
    }
    const file = resolve(input.processCwd, value);
    const text = readText(file);
    if ("error" in text) return { error: `--mcp-config: ${text.error}` };
    sources.push({ label: file, text: text.text });
  }
  let servers: McpServers = {};
  for (const source of sources) {
    let json: unknown;
    try {
      json = JSON.parse(source.text);
    } catch (error) {
      return { error: `MCP configuration ${source.label} is not valid JSON: ${(error as Error).message}` };
    }
    const expanded = expandVariables(withoutSdkServers(json), input.env);
    if ("error" in expanded) return { error: `MCP configuration ${source.label}: ${expanded.error}` };
    const parsed = McpConfigFileSchema.safeParse(expanded.value);
    if (!parsed.success) return { error: `MCP configuration ${source.label}: ${describeIssues(parsed.error)}` };
    servers = { ...servers, ...parsed.data.mcpServers };
  }
  return { servers };
}

function readText(file: string): { text: string } | { error: string } {
  try {
    return { text: readFileSync(file, "utf8") };
  } catch (error) {
    return { error: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

function withoutSdkServers(json: unknown): unknown {
  if (typeof json !== "object" || json === null || !("mcpServers" in json)) return json;
  const servers = (json as { mcpServers: unknown }).mcpServers;
  if (typeof servers !== "object" || servers === null) return json;
  const kept = Object.entries(servers).filter(([, server]) => !(typeof server === "object" && server !== null && (server as { type?: unknown }).type === "sdk"));
  return { ...json, mcpServers: Object.fromEntries(kept) };
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
    if (typeof node === "object" && node !== null) return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, expand(child)]));
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
