import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, UserEvent } from "../../protocol/events.js";
import { bwrapProblem, needsBwrap } from "../helpers/bwrap.js";
import { pidsRunning, until } from "../helpers/processes.js";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, spawnAgentwire, type Workspace } from "../helpers/agentwire.js";

/**
 * `--sandbox`: Bash commands under bubblewrap, end to end. The machine must be able to run bwrap
 * with the namespaces agentwire asks for; where it cannot (no bwrap, user namespaces disallowed),
 * the tests that need it are skipped and the reason is in their name.
 */
const STREAM = ["-p", "go", "--output-format", "stream-json", "--dangerously-skip-permissions"];
let workspace: Workspace | undefined;
let server: Server | undefined;
const markers: string[] = [];

afterEach(async () => {
  for (const marker of markers.splice(0)) for (const pid of pidsRunning(marker)) process.kill(pid, "SIGKILL");
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  await workspace?.cleanup();
  workspace = undefined;
});

interface BashOutcome {
  content: unknown;
  isError: boolean;
  result: { stdout?: string; stderr?: string; sandbox?: { mode: string; network: boolean; note: string } };
}

/** Runs each command as one Bash call of its own turn, and returns their results in order. */
async function runCommands(commands: Array<string | { command: string; timeout: number }>, flags: string[]): Promise<BashOutcome[]> {
  workspace ??= await createWorkspace("text");
  await workspace.useScenario({
    turns: [
      ...commands.map((entry) => ({ tool_calls: [{ name: "Bash", input: typeof entry === "string" ? { command: entry } : entry }] })),
      { text: "done" },
    ],
  });
  const run = await runAgentwire([...STREAM, ...flags], { workspace });
  expectWellFormedRun(run, 1);
  return bashOutcomes(run.events);
}

function bashOutcomes(events: OutputEvent[]): BashOutcome[] {
  return events.flatMap((event) => {
    if (event.type !== "user") return [];
    const block = (event as UserEvent).message.content[0];
    if (block.type !== "tool_result") return [];
    return [{ content: block.content, isError: block.is_error === true, result: event.tool_use_result as BashOutcome["result"] }];
  });
}

