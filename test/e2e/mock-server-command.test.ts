import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, runAgentwire, type Workspace } from "../helpers/agentwire.js";

/**
 * `agentwire mock-server` started wrongly: the person's mistake is named in one line on stderr
 * with exit 1 — not an internal error with a stack trace (exit 70).
 */
let folder: string | undefined;
let taken: Server | undefined;
let workspace: Workspace | undefined;

afterEach(async () => {
  await new Promise((resolve) => (taken ? taken.close(resolve) : resolve(undefined)));
  taken = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
  await workspace?.cleanup();
  workspace = undefined;
});

async function expectUserMistake(args: string[], says: RegExp): Promise<void> {
  workspace ??= await createWorkspace("text");
  const run = await runAgentwire(["mock-server", ...args], { workspace });
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(says);
  expect(run.stderr).not.toContain("internal error");
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

describe("agentwire mock-server started wrongly", () => {
  it("a missing, unreadable or invalid scenario, or a port in use, is one clear line and exit 1", async () => {
    folder = await mkdtemp(join(tmpdir(), "agentwire-mock-cli-"));
    await writeFile(join(folder, "not-json.json"), "{ turns: ");
    await writeFile(join(folder, "wrong.json"), JSON.stringify({ turns: 5 }));
    await writeFile(join(folder, "good.json"), JSON.stringify({ turns: [{ text: "hi" }] }));
    await expectUserMistake(["--port", "0", "--scenario", join(folder, "absent.json")], /Cannot read scenario .*absent\.json: ENOENT/);
    await expectUserMistake(["--port", "0", "--scenario", join(folder, "not-json.json")], /is not valid JSON/);
    await expectUserMistake(["--port", "0", "--scenario", join(folder, "wrong.json")], /is invalid:[\s\S]*turns/);
    await expectUserMistake(["--port", "0"], /scenario/);
    taken = createServer();
    await new Promise<void>((resolve) => taken!.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    await expectUserMistake(
      ["--port", String(port), "--host", "127.0.0.1", "--scenario", join(folder, "good.json")],
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
    );
  });
});
