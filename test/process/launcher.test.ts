import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { captureCappedOutput } from "../../src/process/capped-output.js";
import { prepareLauncher } from "../../src/process/launcher.js";
import { LAUNCHER_SCRIPT } from "../../src/process/launcher-script.js";
import { startSupervisedProcess, type SupervisedProcessRequest } from "../../src/process/supervised-process.js";
import { isAlive, pidsRunning, until } from "../helpers/processes.js";

/**
 * Commands that read nothing start through the process launcher (src/process/launcher.ts): these
 * check what a command sees there and what agentwire learns of it, against the real Perl launcher.
 * Perl is part of every Debian and Ubuntu system (perl-base is essential); the one test that needs
 * it says so when it is missing.
 */
const hasPerl = (() => {
  try {
    readFileSync("/usr/bin/perl");
    return true;
  } catch {
    return false;
  }
})();

function start(script: string, extra: Partial<SupervisedProcessRequest> = {}) {
  const child = startSupervisedProcess({
    file: "/bin/sh",
    args: ["-c", script],
    cwd: tmpdir(),
    environment: { inherited: { PATH: process.env.PATH, KEPT: "kept" } },
    stdin: "ignore",
    ...extra,
  });
  if ("startError" in child) throw child.startError;
  return child;
}

/** `/proc/PID/stat`'s fields after the command name: state, ppid, pgrp, session, tty… */
function statOf(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function commandLineOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
}

