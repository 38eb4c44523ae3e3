import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive, pidsRunning, until } from "../helpers/processes.js";
import { createWorkspace, results, spawnAgentwire, waitForEvent, waitForExit, type Workspace } from "../helpers/agentwire.js";

// How long a process may take to appear or die: on a 2-core machine running four test files at
// once the reaper's SIGTERM/SIGKILL can land later than 2 s after agentwire's death.
const DEATH_WAIT_MS = 10_000;

/**
 * Exit paths a GUI host, a `| head` pipeline or a closed terminal produce: each ends with a
 * documented exit code, no stack trace, no process of the tool left behind, and the session
 * file intact.
 */
let workspace: Workspace | undefined;
const markers: string[] = [];

afterEach(async () => {
  // Whatever a failing test left behind dies here.
  for (const marker of markers.splice(0)) for (const pid of pidsRunning(marker)) process.kill(pid, "SIGKILL");
  await workspace?.cleanup();
  workspace = undefined;
});

/** The process launcher, and the escapee below, need Perl (on every Debian system; skipped where missing). */
const hasPerl = existsSync("/usr/bin/perl");
/** Making a PID namespace needs root or user namespaces. */
const canUnsharePid = spawnSync("unshare", ["--pid", "--fork", "true"]).status === 0;

/** The fields of /proc/PID/stat after the command name (state, ppid, …); [] once it is gone. */
function statFields(pid: number): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return [];
  }
}
const parentOf = (pid: number): number => Number(statFields(pid)[1]);
const stateOf = (pid: number): string | undefined => statFields(pid)[0];

/** A `sleep` whose command line no other process has, so it can be found (and must be gone). */
function uniqueSleep(): string {
  const marker = `sleep 31${Math.floor(Math.random() * 1e6)}.5`;
  markers.push(marker);
  return marker;
}

async function sleepingBashRun(marker: string) {
  workspace = await createWorkspace("text");
  await workspace.useScenario({
    turns: [{ tool_calls: [{ name: "Bash", input: { command: `${marker}; echo finished` } }] }, { text: "done" }],
  });
  const child = spawnAgentwire(["-p", "wait", "--output-format", "stream-json", "--dangerously-skip-permissions"], { workspace });
  child.stdin.end();
  await waitForEvent(child, (event) => event.type === "assistant" && event.message.content[0].type === "tool_use");
  expect(await until(() => pidsRunning(marker).length > 0, 5_000), "the tool's sleep started").toBe(true);
  return child;
}

