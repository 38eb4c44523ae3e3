import path from "node:path";
import type { DeclaredHook, PermissionModeName, SettingsDocument } from "./settings-document.js";
import type { SettingsLayer } from "./settings-files.js";

/** A hook to run, with the settings file it came from (named in its warnings). */
export interface CommandHook extends DeclaredHook {
  source: string;
}

/** What a run takes from its settings files, merged; see `combineSettings`. */
export interface FileSettings {
  /** Variables for the session: its providers, MCP servers, Bash commands and hooks. */
  env: Record<string, string>;
  model: string | undefined;
  allow: string[];
  deny: string[];
  ask: string[];
  defaultMode: PermissionModeName | undefined;
  /** Absolute. */
  additionalDirectories: string[];
  hooks: CommandHook[];
  /** What the project's untrusted files asked for and did not get, one entry per file, for the `project_not_trusted` warning. */
  untrusted: string[];
  /** What could not be used (a file that is not JSON, a field of the wrong type), for `settings_invalid` warnings. */
  problems: string[];
}

export const NO_FILE_SETTINGS: FileSettings = {
  env: {},
  model: undefined,
  allow: [],
  deny: [],
  ask: [],
  defaultMode: undefined,
  additionalDirectories: [],
  hooks: [],
  untrusted: [],
  problems: [],
};

/**
 * Modes a repository may set without trust: they ask more, or allow less, than `default` does.
 * `acceptEdits`, `auto` and `bypassPermissions` widen what runs unasked (Claude Code itself drops
 * them from the project's shared file), and `interactive` is left out with them to err toward asking.
 */
const NARROWING_MODES: ReadonlySet<PermissionModeName> = new Set(["default", "plan", "dontAsk", "deny"]);

/** Most names a warning lists from one untrusted file (the file is the repository's, not the user's). */
const MAX_NAMES_SHOWN = 8;

/**
 * The settings of a run from its layers (lowest precedence first, as `readSettingsLayers` returns
 * them), by Claude Code's rules: a later layer's `model` and `defaultMode` win, `env` merges
 * variable by variable (a later value wins), permission rules and directories of every layer add
 * up (a deny rule anywhere wins over any allow rule: the policy checks deny rules first), and the
 * hooks of every layer run. `disableAllHooks` in any layer turns every settings hook off.
 *
 * The project's files (`project`, `local`) are the repository's: what they would run or allow —
 * hooks, allow rules, `additionalDirectories`, a widening `defaultMode`, `env` (which could point
 * a provider's base URL elsewhere to collect the key, or set BASH_ENV or NODE_OPTIONS) — takes
 * effect only when `trusted` says so, and so does `disableAllHooks`, which would silence the
 * user's own guard hooks; deny and ask rules, a narrowing mode and `model` always
 * apply. `trusted` is asked only about a file that holds something of the first kind. Pure but
 * for `trusted`.
 */
export function combineSettings(
  layers: readonly SettingsLayer[],
  trusted: (layer: SettingsLayer) => boolean,
  paths: { cwd: string; userHome: string },
): FileSettings {
  const settings: FileSettings = {
    ...NO_FILE_SETTINGS,
    env: {},
    allow: [],
    deny: [],
    ask: [],
    additionalDirectories: [],
    hooks: [],
    untrusted: [],
    problems: [],
  };
  let hooksOff = false;
  for (const layer of layers) {
    const document =
      layer.scope === "project" || layer.scope === "local" ? trustedPart(layer, trusted, paths.cwd, settings.untrusted) : layer.document;
    Object.assign(settings.env, document.env);
    settings.model = document.model ?? settings.model;
    settings.defaultMode = document.defaultMode ?? settings.defaultMode;
    settings.allow.push(...document.allow);
    settings.deny.push(...document.deny);
    settings.ask.push(...document.ask);
    settings.additionalDirectories.push(...document.additionalDirectories.map((directory) => resolveDirectory(directory, paths)));
    settings.hooks.push(...document.hooks.map((hook) => ({ ...hook, source: layer.label })));
    hooksOff ||= document.disableAllHooks;
  }
  return {
    ...settings,
    allow: unique(settings.allow),
    deny: unique(settings.deny),
    ask: unique(settings.ask),
    additionalDirectories: unique(settings.additionalDirectories),
    hooks: hooksOff ? [] : settings.hooks,
  };
}

