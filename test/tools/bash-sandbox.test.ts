import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import type { SandboxSettings } from "../../src/tools/sandbox/sandbox-settings.js";
import { bwrapProblem, needsBwrap } from "../helpers/bwrap.js";
import { pidsRunning, until } from "../helpers/processes.js";
import { makeToolContext } from "../helpers/tool-context.js";

/** The Bash tool with a sandbox in its context, called directly: what the session wiring hands it. */
const sandbox: SandboxSettings = { mode: "workspace-write", allowWrite: [], network: false, protectedPaths: [], protectedNames: [".git"] };
let directory: string;
const markers: string[] = [];

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-bash-sandbox-")));
});

afterEach(async () => {
  for (const marker of markers.splice(0)) for (const pid of pidsRunning(marker)) process.kill(pid, "SIGKILL");
  await rm(directory, { recursive: true, force: true });
});

describe.skipIf(bwrapProblem !== undefined)(`Bash in the sandbox${needsBwrap}`, () => {
  it("keeps the working directory between calls, as outside the sandbox", async () => {
    await mkdir(path.join(directory, "sub"));
    const context = makeToolContext(directory, { sandbox });
    const bash = createBashTool();
    await bash.execute({ command: "cd sub" }, context);
    expect((await bash.execute({ command: "pwd" }, context)).content).toBe(path.join(directory, "sub"));
  });

  it("binds a workspace reached through a symlink by its real path", async () => {
    const link = `${directory}-link`;
    await symlink(directory, link);
    try {
      const result = await createBashTool().execute(
        { command: "echo through > linked.txt && cat linked.txt" },
        makeToolContext(link, { sandbox }),
      );
      expect(result).toMatchObject({ isError: false, content: "through" });
    } finally {
      await rm(link);
    }
  });

  it("writes full outputs to the session's output directory as usual", async () => {
    const result = await createBashTool().execute({ command: "seq 1 5000" }, makeToolContext(directory, { sandbox }));
    expect(result.details).toMatchObject({ fullOutputPath: expect.stringContaining(path.join(directory, ".agentwire-output")) });
  });

  it("ends a background job with its command: the PID namespace goes with bwrap (documented limit)", async () => {
    const marker = `sleep 33${Math.floor(Math.random() * 1e6)}.5`;
    markers.push(marker);
    const result = await createBashTool().execute(
      { command: `${marker} >/dev/null 2>&1 & echo started` },
      makeToolContext(directory, { sandbox }),
    );
    expect(result.content).toBe("started");
    expect(await until(() => pidsRunning(marker).length === 0, 2_000)).toBe(true);
  });

  it("confined: the temporary folder is the only place a command can write, not even the view's own tmpfs", async () => {
    const confinement = { problem: async () => undefined, hidden: [] };
    const attempts = ["/planted", "/tmp/planted", "/dev/shm/planted", "$HOME/planted", "planted", "$TMPDIR/planted"];
    const command = attempts.map((target) => `(echo x > "${target}") 2>/dev/null && echo 'wrote ${target}'`).join("; ");
    const result = await createBashTool().execute({ command }, makeToolContext(directory, { confinement }));
    expect(result.content).toBe("wrote $TMPDIR/planted");
    const failed = await createBashTool().execute({ command: "cat ~/.ssh/id_rsa" }, makeToolContext(directory, { confinement }));
    expect(failed).toMatchObject({
      isError: true,
      content: expect.stringMatching(
        /No such file or directory\n\(This command ran without a question because it was judged read-only, and so confined/,
      ),
    });
  });

  it("a stop at any moment of bwrap's start stops the namespace too, sandboxed or confined", async () => {
    const marker = `sleep 35${Math.floor(Math.random() * 1e6)}.5`;
    markers.push(marker);
    const bash = createBashTool();
    const confinement = { problem: async () => undefined, hidden: [] };
    // Killing bwrap in its first milliseconds used to leave the namespace running in a session of
    // its own, holding the output pipes: the call then waited for the sleep to end.
    for (let round = 0; round < 24; round++) {
      const controller = new AbortController();
      const context = makeToolContext(directory, { ...(round % 2 === 0 ? { sandbox } : { confinement }), signal: controller.signal });
      setTimeout(() => controller.abort(), round >> 1);
      // An abort before the start rejects (the tool runner reports it); after it, the call returns.
      const call = bash.execute({ command: marker }, context).catch(() => "stopped before the start");
      const result = await Promise.race([call, delay(3_000, "still running")]);
      expect(result, `round ${round}`).not.toBe("still running");
      expect(await until(() => pidsRunning(marker).length === 0, 1_000), `round ${round}`).toBe(true);
    }
  });

  it("returns only once nothing of the command runs any more, sandboxed or confined (bwrap itself reports earlier)", async () => {
    const marker = `sleep 34${Math.floor(Math.random() * 1e6)}.5`;
    markers.push(marker);
    const bash = createBashTool();
    const confinement = { problem: async () => undefined, hidden: [] };
    // The kernel ends the namespace's processes a moment after bwrap exits, so a check made right
    // then finds one still alive now and then; many rounds make that near certain without the wait.
    for (let round = 0; round < 60; round++) {
      const context = makeToolContext(directory, round % 2 === 0 ? { sandbox } : { confinement });
      const result = await bash.execute({ command: `setsid ${marker} >/dev/null 2>&1 < /dev/null & echo started` }, context);
      expect(result.content).toBe("started");
      expect(pidsRunning(marker), `round ${round}`).toEqual([]);
    }
  });
});