describe.skipIf(!hasPerl)("the process launcher", () => {
  it("compiles under strict, and loads no module at all (each costs start-up time)", () => {
    const strict = spawnSync("/usr/bin/perl", ["-Mstrict", "-c", "-e", LAUNCHER_SCRIPT], { encoding: "utf8", env: {} });
    expect(strict.stderr.trim()).toBe("-e syntax OK");
    // Run to the end of its (empty) input; an END block added after it reports what Perl loaded.
    const run = spawnSync(
      "/usr/bin/perl",
      ["-e", LAUNCHER_SCRIPT, "-e", 'END { print STDERR "loaded: ", join(",", sort keys %INC) }', "4"],
      {
        encoding: "utf8",
        env: {},
        input: "",
      },
    );
    expect(run.stderr).toBe("loaded: ");
  });

  it("starts a command leading its own process group, in the launcher's session, with no terminal to open", async () => {
    const child = start('echo "$$ $KEPT"; cat /dev/tty >/dev/null 2>&1; echo "tty $?"; sleep 0.3');
    const output = captureCappedOutput(child, 4096);
    await child.spawned;
    const pid = child.pid!;
    const [, parent, group, session] = statOf(pid);
    expect(Number(group)).toBe(pid);
    // Its parent is the launcher, which leads the session it runs in: not agentwire's session.
    expect(commandLineOf(Number(parent))).toBe("agentwire process launcher");
    expect(Number(session)).toBe(Number(parent));
    expect(Number(session)).not.toBe(Number(statOf(process.pid)[3]));
    const end = await child.ended;
    child.release();
    expect(end).toEqual({ code: 0, signal: null });
    expect(output.stdout.text()).toBe(`${pid} kept\ntty 1\n`);
  });

  it("reports exit codes, deaths by signal, and programs or folders that are not there as Node's spawn does", async () => {
    const exited = start("echo out; echo err >&2; exit 7");
    const output = captureCappedOutput(exited, 4096);
    expect(await exited.ended).toEqual({ code: 7, signal: null });
    expect([output.stdout.text(), output.stderr.text()]).toEqual(["out\n", "err\n"]);

    const killed = start("kill -KILL $$");
    expect(await killed.ended).toEqual({ code: null, signal: "SIGKILL" });

    const missing = start("", { file: "/nonexistent/agentwire-program" });
    const missingEnd = await missing.ended;
    expect(missing.pid).toBeUndefined();
    expect(missingEnd.error?.message).toBe("spawn /nonexistent/agentwire-program ENOENT");
    await expect(missing.spawned).rejects.toThrow("ENOENT");

    const noFolder = start("echo never", { cwd: "/nonexistent/agentwire-folder" });
    expect((await noFolder.ended).error?.message).toBe("spawn /bin/sh ENOENT");
  });

  it("holds a command's output while agentwire does not read, and loses none of it", async () => {
    // ~4.7 MB, far more than the pipes and the launcher's reads hold: the command waits to be read.
    const child = start("seq 1 600000");
    const hash = createHash("sha256");
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Taken in while paused: what was on its way before the launcher was asked to hold, no more.
    expect(child.stdout.readableLength).toBeLessThan(1024 * 1024);
    child.stdout.on("data", (chunk: Buffer) => hash.update(chunk));
    child.stdout.resume();
    child.stderr.resume();
    expect(await child.ended).toEqual({ code: 0, signal: null });
    child.release();
    const expected = `${Array.from({ length: 600000 }, (_, index) => index + 1).join("\n")}\n`;
    expect(hash.digest("hex")).toBe(createHash("sha256").update(expected).digest("hex"));
  });

  it("stops a command's whole group on a timeout, even when asked before the launcher named it", async () => {
    const child = start("sleep 30 & echo $!; wait", { timeoutMs: 1 });
    const output = captureCappedOutput(child, 4096);
    const end = await child.ended;
    child.release();
    expect(child.stopReason).toBe("timeout");
    expect(end.signal).toBe("SIGTERM");
    const background = Number(output.stdout.text().trim());
    if (background > 0) expect(await until(() => !isAlive(background), 5_000)).toBe(true);
  });

  it("a command that stops the launcher (SIGSTOP) cannot hang agentwire: stopping the command wakes it", async () => {
    const child = start("kill -STOP $PPID; sleep 30", { timeoutMs: 500 });
    const end = await child.ended;
    child.release();
    expect(child.stopReason).toBe("timeout");
    expect(end).toEqual({ code: null, signal: "SIGTERM" });
    // The launcher runs again: the next command starts and reports as usual.
    const next = start("echo on");
    const output = captureCappedOutput(next, 4096);
    expect(await next.ended).toEqual({ code: 0, signal: null });
    expect(output.stdout.text()).toBe("on\n");
  });

  it("a launcher killed from outside: its command is stopped and reported, and the next command gets a new launcher", async () => {
    const child = start("sleep 30");
    await child.spawned;
    const launcher = Number(statOf(child.pid!)[1]);
    process.kill(launcher, "SIGKILL");
    const end = await child.ended;
    child.release();
    expect(end.error?.message).toBe("the process launcher ended while the command ran");
    expect(await until(() => !isAlive(child.pid!), 5_000)).toBe(true);

    const next = start("echo $PPID");
    const output = captureCappedOutput(next, 4096);
    expect(await next.ended).toEqual({ code: 0, signal: null });
    const nextLauncher = Number(output.stdout.text().trim());
    expect(nextLauncher).not.toBe(launcher);
    expect(commandLineOf(nextLauncher)).toBe("agentwire process launcher");
  });

  it("a launcher started ahead (the model began a Bash call) and killed before any command is replaced, not given up", async () => {
    const ownLauncher = (): number | undefined =>
      pidsRunning("agentwire process launcher").find((pid) => Number(statOf(pid)[1]) === process.pid);
    const killAndForget = async (pid: number): Promise<void> => {
      process.kill(pid, "SIGKILL");
      // Gone, and its end seen by this process (its exit event), so the next start makes another.
      await until(() => ownLauncher() !== pid, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    // The launcher earlier commands used goes first: preparing must start one of its own.
    const running = ownLauncher();
    if (running !== undefined) await killAndForget(running);
    prepareLauncher();
    expect(await until(() => ownLauncher() !== undefined, 5_000), "prepared").toBe(true);
    const idle = ownLauncher()!;
    await killAndForget(idle);

    const next = start("echo $PPID");
    const output = captureCappedOutput(next, 4096);
    expect(await next.ended).toEqual({ code: 0, signal: null });
    const parent = Number(output.stdout.text().trim());
    expect(parent, "not Node's spawn from this process").not.toBe(process.pid);
    expect(parent).not.toBe(idle);
    expect(commandLineOf(parent)).toBe("agentwire process launcher");
  });

  it("a launcher killed from outside takes along what finished commands left running in its session", async () => {
    const leftover = start("sleep 30 >/dev/null 2>&1 & echo $!");
    const output = captureCappedOutput(leftover, 4096);
    await leftover.ended;
    leftover.release();
    const sleeper = Number(output.stdout.text().trim());
    expect(isAlive(sleeper)).toBe(true);
    const next = start("kill -KILL $PPID; sleep 30");
    await next.ended;
    next.release();
    expect(await until(() => !isAlive(sleeper), 5_000), "the leftover sleep dies").toBe(true);
  });

  it("tells a start that failed from one that ran, while other commands end around it", async () => {
    // Each ending command sends the launcher a SIGCHLD; one arriving while it waits to learn whether
    // a start worked must not turn "could not start" into "started and exited 127".
    const busy = Array.from({ length: 20 }, () => start("sleep 0.0$(( RANDOM % 9 ))"));
    const failures = await Promise.all(
      Array.from({ length: 150 }, async () => (await start("echo never", { cwd: "/nonexistent/agentwire-folder" }).ended).error?.message),
    );
    await Promise.all(busy.map((child) => child.ended));
    expect(new Set(failures)).toEqual(new Set(["spawn /bin/sh ENOENT"]));
  });

  it("an argument holding NUL goes to Node's spawn, which refuses it with its own error", () => {
    expect(() => start("echo\0x")).toThrow(/null bytes/);
  });
});
