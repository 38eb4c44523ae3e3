import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { parseRule } from "../permissions/rule-syntax.js";
import { projectSkillLocations, SkillCatalog } from "../skills/catalog.js";
import { GRANT_ALL } from "../skills/skill-grants.js";
import { isCredentialName } from "../process/child-environment.js";
import { projectAgentFolders } from "../agents/load-agent-definitions.js";
import { parseAgentMarkdown } from "../agents/agent-markdown.js";
import { toolsSummary } from "../agents/agent-listing.js";
import { bytesFingerprint, folderFingerprint, mcpConfigFingerprint } from "../trust/fingerprint.js";
import { settingsFingerprint } from "../trust/settings-fingerprint.js";
import { projectFileKey, trustRootOf } from "../trust/project-trust.js";
import { readRegularFile } from "../trust/regular-file.js";
import { needsTrust } from "../settings/effective-settings.js";
import { parseSettingsDocument, type SettingsDocument } from "../settings/settings-document.js";
import { projectSettingsFiles } from "../settings/settings-files.js";

/** One thing a project brings that needs trust, as `agentwire trust` shows and records it. */
interface TrustItem {
  /** The file (or skill folder, ending with `/`) relative to the root: its name in the record. */
  key: string;
  /** Undefined when it could not be hashed (unreadable, too large): it cannot be trusted. */
  fingerprint: string | undefined;
  title: string;
  details: string[];
}

/** What a run in `directory` would take from its project, and the root it is recorded under. */
export interface TrustOffer {
  root: string;
  items: TrustItem[];
}

/**
 * Everything in `directory`'s project that takes effect only once trusted: its `.mcp.json` (the
 * commands it would run, the URLs it would reach, the credentials it would receive), its
 * settings files' hooks, allow rules, directories, widening mode and env, each project skill
 * whose `allowed-tools` approve calls, and each agent definition file. Each is hashed before it is read for
 * display (a skill folder again after, and refused if it changed meanwhile), so what gets
 * recorded is never newer than what was shown; a later change needs trust again.
 */
export async function gatherTrustOffer(directory: string): Promise<TrustOffer> {
  const root = trustRootOf(directory);
  const items: TrustItem[] = [];
  const mcpFile = path.join(directory, ".mcp.json");
  if (existsSync(mcpFile)) items.push(mcpItem(root, mcpFile));
  for (const file of Object.values(projectSettingsFiles(directory))) {
    const item = existsSync(file) ? settingsItem(root, directory, file) : undefined;
    if (item) items.push(item);
  }
  const catalog = SkillCatalog.discover(projectSkillLocations(directory), GRANT_ALL);
  const before = new Map(catalog.entries.map((entry) => [entry.directory, folderFingerprint(entry.directory)]));
  const { skills } = await catalog.load();
  for (const skill of skills) {
    if (skill.allowedTools.length === 0) continue;
    const folder = `${skill.directory}${path.sep}`;
    const fingerprint = before.get(skill.directory);
    items.push({
      key: projectFileKey(root, folder),
      // A folder that changed while it was read is not recorded: what was shown may not be what is there.
      fingerprint: fingerprint !== undefined && folderFingerprint(skill.directory) === fingerprint ? fingerprint : undefined,
      title: `Skill "${skill.name}" (${path.relative(root, skill.directory) || "."}/, the whole folder) approves without asking:`,
      details: skill.allowedTools.map(describeRule),
    });
  }
  for (const folder of projectAgentFolders(directory)) items.push(...(await agentItems(root, folder)));
  return { root, items };
}

/**
 * Each agent definition file of a project folder: a definition decides what a subagent is told,
 * which tools it has and in which permission mode it runs, so it loads only once trusted. The
 * bytes shown are the bytes hashed.
 */
async function agentItems(root: string, folder: string): Promise<TrustItem[]> {
  let names: string[];
  try {
    names = readdirSync(folder)
      .filter((name) => name.endsWith(".md") && !name.startsWith("."))
      .sort();
  } catch {
    return [];
  }
  const items: TrustItem[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    const read = readRegularFile(file);
    if ("problem" in read) {
      items.push({ key: projectFileKey(root, file), fingerprint: undefined, title: `${file}:`, details: [read.problem] });
      continue;
    }
    const parsed = await parseAgentMarkdown(read.bytes.toString("utf8"));
    const details = parsed.ok
      ? [
          `tools: ${toolsSummary(parsed.fields)}`,
          ...(parsed.fields.model ? [`model: ${parsed.fields.model}`] : []),
          ...(parsed.fields.permissionMode ? [`permission mode: ${parsed.fields.permissionMode}`] : []),
          ...(parsed.fields.mcpServers
            ? [
                `MCP servers: ${parsed.fields.mcpServers.map((entry) => (typeof entry === "string" ? entry : Object.keys(entry).join(", "))).join(", ")}`,
              ]
            : []),
        ]
      : [`not usable as it is: ${parsed.reason}`];
    items.push({
      key: projectFileKey(root, file),
      fingerprint: bytesFingerprint(read.bytes),
      title: `Agent definition "${parsed.ok ? parsed.name : name}" (${path.relative(root, file)}): a subagent's instructions, tools and model:`,
      details,
    });
  }
  return items;
}

