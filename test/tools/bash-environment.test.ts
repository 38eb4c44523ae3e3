import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { makeToolContext } from "../helpers/tool-context.js";

/** Bash commands run without agentwire's credentials, unless a name is passed on purpose. */
const NAMES = { key: "AGENTWIRE_TEST_API_KEY", token: "AGENTWIRE_TEST_TOKEN", plain: "AGENTWIRE_TEST_PLAIN" };
let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentwire-bash-env-")));
  process.env[NAMES.key] = "key-value-1";
  process.env[NAMES.token] = "token-value-2";
  process.env[NAMES.plain] = "plain-value-3";
});

afterEach(async () => {
  for (const name of Object.values(NAMES)) delete process.env[name];
  await rm(directory, { recursive: true, force: true });
});

const PRINT = `echo "key=\${${NAMES.key}:-unset} token=\${${NAMES.token}:-unset} plain=\${${NAMES.plain}:-unset}"`;

describe("Bash's environment", () => {
  it("leaves credentials out and keeps the rest", async () => {
    const result = await createBashTool().execute({ command: PRINT }, makeToolContext(directory));
    expect(result.content).toBe("key=unset token=unset plain=plain-value-3");
  });

  it("hands over the names in passEnv", async () => {
    const result = await createBashTool().execute({ command: PRINT }, makeToolContext(directory, { passEnv: [NAMES.token] }));
    expect(result.content).toBe("key=unset token=token-value-2 plain=plain-value-3");
  });
});