/** A loopback server that answers every connection with "pong": reachable only with the network on. */
async function startPongServer(): Promise<number> {
  // A client that closes before reading the reply resets the connection; not the test's error.
  server = createServer((socket) => socket.on("error", () => {}).end("pong\n"));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

/** Reads one line from the port with bash's /dev/tcp (no curl or nc needed). */
const connectTo = (port: number) => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -n 1 <&3`;

describe.skipIf(bwrapProblem !== undefined)(`--sandbox${needsBwrap}`, () => {
  it("workspace-write: writes inside the workspace and TMPDIR work; outside, .git/hooks, .git/config and the network are refused", async () => {
    workspace = await createWorkspace("text");
    await mkdir(join(workspace.cwd, ".git", "hooks"), { recursive: true });
    await writeFile(join(workspace.cwd, ".git", "config"), "[core]\n");
    const port = await startPongServer();
    const [inside, outside, hook, config, temp, network] = await runCommands(
      [
        "echo hello > inside.txt && cat inside.txt",
        `echo escaped > ${join(workspace.home, "outside.txt")}`,
        "echo 'curl evil' > .git/hooks/pre-commit",
        "printf '[core]\\n\\thooksPath = /tmp\\n' >> .git/config",
        'echo scratch > "$TMPDIR/scratch.txt" && cat "$TMPDIR/scratch.txt" && echo "$TMPDIR"',
        connectTo(port),
      ],
      ["--sandbox", "workspace-write"],
    );

    expect(inside).toMatchObject({ isError: false, content: "hello" });
    expect(await readFile(join(workspace.cwd, "inside.txt"), "utf8")).toBe("hello\n");
    expect(inside!.result.sandbox).toEqual({
      mode: "workspace-write",
      network: false,
      note: expect.stringContaining("ran inside the sandbox"),
    });

    // The model sees the command's own error; the host sees the sandbox note and can offer to re-run it unconfined.
    expect(outside!.isError).toBe(true);
    // Outside is read-only, or not there at all under a covered /tmp (where this test's home is).
    expect(outside!.content).toMatch(/Read-only file system|No such file or directory/);
    expect(outside!.result.sandbox).toMatchObject({ mode: "workspace-write", network: false });
    expect(outside!.result.sandbox!.note).toMatch(/writes outside the workspace .* and network access are blocked/);
    expect(readdirSync(workspace.home)).not.toContain("outside.txt");

    expect(hook!.content).toMatch(/Read-only file system/);
    expect(readdirSync(join(workspace.cwd, ".git", "hooks"))).toEqual([]);
    expect(config!.content).toMatch(/Read-only file system/);
    expect(await readFile(join(workspace.cwd, ".git", "config"), "utf8")).toBe("[core]\n");

    expect(temp!.isError).toBe(false);
    const [scratch, tmp] = (temp!.result.stdout ?? "").split("\n");
    expect(scratch).toBe("scratch");
    expect(tmp).not.toBe(tmpdir());

    expect(network!.isError).toBe(true);
    expect(network!.content).toMatch(/Connection refused|Network is unreachable/);
  });

  it("resists the review's escapes: moving .git or the agentwire home's folder aside, a Unix socket outside, a FIFO for the final directory", async () => {
    workspace = await createWorkspace("text");
    await mkdir(join(workspace.cwd, ".git", "hooks"), { recursive: true });
    await writeFile(join(workspace.cwd, ".git", "config"), "[core]\n");
    // A Unix socket outside the workspace, as a desktop's agents and daemons have (in /tmp/tmux-*, /run).
    const socketFolder = await mkdtemp("/tmp/tmux-agentwire-test-");
    const socketPath = join(socketFolder, "default");
    const listener = createServer((socket) => socket.on("error", () => {}).end("HELLO-FROM-OUTSIDE\n"));
    await new Promise<void>((resolve) => listener.listen(socketPath, resolve));
    try {
      const [renameGit, redirectGit, socket, fifo, after] = await runCommands(
        [
          "mv .git .git-orig",
          "echo /tmp/evil > .git/commondir",
          `${JSON.stringify(process.execPath)} -e 'require("net").connect(${JSON.stringify(socketPath)}).on("data", (d) => console.log(String(d))).on("error", (e) => console.log("refused " + e.code))'`,
          {
            command:
              'F=$(tr "\\0" "\\n" </proc/$$/cmdline | grep -o "/[^ ]*agentwire-bash-cwd-[0-9a-f-]*" | head -1); test -n "$F" && rm -f "$F" && mkfifo "$F" && echo planted',
            timeout: 5_000,
          },
          "pwd",
        ],
        ["--sandbox", "workspace-write"],
      );
      expect(renameGit!.content).toMatch(/Device or resource busy|Read-only file system/);
      expect(readdirSync(workspace.cwd)).toContain(".git");
      expect(redirectGit!.content).toMatch(/Read-only file system/);
      expect(readdirSync(join(workspace.cwd, ".git"))).not.toContain("commondir");
      expect(String(socket!.content)).not.toContain("HELLO-FROM-OUTSIDE");
      // The planted FIFO does not hang agentwire: the call returns, and the next one runs.
      expect(fifo!.result.stdout).toBe("planted");
      expect(after).toMatchObject({ isError: false });
    } finally {
      listener.close();
      await rm(socketFolder, { recursive: true, force: true });
    }
  });

  it("--sandbox-network lets commands reach the network", async () => {
    const port = await startPongServer();
    const [network] = await runCommands([connectTo(port)], ["--sandbox", "workspace-write", "--sandbox-network"]);
    expect(network).toMatchObject({ isError: false, content: "pong" });
    expect(network!.result.sandbox).toMatchObject({ mode: "workspace-write", network: true, note: expect.not.stringContaining("network") });
  });

  it("--add-dir is writable, but the agentwire home inside it stays read-only", async () => {
    workspace = await createWorkspace("text");
    const agentwireHome = join(workspace.home, ".agentwire");
    const [added, home] = await runCommands(
      [`echo added > ${join(workspace.home, "added.txt")}`, `echo x > ${join(agentwireHome, "settings.json")}`],
      ["--sandbox", "workspace-write", "--add-dir", workspace.home],
    );
    expect(added!.isError).toBe(false);
    expect(await readFile(join(workspace.home, "added.txt"), "utf8")).toBe("added\n");
    expect(home!.content).toMatch(/Read-only file system/);
    expect(readdirSync(agentwireHome)).not.toContain("settings.json");
  });

  it("read-only: the workspace is read-only too; TMPDIR and --sandbox-allow-write paths stay writable", async () => {
    const allowed = await mkdtemp(join(tmpdir(), "agentwire-allowed-"));
    try {
      const [inside, temp, extra] = await runCommands(
        [
          "echo x > inside.txt",
          'echo t > "$TMPDIR/t" && cat "$TMPDIR/t"',
          `echo allowed > ${join(allowed, "a.txt")} && cat ${join(allowed, "a.txt")}`,
        ],
        ["--sandbox", "read-only", "--sandbox-allow-write", allowed],
      );
      expect(inside!.content).toMatch(/Read-only file system/);
      expect(inside!.result.sandbox).toMatchObject({
        mode: "read-only",
        network: false,
        note: expect.stringContaining("writes anywhere but the allowed paths"),
      });
      expect(readdirSync(workspace!.cwd)).not.toContain("inside.txt");
      expect(temp).toMatchObject({ isError: false, content: "t" });
      expect(extra).toMatchObject({ isError: false, content: "allowed" });
    } finally {
      await import("node:fs/promises").then((fs) => fs.rm(allowed, { recursive: true, force: true }));
    }
  });

  it("a timeout still stops every process the sandboxed command started, even one that left its process group", async () => {
    const marker = `sleep 32${Math.floor(Math.random() * 1e6)}.5`;
    markers.push(marker);
    // setsid escapes the group agentwire signals; the PID namespace still ends with bwrap.
    const [timedOut] = await runCommands(
      [{ command: `${marker} & setsid ${marker} & ${marker} & wait`, timeout: 1_000 }],
      ["--sandbox", "workspace-write"],
    );
    expect(timedOut!.isError).toBe(true);
    expect(timedOut!.content).toMatch(/timed out after 1000 ms/);
    expect(await until(() => pidsRunning(marker).length === 0, 3_000), "no sleep survives the sandbox").toBe(true);
  });

  it("SIGKILL of agentwire mid-command: the sandboxed command dies with it", async () => {
    const marker = `sleep 34${Math.floor(Math.random() * 1e6)}.5`;
    markers.push(marker);
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: `setsid ${marker} & ${marker}` } }] }, { text: "done" }],
    });
    const child = spawnAgentwire([...STREAM, "--sandbox", "workspace-write"], { workspace });
    child.stdin.end();
    expect(await until(() => pidsRunning(marker).length === 2, 5_000), "both sleeps started").toBe(true);
    const exited = new Promise((resolve) => child.on("close", resolve));
    child.kill("SIGKILL");
    await exited;
    expect(await until(() => pidsRunning(marker).length === 0, 3_000), "no sleep survives agentwire").toBe(true);
  });
});

/** A PATH without bwrap: an empty folder (agentwire itself is started by absolute path). */
async function pathWithoutBwrap(where: Workspace): Promise<string> {
  const emptyBin = join(where.home, "bin");
  await mkdir(emptyBin);
  return emptyBin;
}

describe("--sandbox without a working bwrap", () => {
  it("fails at start with how to install it, and a result event: commands never run unconfined", async () => {
    workspace = await createWorkspace("text");
    const emptyBin = await pathWithoutBwrap(workspace);
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }] }, { text: "done" }],
    });
    const run = await runAgentwire([...STREAM, "--sandbox", "workspace-write"], { workspace, env: { PATH: emptyBin } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--sandbox workspace-write needs bubblewrap \(bwrap\), which is not on PATH/);
    expect(run.stderr).toMatch(/apt-get install bubblewrap/);
    expect(run.stderr).toMatch(/kernel\.unprivileged_userns_clone=1/);
    expect(run.events.map((event) => event.type)).toEqual(["result"]);
    expect(results(run.events)[0]).toMatchObject({
      is_error: true,
      terminal_reason: "invalid_arguments",
      errors: [expect.stringMatching(/dnf install bubblewrap/)],
    });
    expect(readdirSync(workspace.cwd)).not.toContain("ran.txt");
  });

  it("agentwire chat refuses to start its session too", async () => {
    workspace = await createWorkspace("text");
    const emptyBin = await pathWithoutBwrap(workspace);
    const run = await runAgentwire(["chat", "--sandbox", "read-only"], { workspace, stdin: "hi\n", env: { PATH: emptyBin } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/--sandbox read-only needs bubblewrap[\s\S]*apt-get install bubblewrap/);
  });
});
