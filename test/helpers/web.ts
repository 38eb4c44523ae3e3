import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { agentwireEnv, BIN, type Workspace } from "./agentwire.js";

/** A running `agentwire web` and a way to call its API with the token it printed. */
export interface Web {
  base: string;
  port: number;
  token: string;
  child: ChildProcess;
  /** A JSON request with the token; `headers` adds to or replaces the defaults. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: unknown; headers: Record<string, string | string[] | undefined> }>;
}

/**
 * Stops a started `agentwire web` and waits until it has exited: on its way out it writes its code
 * cache into the workspace's home, which a cleanup running alongside would race.
 */
export async function stopWeb(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Starts `agentwire web` on a free loopback port for `workspace`; the caller stops it with stopWeb. */
export async function startWeb(workspace: Workspace, extraArgs: string[] = []): Promise<Web> {
  const child = spawn(process.execPath, [BIN, "web", "--port", "0", "--cwd", workspace.cwd, ...extraArgs], {
    env: agentwireEnv(workspace),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /agentwire web: (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`agentwire web exited (${code}): ${stderr}`)));
  });
  const parsed = new URL(url);
  const token = parsed.searchParams.get("token")!;
  const port = Number(parsed.port);
  const call: Web["call"] = (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
      const outgoing = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method,
          path,
          headers: { Authorization: `Bearer ${token}`, ...(text ? { "Content-Type": "application/json" } : {}), ...headers },
        },
        (response) => {
          let data = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (data += chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode!,
              body:
                data === "" ? undefined : String(response.headers["content-type"]).startsWith("application/json") ? JSON.parse(data) : data,
              headers: response.headers,
            }),
          );
        },
      );
      outgoing.on("error", reject);
      outgoing.end(text);
    });
  return { base: `http://127.0.0.1:${port}`, port, token, child, call };
}