describe("exit paths", () => {
  it("a reader that closes stdout mid-tool: exit 141 quietly, tool killed, session kept", async () => {
    const marker = uniqueSleep();
    const child = await sleepingBashRun(marker);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    child.stdout.destroy();
    expect(await exited).toBe(141);
    expect(stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no tool process survives").toBe(true);
    // The session file has the request and the tool call, and is still resumable JSONL.
    const sessions = join(workspace!.home, ".agentwire", "projects");
    const [project] = readdirSync(sessions);
    const [file] = readdirSync(join(sessions, project!));
    const lines = readFileSync(join(sessions, project!, file!), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; message?: { role: string } });
    expect(lines.map((line) => line.message?.role ?? line.type)).toEqual(["session", "user", "assistant", "user", "user", "turn_end"]);
  });

  it("SIGHUP mid-tool: the result where stdout is open, exit 129, tool killed, temp folder removed", async () => {
    const marker = uniqueSleep();
    const child = await sleepingBashRun(marker);
    const exited = waitForExit(child);
    child.kill("SIGHUP");
    const run = await exited;
    expect(run.code).toBe(129);
    expect(results(run.events)).toHaveLength(1);
    expect(results(run.events)[0]).toMatchObject({ is_error: true, terminal_reason: "aborted_tools" });
    expect(run.events.at(-1)?.type).toBe("result");
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "no tool process survives").toBe(true);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith("agentwire-") && name.endsWith(`-${child.pid}`))).toEqual([]);
  });

  it("SIGKILL mid-tool: agentwire gets no chance to clean up, and still no tool process survives", async () => {
    const marker = uniqueSleep();
    const child = await sleepingBashRun(marker);
    const exited = new Promise<string | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "the tool's group dies with agentwire").toBe(true);
  });

  it.skipIf(!hasPerl)(
    "SIGKILL while a command holds the process launcher stopped (kill -STOP $PPID): agentwire's death wakes it, and the command dies",
    async () => {
      const marker = uniqueSleep();
      workspace = await createWorkspace("text");
      await workspace.useScenario({
        turns: [{ tool_calls: [{ name: "Bash", input: { command: `kill -STOP $PPID; ${marker}` } }] }, { text: "done" }],
      });
      const child = spawnAgentwire(["-p", "wait", "--output-format", "stream-json", "--dangerously-skip-permissions"], { workspace });
      child.stdin.end();
      expect(await until(() => pidsRunning(marker).length > 0, 5_000), "the tool's sleep started").toBe(true);
      const launcher = pidsRunning("agentwire process launcher").find((pid) => parentOf(pid) === child.pid);
      expect(launcher, "agentwire's launcher").toBeDefined();
      expect(await until(() => stateOf(launcher!) === "T", 5_000), "the command stopped the launcher").toBe(true);
      const exited = new Promise<string | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "the tool's group dies with agentwire").toBe(true);
      expect(await until(() => !isAlive(launcher!), DEATH_WAIT_MS), "the launcher ends too").toBe(true);
    },
  );

  it.skipIf(!hasPerl)(
    "SIGKILL: a process a command moved into a group of its own (as GNU timeout does) still gets SIGTERM, time to clean up, and dies",
    async () => {
      const marker = uniqueSleep();
      workspace = await createWorkspace("text");
      const note = join(workspace.cwd, "cleaned-up.txt");
      // perl: setpgid and a TERM handler without another shell in between.
      const escapee = `perl -e '$0 = shift; setpgrp(0, 0); $SIG{TERM} = sub { open my $f, ">", shift @ARGV; print $f "yes"; exit 0 }; sleep 60' '${marker}' '${note}'`;
      await workspace.useScenario({
        turns: [{ tool_calls: [{ name: "Bash", input: { command: `${escapee} >/dev/null 2>&1 & sleep 30` } }] }, { text: "done" }],
      });
      const child = spawnAgentwire(["-p", "wait", "--output-format", "stream-json", "--dangerously-skip-permissions"], { workspace });
      child.stdin.end();
      expect(await until(() => pidsRunning(marker).length > 0, 5_000), "the escapee started").toBe(true);
      const [escaped] = pidsRunning(marker);
      expect(statFields(escaped!)[2], "it leads a group of its own").toBe(String(escaped));
      child.kill("SIGKILL");
      expect(await until(() => !isAlive(escaped!), DEATH_WAIT_MS), "it dies with agentwire").toBe(true);
      expect(existsSync(note) ? readFileSync(note, "utf8") : "", "its TERM handler ran").toBe("yes");
    },
  );

  it.skipIf(!hasPerl || !canUnsharePid)(
    "SIGKILL: a PID namespace a command left in a session of its own (as bwrap's does, killed while it starts) dies too",
    async () => {
      const marker = uniqueSleep();
      workspace = await createWorkspace("text");
      // unshare, in a session of its own, runs the sleep as the first process of a new PID namespace;
      // once bash is gone, unshare is the launcher's child (it is the subreaper).
      await workspace.useScenario({
        turns: [
          {
            tool_calls: [
              { name: "Bash", input: { command: `setsid unshare --pid --fork ${marker} >/dev/null 2>&1 < /dev/null & sleep 30` } },
            ],
          },
          { text: "done" },
        ],
      });
      const child = spawnAgentwire(["-p", "wait", "--output-format", "stream-json", "--dangerously-skip-permissions"], { workspace });
      child.stdin.end();
      expect(await until(() => pidsRunning(marker).length > 0, 5_000), "the namespace's sleep started").toBe(true);
      const [inside] = pidsRunning(marker);
      const launcher = pidsRunning("agentwire process launcher").find((pid) => parentOf(pid) === child.pid);
      expect(statFields(inside!)[3], "it is in a session of its own").not.toBe(String(launcher));
      child.kill("SIGKILL");
      expect(await until(() => !isAlive(inside!), DEATH_WAIT_MS), "it dies with agentwire").toBe(true);
    },
  );

  it.skipIf(!hasPerl)("a daemon a command started in a session of its own (a tmux server, say) is left to its users", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: `setsid ${marker} >/dev/null 2>&1 < /dev/null &` } }] }, { text: "done" }],
    });
    const run = spawnAgentwire(["-p", "go", "--output-format", "stream-json", "--dangerously-skip-permissions"], { workspace });
    run.stdin.end();
    expect((await waitForExit(run)).code).toBe(0);
    expect(await until(() => pidsRunning(marker).length > 0, 5_000), "the daemon started").toBe(true);
    const [daemon] = pidsRunning(marker);
    // The launcher's end (TERM, a second, KILL) is over by then.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(isAlive(daemon!), "it still runs").toBe(true);
  });

  it("a job a command leaves in the background lives until agentwire exits, then dies with it", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "Bash", input: { command: `${marker} >/dev/null 2>&1 &` } }] },
        { text: "started" },
        { text: "still here" },
      ],
    });
    const child = spawnAgentwire(["--input-format", "stream-json", "--output-format", "stream-json", "--dangerously-skip-permissions"], {
      workspace,
    });
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "start it" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result");
    // The call returned at once, and the job runs on between turns (the shell's forked child
    // may exec the job a moment after the call returned: wait for it to appear).
    expect(await until(() => pidsRunning(marker).length === 1, DEATH_WAIT_MS)).toBe(true);
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "and now?" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result" && event.result === "still here");
    expect(pidsRunning(marker)).toHaveLength(1);
    const exited = waitForExit(child);
    child.stdin.end();
    expect((await exited).code).toBe(0);
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "the background job dies with agentwire").toBe(true);
  });

  it("SIGKILL after a command left a background job: the job dies too", async () => {
    const marker = uniqueSleep();
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: `${marker} >/dev/null 2>&1 &` } }] }, { text: "started" }],
    });
    const child = spawnAgentwire(["--input-format", "stream-json", "--output-format", "stream-json", "--dangerously-skip-permissions"], {
      workspace,
    });
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "start it" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result");
    expect(await until(() => pidsRunning(marker).length === 1, DEATH_WAIT_MS)).toBe(true);
    child.kill("SIGKILL");
    expect(await until(() => pidsRunning(marker).length === 0, DEATH_WAIT_MS), "the background job dies with agentwire").toBe(true);
  });

  it("a reader that closes stdout before anything ran still exits 141 without a trace", async () => {
    workspace = await createWorkspace("text");
    const child = spawnAgentwire(["--input-format", "stream-json", "--output-format", "stream-json"], { workspace });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    child.stdout.destroy();
    child.stdin.write('{"type":"user","content":"hi"}\n');
    child.stdin.end();
    expect(await exited).toBe(141);
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(existsSync(workspace.cwd)).toBe(true);
  });
});
