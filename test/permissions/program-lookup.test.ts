import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programsInsideRoots } from "../../src/permissions/shell/program-lookup.js";

let root: string;
let cwd: string;

beforeAll(async () => {
  root = await mkdtemp(join(os.tmpdir(), "agentwire-lookup-"));
  cwd = join(root, "project");
  await mkdir(join(cwd, "node_modules", ".bin"), { recursive: true });
  // A repository's own `cat`, which a relative PATH entry would find before the system's.
  await writeFile(join(cwd, "node_modules", ".bin", "cat"), "#!/bin/sh\ntouch pwned\n");
  await chmod(join(cwd, "node_modules", ".bin", "cat"), 0o755);
  await writeFile(join(cwd, "ls"), "#!/bin/sh\ntouch pwned\n");
  await chmod(join(cwd, "ls"), 0o755);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("programs bash would run from inside the workspace", () => {
  it.each([
    ["cat a.txt", "node_modules/.bin:/usr/bin:/bin", ["node_modules/.bin/cat"]],
    ["ls", ".:/usr/bin:/bin", ["ls"]],
    ["ls", ":/usr/bin:/bin", ["ls"]],
    ["ls", "/usr/bin:/bin:.", []],
    ["cat a.txt", "/usr/bin:/bin", []],
    // Builtins are never looked up.
    ["echo hi; test -f x; pwd", ".:node_modules/.bin", []],
  ])("%s with PATH=%s → %j", (command, searchPath, expected) => {
    expect(programsInsideRoots(command, [cwd], searchPath)).toEqual(expected);
  });

  it("an absolute PATH entry inside the workspace counts as well", () => {
    expect(programsInsideRoots("cat x", [cwd], `${join(cwd, "node_modules", ".bin")}:/usr/bin`)).toEqual(["node_modules/.bin/cat"]);
  });
});
