import { existsSync } from "node:fs";
import path from "node:path";
import { realPathOfNearestAncestor } from "../paths/real-path.js";
import { readRegularFile } from "../trust/regular-file.js";
import { parseSettingsDocument, type SettingsDocument } from "./settings-document.js";

/** Claude Code's setting sources: the user's files, the project's shared file, its local one. */
export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/**
 * Where a layer of settings comes from, lowest precedence first: Claude Code's user file
 * (`~/.claude/settings.json`), agentwire's own user file (`$AGENTWIRE_HOME/settings.json`), the
 * project's shared file (`.claude/settings.json`), its local file (`.claude/settings.local.json`),
 * and the command line's `--settings` (the library's `settings`).
 */
export const SETTINGS_SCOPES = ["user", "agentwire", "project", "local", "flag"] as const;
export type SettingsScope = (typeof SETTINGS_SCOPES)[number];

export interface SettingsLayer {
  scope: SettingsScope;
  /** How problems name it: the file's path, or `--settings` for inline JSON. */
  label: string;
  /** The file read, when the layer is one. */
  file: string | undefined;
  /** What was read: the project's files are trusted as these bytes (src/trust/fingerprint.ts). */
  bytes: Buffer;
  document: SettingsDocument;
}

export interface SettingsRequest {
  /** `--settings` / the library's `settings`: a file path, JSON text, or (library) an object. */
  flag: string | Readonly<Record<string, unknown>> | undefined;
  /** `--setting-sources`; undefined reads them all. The flag layer is read whatever it says, as in Claude Code. */
  sources: readonly SettingSource[] | undefined;
  /** The project directory: where `.claude/settings.json` is looked for (absolute). */
  cwd: string;
  /** Where a relative `--settings` path starts. */
  processCwd: string;
  /** Claude Code's configuration folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  claudeDirectory: string;
  agentwireHome: string;
}

/** The files Claude Code reads in the project `cwd`, by scope. */
export function projectSettingsFiles(cwd: string): { project: string; local: string } {
  return { project: path.join(cwd, ".claude", "settings.json"), local: path.join(cwd, ".claude", "settings.local.json") };
}

/**
 * Reads every settings layer the request names, lowest precedence first. A file that is not
 * there is no layer; one that cannot be read or is not a JSON object is a problem (and no layer),
 * and so is each field of a layer that cannot be used. `--settings` is what the caller asked for
 * in so many words: a file it names that cannot be read, or text that is not a JSON object, is an
 * error instead.
 */
export function readSettingsLayers(request: SettingsRequest): { layers: SettingsLayer[]; problems: string[] } | { error: string } {
  const reads = (source: SettingSource) => request.sources === undefined || request.sources.includes(source);
  const project = projectSettingsFiles(request.cwd);
  const files: Array<{ scope: SettingsScope; file: string }> = [
    ...(reads("user")
      ? [
          { scope: "user" as const, file: path.join(request.claudeDirectory, "settings.json") },
          { scope: "agentwire" as const, file: path.join(request.agentwireHome, "settings.json") },
        ]
      : []),
    ...(reads("project") ? [{ scope: "project" as const, file: project.project }] : []),
    ...(reads("local") ? [{ scope: "local" as const, file: project.local }] : []),
  ];
  // Started in the home folder, the project's shared file is the user's own: read once, as the user's.
  const seen = new Set<string>();
  const distinct = files.filter(({ file }) => {
    const real = realPathOfNearestAncestor(file);
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
  const layers: SettingsLayer[] = [];
  const problems: string[] = [];
  const add = (scope: SettingsScope, label: string, file: string | undefined, bytes: Buffer): string | undefined => {
    const parsed = parseSettingsDocument(withoutByteOrderMark(bytes.toString("utf8")));
    if ("error" in parsed) return `${label} is ${parsed.error}`;
    layers.push({ scope, label, file, bytes, document: parsed.document });
    problems.push(...parsed.problems.map((problem) => `${label}: ${problem}`));
    return undefined;
  };
  for (const { scope, file } of distinct) {
    if (!existsSync(file)) continue;
    const read = readRegularFile(file);
    if ("problem" in read) {
      problems.push(`${file} was not read: ${read.problem}`);
      continue;
    }
    const problem = add(scope, file, file, read.bytes);
    if (problem) problems.push(`${problem}; it was ignored`);
  }
  const flag = flagBytes(request.flag, request.processCwd);
  if ("error" in flag) return flag;
  if (flag.bytes) {
    const problem = add("flag", flag.file ?? "--settings", flag.file, flag.bytes);
    if (problem) return { error: flag.file ? `--settings: ${problem}` : problem };
  }
  return { layers, problems };
}

/** `--settings` as bytes: inline JSON (text starting with `{`, or an object), else a file path. */
function flagBytes(flag: SettingsRequest["flag"], processCwd: string): { bytes: Buffer | undefined; file?: string } | { error: string } {
  if (flag === undefined) return { bytes: undefined };
  if (typeof flag !== "string") return { bytes: Buffer.from(JSON.stringify(flag)) };
  if (flag.trimStart().startsWith("{")) return { bytes: Buffer.from(flag) };
  if (flag.trim() === "") return { error: "--settings needs a settings file or JSON text" };
  const file = path.resolve(processCwd, flag);
  const read = readRegularFile(file);
  if ("problem" in read) return { error: `--settings: ${file} was not read: ${read.problem}` };
  return { bytes: read.bytes, file };
}

function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
