import { statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { trustRootOf, type ProjectTrust } from "../trust/project-trust.js";
import { combineSettings, type FileSettings } from "./effective-settings.js";
import { readSettingsLayers, type SettingSource } from "./settings-files.js";

export interface LoadSettingsRequest {
  /** `--settings` / the library's `settings`: a file path, JSON text, or an object. */
  flag: string | Readonly<Record<string, unknown>> | undefined;
  /** `--setting-sources`; undefined reads them all. */
  sources: readonly SettingSource[] | undefined;
  /** The project directory (absolute). */
  cwd: string;
  /** Where a relative `--settings` path starts. */
  processCwd: string;
  /** HOME and CLAUDE_CONFIG_DIR locate the user's files. */
  env: Readonly<Record<string, string | undefined>>;
  agentwireHome: string;
  trust: ProjectTrust;
  /**
   * src/trust/settings-fingerprint.ts's `settingsFingerprint`, passed in so that a run without
   * project settings files never loads the shell grammar it needs. Undefined: the project's files
   * are not trusted (the caller found none to check).
   */
  settingsFingerprint: ((bytes: Uint8Array, directory: string, root: string) => string | undefined) | undefined;
}

/**
 * The settings of a run, as Claude Code reads them: every layer the request names, merged by
 * `combineSettings`, with the project's files trusted only as `agentwire trust` recorded them
 * (their content and the scripts their hooks name) or as the host vouched (`--trust-project`).
 * Directories that do not exist are left out with a problem. An error only for a `--settings`
 * the caller named that cannot be used.
 */
export function loadSettings(request: LoadSettingsRequest): { settings: FileSettings } | { error: string } {
  const userHome = request.env.HOME || homedir();
  const read = readSettingsLayers({
    flag: request.flag,
    sources: request.sources,
    cwd: request.cwd,
    processCwd: request.processCwd,
    claudeDirectory: request.env.CLAUDE_CONFIG_DIR || path.join(userHome, ".claude"),
    agentwireHome: request.agentwireHome,
  });
  if ("error" in read) return read;
  const root = trustRootOf(request.cwd);
  const trusted = combineSettings(
    read.layers,
    (layer) =>
      layer.file !== undefined &&
      request.settingsFingerprint !== undefined &&
      request.trust.trusts(root, layer.file, () => request.settingsFingerprint?.(layer.bytes, request.cwd, root)),
    {
      cwd: request.cwd,
      userHome,
    },
  );
  const missing = trusted.additionalDirectories.filter((directory) => !isDirectory(directory));
  return {
    settings: {
      ...trusted,
      additionalDirectories: trusted.additionalDirectories.filter((directory) => !missing.includes(directory)),
      problems: [
        ...read.problems,
        ...missing.map((directory) => `permissions.additionalDirectories: ${directory} is not a directory; ignored`),
      ],
    },
  };
}

function isDirectory(directory: string): boolean {
  try {
    return statSync(directory).isDirectory();
  } catch {
    return false;
  }
}