/**
 * Flags win over settings, as in Claude Code: `--model`, `--permission-mode` replace the
 * settings' values; `--allowedTools`, `--disallowedTools` and `--add-dir` add to their rules and
 * directories.
 */
export function flagsOverSettings(
  flags: {
    model: string | undefined;
    permissionMode: PermissionModeName | undefined;
    allowedTools: readonly string[];
    disallowedTools: readonly string[];
    addDirs: readonly string[];
  },
  settings: FileSettings,
): { model: string | undefined; permissionMode: PermissionModeName; allowedTools: string[]; disallowedTools: string[]; addDirs: string[] } {
  return {
    model: flags.model ?? settings.model,
    permissionMode: flags.permissionMode ?? settings.defaultMode ?? "default",
    allowedTools: unique([...flags.allowedTools, ...settings.allow]),
    disallowedTools: unique([...flags.disallowedTools, ...settings.deny]),
    addDirs: unique([...flags.addDirs, ...settings.additionalDirectories]),
  };
}

/** Whether a project file holds anything that runs or allows more: only then is its trust looked up. */
export function needsTrust(document: SettingsDocument): boolean {
  return (
    document.hooks.length > 0 ||
    document.allow.length > 0 ||
    document.additionalDirectories.length > 0 ||
    Object.keys(document.env).length > 0 ||
    // Turning hooks off is not narrowing: it silences the user's own guards (a PreToolUse that refuses `rm -rf`).
    document.disableAllHooks ||
    (document.defaultMode !== undefined && !NARROWING_MODES.has(document.defaultMode))
  );
}

/** The part of a project file that applies: all of it when trusted, else only what narrows. */
function trustedPart(layer: SettingsLayer, trusted: (layer: SettingsLayer) => boolean, cwd: string, untrusted: string[]): SettingsDocument {
  const document = layer.document;
  if (!needsTrust(document) || trusted(layer)) return document;
  untrusted.push(`${layer.file ? path.relative(cwd, layer.file) : layer.label} (${heldBack(document).join("; ")})`);
  const mode = document.defaultMode !== undefined && NARROWING_MODES.has(document.defaultMode) ? document.defaultMode : undefined;
  return { ...document, allow: [], additionalDirectories: [], env: {}, hooks: [], disableAllHooks: false, defaultMode: mode };
}

/** In words, what an untrusted file asked for. */
function heldBack(document: SettingsDocument): string[] {
  const parts: string[] = [];
  if (document.hooks.length > 0) parts.push(`its hooks for ${shortList(unique(document.hooks.map((hook) => hook.event)))}`);
  if (document.disableAllHooks) parts.push("its disableAllHooks, which turns off every settings hook, the user's too");
  if (document.allow.length > 0) parts.push(`its allow rules ${shortList(document.allow)}`);
  if (document.additionalDirectories.length > 0) parts.push(`its additionalDirectories ${shortList(document.additionalDirectories)}`);
  if (document.defaultMode !== undefined && !NARROWING_MODES.has(document.defaultMode))
    parts.push(`its defaultMode ${document.defaultMode}`);
  const names = Object.keys(document.env);
  if (names.length > 0) parts.push(`its env ${shortList(names)}`);
  return parts;
}

function shortList(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMES_SHOWN).map((item) => JSON.stringify(item));
  return items.length > MAX_NAMES_SHOWN ? `${shown.join(", ")} and ${items.length - MAX_NAMES_SHOWN} more` : shown.join(", ");
}

/** `~/x` from the user's home, a relative path from the project directory. */
function resolveDirectory(directory: string, paths: { cwd: string; userHome: string }): string {
  if (directory === "~" || directory.startsWith("~/")) return path.join(paths.userHome, directory.slice(1));
  return path.resolve(paths.cwd, directory);
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
