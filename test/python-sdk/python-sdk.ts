import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { BIN, ROOT, type Workspace } from "../helpers/agentwire.js";
import type { SdkProvider, UseReport } from "./uses.js";

/**
 * Finding and running the Python Agent SDK. It is found where `python3` (or $AGENTWIRE_PYTHON)
 * imports `claude_agent_sdk`, with $AGENTWIRE_PYTHON_SDK_PATH put on PYTHONPATH when set (a
 * source tree with its dependencies: scripts/python-sdk-env.sh builds one).
 */

export interface AvailablePythonSdk {
  available: true;
  python: string;
  pythonPath: string | undefined;
  version: string;
}

export type PythonSdk = AvailablePythonSdk | { available: false; reason: string };

export function findPythonSdk(): PythonSdk {
  const pythonPath = process.env.AGENTWIRE_PYTHON_SDK_PATH || undefined;
  const python = process.env.AGENTWIRE_PYTHON || "python3";
  const env = { ...process.env, ...(pythonPath ? { PYTHONPATH: pythonPath } : {}) };
  // The interpreter's own path: a version manager's shim may need the caller's HOME, which the runs replace.
  const probe = spawnSync(python, ["-c", "import sys, claude_agent_sdk; print(sys.executable); print(claude_agent_sdk.__version__)"], {
    env,
    encoding: "utf8",
    timeout: 30_000,
  });
  if (probe.error) return { available: false, reason: `${python} cannot be run (${probe.error.message})` };
  if (probe.status !== 0) {
    const where = pythonPath
      ? ` with PYTHONPATH=${pythonPath}`
      : " (set AGENTWIRE_PYTHON_SDK_PATH to a source tree: scripts/python-sdk-env.sh)";
    return { available: false, reason: `${python} cannot import claude_agent_sdk${where}` };
  }
  const [executable, version] = probe.stdout.trim().split("\n");
  return { available: true, python: executable!, pythonPath, version: version! };
}

export interface PythonRun {
  report: UseReport & { warnings: string[] };
  stderr: string;
}

/**
 * Runs uses.py for one use against `workspace`'s replay server. The Python process gets a bare
 * environment (the SDK hands all of it to agentwire); `cliPath` is agentwire or the recorder.
 */
export async function runPythonUse(
  sdk: AvailablePythonSdk,
  use: string,
  options: { workspace: Workspace; provider: SdkProvider; cliPath?: string; extraEnv?: Record<string, string> },
): Promise<PythonRun> {
  const { workspace, provider } = options;
  const config = {
    cli_path: options.cliPath ?? BIN,
    cwd: workspace.cwd,
    model: provider.model,
    other_model: provider.otherModel.alias,
    env: sdkOptionsEnv(workspace, provider),
    extra_args: provider.extraArgs(workspace.server.url),
  };
  const child = spawn(sdk.python, [join(ROOT, "test", "python-sdk", "uses.py"), use, JSON.stringify(config)], {
    cwd: workspace.root,
    env: { ...pythonEnv(sdk, workspace), ...options.extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`uses.py ${use} exited with ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  return { report: JSON.parse(stdout) as PythonRun["report"], stderr };
}

/** The Python process's own environment: what the SDK passes on to every process it starts. */
export function pythonEnv(sdk: AvailablePythonSdk, workspace: Workspace): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: workspace.home, ...(sdk.pythonPath ? { PYTHONPATH: sdk.pythonPath } : {}) };
}

/** `ClaudeAgentOptions.env`: where agentwire keeps its files and finds the replay server. */
export function sdkOptionsEnv(workspace: Workspace, provider: SdkProvider): Record<string, string> {
  return {
    HOME: workspace.home,
    AGENTWIRE_HOME: join(workspace.home, ".agentwire"),
    ANTHROPIC_BASE_URL: workspace.server.url,
    ANTHROPIC_API_KEY: "test-key",
    ...provider.env,
  };
}
