/**
 * Git settings that run programs, overridden for every git a command judged read-only starts:
 * `GIT_CONFIG_COUNT` entries count as `git -c` options, above every configuration file, so a
 * repository's own `.git/config` cannot turn `git status` into running its fsmonitor, hooks, a
 * pager or a signature checker. What cannot be overridden this way is left to the permission
 * check, which refuses repositories that set it (src/permissions/git-config-risk.ts): drivers
 * keyed by names (filters, textconv), and `diff.external`, which git runs for any value, even an
 * empty one. Git older than 2.31 ignores these variables; that check still holds there.
 */
const HARDENED_SETTINGS: ReadonlyArray<readonly [key: string, value: string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["log.showSignature", "false"],
  ["credential.helper", ""],
  ["core.sshCommand", "false"],
  // A bare repository found by walking up (one committed inside a cloned project) brings a
  // config of its own; only a repository named explicitly is used.
  ["safe.bareRepository", "explicit"],
];

/** Variables that name programs git runs, or that let git write while reading (the index refresh). */
const HARDENED_VARIABLES: Readonly<Record<string, string>> = { GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0" };
const REMOVED_VARIABLES = ["GIT_EXTERNAL_DIFF"];

/** `env` with the hardening added after any `GIT_CONFIG_COUNT` entries it already has. */
export function hardenedGitEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? "0", 10);
  const first = Number.isSafeInteger(existing) && existing > 0 ? existing : 0;
  const hardened: NodeJS.ProcessEnv = { ...env, ...HARDENED_VARIABLES, GIT_CONFIG_COUNT: String(first + HARDENED_SETTINGS.length) };
  HARDENED_SETTINGS.forEach(([key, value], offset) => {
    hardened[`GIT_CONFIG_KEY_${first + offset}`] = key;
    hardened[`GIT_CONFIG_VALUE_${first + offset}`] = value;
  });
  for (const name of REMOVED_VARIABLES) delete hardened[name];
  return hardened;
}