function mcpItem(root: string, file: string): TrustItem {
  const read = readRegularFile(file);
  if ("problem" in read) return { key: projectFileKey(root, file), fingerprint: undefined, title: `${file}:`, details: [read.problem] };
  return {
    key: projectFileKey(root, file),
    fingerprint: mcpConfigFingerprint(read.bytes, path.dirname(file), root),
    title: `${file} starts these MCP servers:`,
    details: describeMcpServers(read.bytes.toString("utf8")),
  };
}

/**
 * A settings file, when it holds something that needs trust: what its hooks would run and what
 * its rules and env would change. A file that is not a JSON object applies nothing, so it is not
 * offered (the run reports it).
 */
function settingsItem(root: string, directory: string, file: string): TrustItem | undefined {
  const read = readRegularFile(file);
  if ("problem" in read) return { key: projectFileKey(root, file), fingerprint: undefined, title: `${file}:`, details: [read.problem] };
  const parsed = parseSettingsDocument(read.bytes.toString("utf8").replace(/^\uFEFF/, ""));
  if ("error" in parsed || !needsTrust(parsed.document)) return undefined;
  return {
    key: projectFileKey(root, file),
    fingerprint: settingsFingerprint(read.bytes, directory, root),
    title: `${file} runs and allows without asking:`,
    details: describeSettings(parsed.document),
  };
}

/** What a settings file would run and allow, one line each. */
function describeSettings(document: SettingsDocument): string[] {
  const lines = document.hooks.map((hook) => `hook ${hook.event}${hook.matcher ? ` (${hook.matcher})` : ""}: runs ${hook.command}`);
  if (document.disableAllHooks) lines.push("disableAllHooks: turns off every settings hook, your own files' too");
  lines.push(...document.allow.map((rule) => `allow ${describeRule(rule)}`));
  lines.push(...document.additionalDirectories.map((entry) => `adds the directory ${entry}`));
  if (document.defaultMode !== undefined) lines.push(`sets the permission mode ${document.defaultMode}`);
  for (const [name, value] of Object.entries(document.env))
    lines.push(`env ${name}=${value}${isCredentialName(name) ? "   (a credential: sent to the model provider, kept from commands)" : ""}`);
  return lines;
}

/** Each server as the file writes it (variables not expanded), and which credentials it would get. */
export function describeMcpServers(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return [`not valid JSON (${(error as Error).message}): no server can start from it until it is fixed`];
  }
  const servers = (json as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return ["no mcpServers object: it starts nothing"];
  const lines: string[] = [];
  for (const [name, config] of Object.entries(servers as Record<string, unknown>)) {
    if (typeof config !== "object" || config === null) {
      lines.push(`"${name}": not a server configuration`);
      continue;
    }
    const server = config as {
      command?: unknown;
      args?: unknown;
      url?: unknown;
      type?: unknown;
      env?: unknown;
      headers?: unknown;
      cwd?: unknown;
    };
    if (server.type === "sdk") continue;
    const what =
      typeof server.command === "string"
        ? `runs ${[server.command, ...(Array.isArray(server.args) ? server.args.map(String) : [])].map(shellWord).join(" ")}${typeof server.cwd === "string" ? ` in ${server.cwd}` : ""}`
        : `connects to ${String(server.url)}${typeof server.type === "string" ? ` (${server.type})` : ""}`;
    lines.push(`"${name}": ${what}`);
    for (const [key, value] of Object.entries(objectOrEmpty(server.env))) lines.push(`    env ${key}=${String(value)}`);
    for (const [key, value] of Object.entries(objectOrEmpty(server.headers))) lines.push(`    header ${key}: ${String(value)}`);
    const variables = [...new Set([...JSON.stringify(config).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!))];
    const credentials = variables.filter(isCredentialName);
    if (credentials.length > 0) lines.push(`    receives your credentials: ${credentials.join(", ")}`);
    const others = variables.filter((variable) => !isCredentialName(variable));
    if (others.length > 0) lines.push(`    reads the environment variables ${others.join(", ")}`);
  }
  return lines.length > 0 ? lines : ["no servers"];
}

/** A rule, and in words what a broad one allows. */
function describeRule(text: string): string {
  const rule = parseRule(text);
  if (rule.content === undefined || rule.content === "*") return `${text}   (every ${rule.toolName} call)`;
  return text;
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
