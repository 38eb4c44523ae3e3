import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  onStdoutEvents,
  expectWellFormedRun,
  results,
  ROOT,
  runAgentwire,
  spawnAgentwire,
  waitForEvent,
  waitForExit,
  type Workspace,
} from "../helpers/agentwire.js";
import { isAlive, until } from "../helpers/processes.js";

/**
 * MCP servers from `--mcp-config` and `.mcp.json`, against a real MCP server built with the
 * official SDK (fixtures/mcp/test-server.mjs), with the replay server as the model.
 */
const SERVER = join(ROOT, "fixtures", "mcp", "test-server.mjs");
let workspace: Workspace | undefined;
const children: ChildProcess[] = [];
const pidFiles: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  // A failing test must not leave a server behind either.
  for (const file of pidFiles.splice(0)) for (const pid of pidsIn(file)) killQuietly(pid);
  await workspace?.cleanup();
  workspace = undefined;
});

function stdioServer(env: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [SERVER], env, ...extra };
}

function mcpConfig(servers: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: servers });
}

function pidsIn(file: string): number[] {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number) : [];
}

/**
 * Kills a test server by the pid it recorded, if that pid is still the test server. A server that
 * died earlier in the test (the restart test's first one) freed its pid, and with pid_max at 32768
 * a busy suite can hand that number to another test's process: a blind kill could take down, say,
 * the exit-path test's process watcher, and with it the very guarantee that test checks.
 */
function killQuietly(pid: number): void {
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(SERVER)) return;
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function init(events: OutputEvent[]) {
  const event = events.find((candidate) => candidate.type === "system" && candidate.subtype === "init");
  if (event?.type !== "system" || event.subtype !== "init") throw new Error("no system/init");
  return event;
}

function toolResults(events: OutputEvent[]) {
  return events.flatMap((event) => (event.type === "user" && event.message.content[0]?.type === "tool_result" ? [event] : []));
}

const requestTools = (request: { body: unknown }) =>
  (request.body as { tools: Array<{ name: string; input_schema: Record<string, unknown> }> }).tools;

