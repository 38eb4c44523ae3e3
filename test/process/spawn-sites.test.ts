import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/agentwire.js";

/**
 * Every process agentwire starts gets its environment from child-environment.ts, so a new spawn
 * site cannot quietly hand the model's commands agentwire's keys. The one exception is named
 * with its reason.
 */
const EXEMPT: Record<string, string> = {
  "src/providers/gcloud-token.ts": "gcloud is agentwire's own provider login and needs the cloud credentials",
};

/**
 * Where processes may be started outside src/process/, each with its reason. Whatever runs code a
 * user, a model or a repository wrote (Bash, hooks, MCP stdio servers) starts through
 * src/process/supervised-process.ts, which owns its process group and supervision; these are
 * agentwire's own short helpers.
 */
const SPAWNS_OUTSIDE_PROCESS: Record<string, string> = {
  "src/providers/gcloud-token.ts": "agentwire's own provider login",
  "src/tools/search/ripgrep-search.ts": "ripgrep runs agentwire's own search and ends with the tool call (its abort signal stops it)",
  "src/tools/sandbox/confinement.ts": "a bwrap probe that runs `true` under a time limit",
  "src/tools/sandbox/sandbox-probe.ts": "a synchronous bwrap probe that runs `true`",
  "src/cli/web-command.ts": "opens the user's browser, which is meant to outlive agentwire",
};

const SPAWN_CALL = /(?<![.\w])(spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)\(/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The text of the call that opens at `start` (its parentheses balanced), for the env check. */
function callText(source: string, start: number): string {
  let depth = 0;
  for (let index = source.indexOf("(", start); index < source.length; index++) {
    if (source[index] === "(") depth++;
    else if (source[index] === ")" && --depth === 0) return source.slice(start, index + 1);
  }
  return source.slice(start);
}

/** The spawn calls in `sources` that neither use childEnvironment for `env` nor are exempt. */
function unfilteredCalls(sources: Array<{ file: string; source: string }>): {
  calls: number;
  unfiltered: Array<{ file: string; call: string }>;
} {
  const calls = sources.flatMap(({ file, source }) =>
    source.includes("node:child_process")
      ? [...source.matchAll(SPAWN_CALL)].map((match) => ({ file, call: callText(source, match.index) }))
      : [],
  );
  // `env:` built from childEnvironment, possibly wrapped (git hardening adds settings to it).
  const filtered = /\benv:[^,\n]*\bchildEnvironment\(/;
  return { calls: calls.length, unfiltered: calls.filter(({ file, call }) => !(file in EXEMPT) && !filtered.test(call)) };
}

describe("spawn sites", () => {
  it("every child process outside the exemptions gets the credential-free environment", () => {
    const sources = sourceFiles(join(ROOT, "src")).map((path) => ({ file: relative(ROOT, path), source: readFileSync(path, "utf8") }));
    const { calls, unfiltered } = unfilteredCalls(sources);
    // The scan found the known sites: the supervised start (Bash, hooks, MCP stdio), the supervisor's watcher, ripgrep, two sandbox probes, the browser opener, gcloud.
    expect(calls).toBeGreaterThanOrEqual(7);
    expect(
      sources.some(({ file, source }) => file === "src/process/supervised-process.ts" && /\bspawn\(/.test(source)),
      "the supervised start is among them",
    ).toBe(true);
    expect(unfiltered).toEqual([]);
  });

  it("only src/process starts the children that run others' code; every other spawn site is named with its reason", () => {
    const spawning = sourceFiles(join(ROOT, "src"))
      .map((path) => ({ file: relative(ROOT, path), source: readFileSync(path, "utf8") }))
      .filter(({ source }) => source.includes("node:child_process") && [...source.matchAll(SPAWN_CALL)].length > 0)
      .map(({ file }) => file)
      .filter((file) => !file.startsWith("src/process/"));
    expect(spawning.sort()).toEqual(Object.keys(SPAWNS_OUTSIDE_PROCESS).sort());
    for (const file of ["src/tools/bash-invocation.ts", "src/hooks/hook-process.ts", "src/mcp/stdio-transport.ts"]) {
      expect(readFileSync(join(ROOT, file), "utf8"), file).toContain("startSupervisedProcess(");
    }
  });

  it("the check notices a spawn that inherits the environment, or passes it whole", () => {
    const source =
      'import { spawn } from "node:child_process";\nspawn("sh", ["-c", cmd], { cwd });\nspawn("sh", [], { env: process.env });\nspawn("sh", [], { env: childEnvironment(process.env) });\n';
    expect(unfilteredCalls([{ file: "src/tools/new-tool.ts", source }]).unfiltered.map(({ call }) => call)).toEqual([
      'spawn("sh", ["-c", cmd], { cwd })',
      'spawn("sh", [], { env: process.env })',
    ]);
  });
});