describe("MCP servers (--mcp-config, .mcp.json)", () => {
  it("a stdio server's tools reach the model with their schemas; text, image, resource-link and isError results map to tool results", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "mcp__t__echo", input: { text: "hi" } },
            { name: "mcp__t__picture", input: {} },
            { name: "mcp__t__link", input: {} },
            { name: "mcp__t__fail", input: {} },
          ],
        },
        { text: "done" },
      ],
    });
    const run = await runAgentwire(
      ["-p", "go", "--output-format", "stream-json", "--dangerously-skip-permissions", "--mcp-config", mcpConfig({ t: stdioServer() })],
      { workspace },
    );
    expect(run.code).toBe(0);
    expectWellFormedRun(run, 1);
    const started = init(run.events);
    expect(started.mcp_servers).toEqual([{ name: "t", status: "connected" }]);
    expect(started.tools).toEqual(
      expect.arrayContaining([
        "Bash",
        "mcp__t__echo",
        "mcp__t__picture",
        "mcp__t__link",
        "mcp__t__fail",
        "mcp__t__hang",
        "mcp__t__crash",
        "mcp__t__peek",
      ]),
    );
    const echo = requestTools(workspace.server.requests[0]!).find((tool) => tool.name === "mcp__t__echo");
    expect(echo?.input_schema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    const [text, picture, link, fail] = toolResults(run.events).map((event) => event.message.content[0]);
    expect(text).toMatchObject({ content: "ECHO: HI" });
    expect(text).not.toHaveProperty("is_error");
    expect(picture).toMatchObject({
      content: [
        { type: "text", text: "Here it is:" },
        { type: "image", source: { type: "base64", media_type: "image/png" } },
      ],
    });
    expect(JSON.stringify(link)).toContain("file:///tmp/report.txt");
    expect(fail).toMatchObject({ content: "the widget is broken", is_error: true });
  });

  it("a server that fails to start is reported in init and as a warning; the session goes on with the others", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "mcp__good__echo", input: { text: "still here" } }] }, { text: "done" }],
    });
    const config = mcpConfig({
      good: stdioServer(),
      bad: stdioServer({ MCP_TEST_FAIL_START: "database password missing" }),
      missing: { command: "/nonexistent/mcp-server" },
    });
    const run = await runAgentwire(
      ["-p", "go", "--output-format", "stream-json", "--dangerously-skip-permissions", "--mcp-config", config],
      { workspace },
    );
    expect(run.code).toBe(0);
    const servers = init(run.events).mcp_servers;
    expect(servers.find((server) => server.name === "good")).toEqual({ name: "good", status: "connected" });
    expect(servers.find((server) => server.name === "bad")).toMatchObject({
      status: "failed",
      error: expect.stringContaining("database password missing"),
    });
    expect(servers.find((server) => server.name === "missing")).toMatchObject({
      status: "failed",
      error: expect.stringContaining("command not found"),
    });
    const warnings = run.events.filter((event) => event.type === "system" && event.subtype === "warning");
    expect(warnings.map((warning) => (warning as { code: string }).code)).toEqual(["mcp_server_failed", "mcp_server_failed"]);
    expect(toolResults(run.events)[0]?.message.content[0]).toMatchObject({ content: "ECHO: STILL HERE" });
  });

  it("a hanging call ends at the per-call timeout; a crashed server's call is an error, and the server is restarted once", async () => {
    workspace = await createWorkspace("text");
    const pidFile = join(workspace.home, "pids");
    pidFiles.push(pidFile);
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "mcp__t__hang", input: {} }] },
        { tool_calls: [{ name: "mcp__t__crash", input: {} }] },
        { tool_calls: [{ name: "mcp__t__echo", input: { text: "back" } }] },
        { text: "done" },
      ],
    });
    const config = mcpConfig({ t: stdioServer({ MCP_TEST_PID_FILE: pidFile }, { timeout: 1_000 }) });
    const run = await runAgentwire(
      ["-p", "go", "--output-format", "stream-json", "--dangerously-skip-permissions", "--mcp-config", config],
      { workspace },
    );
    expect(run.code).toBe(0);
    expectWellFormedRun(run, 1);
    const [hang, crash, echo] = toolResults(run.events).map((event) => event.message.content[0]);
    expect(hang).toMatchObject({ is_error: true, content: expect.stringMatching(/could not run hang: .*timed out/i) });
    expect(crash).toMatchObject({ is_error: true, content: expect.stringContaining("could not run crash") });
    expect(echo).toMatchObject({ content: "ECHO: BACK" });
    expect(pidsIn(pidFile), "started, then restarted once").toHaveLength(2);
    const warnings = run.events
      .filter((event) => event.type === "system" && event.subtype === "warning")
      .map((warning) => (warning as { message: string }).message);
    expect(warnings.some((message) => /stopped .*restarting it once/.test(message) && message.includes("crashing on purpose"))).toBe(true);
  });

  for (const type of ["http", "sse"] as const) {
    it(`an ${type} server on loopback, with the configured headers`, async () => {
      workspace = await createWorkspace("text");
      const server = spawn(process.execPath, [SERVER, `--${type}`], {
        env: { ...process.env, MCP_TEST_TOKEN: "s3cret" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      children.push(server);
      const url = await new Promise<string>((resolve) =>
        server.stdout!.once("data", (chunk) => resolve((JSON.parse(String(chunk)) as { url: string }).url)),
      );
      await workspace.useScenario({
        turns: [{ tool_calls: [{ name: "mcp__remote__echo", input: { text: `over ${type}` } }] }, { text: "done" }],
      });
      const config = mcpConfig({ remote: { type, url, headers: { Authorization: "Bearer ${MCP_TOKEN}" } }, locked: { type, url } });
      const run = await runAgentwire(
        ["-p", "go", "--output-format", "stream-json", "--dangerously-skip-permissions", "--mcp-config", config],
        { workspace, env: { MCP_TOKEN: "s3cret" } },
      );
      expect(run.code).toBe(0);
      const servers = init(run.events).mcp_servers;
      expect(servers).toEqual([{ name: "remote", status: "connected" }, expect.objectContaining({ name: "locked", status: "failed" })]);
      expect(toolResults(run.events)[0]?.message.content[0]).toMatchObject({ content: `ECHO: OVER ${type.toUpperCase()}` });
    });
  }

  // Trust itself (agentwire trust, what an untrusted project may not do) is test/e2e/trust.test.ts.
  it("reads the project's .mcp.json in a trusted project, unless --strict-mcp-config or --setting-sources without project", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, ".mcp.json"), mcpConfig({ project: stdioServer() }));
    await workspace.useScenario({ turns: [{ text: "one" }, { text: "two" }, { text: "three" }] });
    const discovered = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--trust-project"], { workspace });
    expect(init(discovered.events).mcp_servers).toEqual([{ name: "project", status: "connected" }]);
    const strict = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--trust-project", "--strict-mcp-config"], {
      workspace,
    });
    expect(init(strict.events).mcp_servers).toEqual([]);
    expect(init(strict.events).tools.some((tool) => tool.startsWith("mcp__"))).toBe(false);
    const userOnly = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--trust-project", "--setting-sources=user"], {
      workspace,
    });
    expect(init(userOnly.events).mcp_servers).toEqual([]);
  });

  it("permission rules apply: MCP tools ask unless allowed, read-only ones do not, a whole-server deny rule hides them", async () => {
    workspace = await createWorkspace("text");
    const turns = {
      turns: [
        {
          tool_calls: [
            { name: "mcp__t__echo", input: { text: "x" } },
            { name: "mcp__t__peek", input: {} },
          ],
        },
        { text: "done" },
      ],
    };
    await workspace.useScenario(turns);
    const config = mcpConfig({ t: stdioServer() });
    // -p with nobody to ask: a call that needs permission is denied.
    const asked = await runAgentwire(["-p", "go", "--output-format", "stream-json", "--mcp-config", config], { workspace });
    const [denied, peeked] = toolResults(asked.events).map((event) => event.message.content[0]);
    expect(denied).toMatchObject({ is_error: true });
    expect(peeked).toMatchObject({ content: expect.stringMatching(/^pid \d+$/) });
    expect(results(asked.events)[0]?.permission_denials).toEqual([expect.objectContaining({ tool_name: "mcp__t__echo" })]);

    await workspace.useScenario(turns);
    const allowed = await runAgentwire(["-p", "go", "--output-format", "stream-json", "--mcp-config", config, "--allowedTools", "mcp__t"], {
      workspace,
    });
    expect(toolResults(allowed.events)[0]?.message.content[0]).toMatchObject({ content: "ECHO: X" });

    await workspace.useScenario({ turns: [{ text: "done" }] });
    const hidden = await runAgentwire(
      ["-p", "go", "--output-format", "stream-json", "--mcp-config", config, "--disallowedTools", "mcp__t__echo"],
      { workspace },
    );
    const tools = init(hidden.events).tools;
    expect(tools).toContain("mcp__t__peek");
    expect(tools).not.toContain("mcp__t__echo");
    expect(requestTools(workspace.server.requests[0]!).map((tool) => tool.name)).not.toContain("mcp__t__echo");
  });

  it("a host's can_use_tool is asked for an MCP tool like any tool, and its answer decides", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "mcp__t__echo", input: { text: "asked" } },
            { name: "mcp__t__echo", input: { text: "refused" } },
          ],
        },
        { text: "done" },
      ],
    });
    const child = spawnAgentwire(
      [
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--permission-prompt-tool",
        "stdio",
        "--mcp-config",
        mcpConfig({ t: stdioServer() }),
      ],
      { workspace },
    );
    children.push(child);
    const asked: Array<{ tool_name: string; input: { text: string } }> = [];
    onStdoutEvents<{ type: string; request_id?: string; request?: { subtype: string; tool_name: string; input: { text: string } } }>(
      child,
      (event) => {
        if (event.type !== "control_request" || event.request?.subtype !== "can_use_tool") return;
        asked.push(event.request);
        const allow = event.request.input.text === "asked";
        const response = allow ? { behavior: "allow", updatedInput: event.request.input } : { behavior: "deny", message: "not this one" };
        child.stdin.write(
          `${JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: event.request_id, response } })}\n`,
        );
      },
    );
    const exited = waitForExit(child);
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "go" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result");
    child.stdin.end();
    const run = await exited;
    expect(asked.map((request) => [request.tool_name, request.input.text])).toEqual([
      ["mcp__t__echo", "asked"],
      ["mcp__t__echo", "refused"],
    ]);
    const [allowed, refused] = toolResults(run.events).map((event) => event.message.content[0]);
    expect(allowed).toMatchObject({ content: "ECHO: ASKED" });
    expect(refused).toMatchObject({ is_error: true, content: expect.stringContaining("not this one") });
  });

  it("stream-json: mcp_status reports the servers live; a slow server is pending at init and its tools join a later turn", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "first" }, { text: "second" }] });
    // Start-up wait 2 s: ample for the fast server on a busy machine, short of the slow one's 4 s.
    const config = mcpConfig({ fast: stdioServer(), slow: stdioServer({ MCP_TEST_START_DELAY: "4000" }) });
    const child = spawnAgentwire(["--input-format", "stream-json", "--output-format", "stream-json", "--mcp-config", config], {
      workspace,
      env: { MCP_TIMEOUT: "2000" },
    });
    children.push(child);
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "one" } })}\n`);
    const first = await waitForEvent(child, (event) => event.type === "system" && event.subtype === "init");
    expect(first.type === "system" && first.subtype === "init" && first.mcp_servers).toEqual([
      { name: "fast", status: "connected" },
      { name: "slow", status: "pending" },
    ]);
    await waitForEvent(child, (event) => event.type === "result");
    expect(requestTools(workspace.server.requests[0]!).some((tool) => tool.name === "mcp__slow__echo")).toBe(false);
    // Ask for the status until the slow server is up, then run a second turn.
    let status: OutputEvent | undefined;
    for (let attempt = 0; attempt < 40; attempt++) {
      child.stdin.write(
        `${JSON.stringify({ type: "control_request", request_id: `status-${attempt}`, request: { subtype: "mcp_status" } })}\n`,
      );
      status = await waitForEvent(child, (event) => event.type === "control_response" && event.response.request_id === `status-${attempt}`);
      if (JSON.stringify(status).includes('"name":"slow","status":"connected"')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toMatchObject({
      response: {
        subtype: "success",
        response: {
          mcpServers: [
            { name: "fast", status: "connected", serverInfo: { name: "test-server", version: "1.2.3" } },
            { name: "slow", status: "connected" },
          ],
        },
      },
    });
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "two" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result" && event.result === "second");
    expect(requestTools(workspace.server.requests[1]!).some((tool) => tool.name === "mcp__slow__echo")).toBe(true);
    child.stdin.end();
    expect((await waitForExit(child)).code).toBe(0);
  });

  it("a server still starting at init joins mid-turn: its tools are in the next model request", async () => {
    workspace = await createWorkspace("text");
    // The tool call lasts until the server has finished its handshake (bounded at 15 s), then
    // a second more for agentwire to list its tools: a fixed sleep lost that race on a busy machine.
    const ready = join(workspace.home, "slow-ready");
    const waitForServer = `for i in $(seq 150); do [ -e ${ready} ] && break; sleep 0.1; done; sleep 1`;
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Bash", input: { command: waitForServer } }] }, { text: "done" }] });
    const config = mcpConfig({ slow: stdioServer({ MCP_TEST_START_DELAY: "2500", MCP_TEST_READY_FILE: ready }) });
    const run = await runAgentwire(
      ["-p", "go", "--output-format", "stream-json", "--dangerously-skip-permissions", "--mcp-config", config],
      { workspace, env: { MCP_TIMEOUT: "500" } },
    );
    expect(run.code).toBe(0);
    expect(init(run.events).mcp_servers).toEqual([{ name: "slow", status: "pending" }]);
    const [first, second] = workspace.server.requests.map((request) => requestTools(request).map((tool) => tool.name));
    expect(first).not.toContain("mcp__slow__echo");
    expect(second).toContain("mcp__slow__echo");
  });

  it("stdio servers die with agentwire, even when it is SIGKILLed mid-call", async () => {
    workspace = await createWorkspace("text");
    const pidFile = join(workspace.home, "pids");
    pidFiles.push(pidFile);
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "mcp__t__hang", input: {} }] }, { text: "never" }] });
    const child = spawnAgentwire(
      [
        "-p",
        "go",
        "--output-format",
        "stream-json",
        "--dangerously-skip-permissions",
        "--mcp-config",
        mcpConfig({ t: stdioServer({ MCP_TEST_PID_FILE: pidFile }) }),
      ],
      { workspace },
    );
    children.push(child);
    child.stdin.end();
    await waitForEvent(child, (event) => event.type === "assistant" && event.message.content[0]?.type === "tool_use");
    const [pid] = pidsIn(pidFile);
    expect(pid !== undefined && isAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    expect(await until(() => !isAlive(pid!), 3_000), "the MCP server died with agentwire").toBe(true);
  });

  it("a broken configuration fails before anything runs, naming the problem", async () => {
    workspace = await createWorkspace("text");
    const invalid = await runAgentwire(
      ["-p", "hi", "--output-format", "stream-json", "--mcp-config", '{"mcpServers": {"x": {"args": []}}}'],
      { workspace },
    );
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/MCP configuration --mcp-config: mcpServers\.x/);
    expect(invalid.events.map((event) => event.type)).toEqual(["result"]);
    const unset = await runAgentwire(["-p", "hi", "--mcp-config", mcpConfig({ x: { command: "${NOT_SET_ANYWHERE}" } })], { workspace });
    expect(unset.stderr).toMatch(/environment variable not set: NOT_SET_ANYWHERE/);
    const missing = await runAgentwire(["-p", "hi", "--mcp-config", "no-such-file.json"], { workspace });
    expect(missing.stderr).toMatch(/--mcp-config: cannot read .*no-such-file\.json: ENOENT/);
    expect(workspace.server.requests).toHaveLength(0);
  });
});
