import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, runAgentwire, type ProviderUnderTest, type Workspace } from "../helpers/agentwire.js";

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/**
 * Node's built-in modules a single answer over http must not load: Node's fetch (undici) and what
 * it requires, each compiled at start-up for nothing (~70 ms of CPU together on the bench machine),
 * and node:http, whose client costs more per request than agentwire's own exchange
 * (src/providers/http1-exchange.ts).
 */
const NOT_FOR_ONE_ANSWER = [
  "http",
  "_http_client",
  "internal/deps/undici/undici",
  "http2",
  "tls",
  "https",
  "zlib",
  "worker_threads",
  "internal/webstreams/readablestream",
];

/**
 * Loaded only when used, which a single answer over the Anthropic API never does: node:crypto
 * (identifiers come from the kernel's random device, hashes load it at the first hash),
 * node:child_process (at the first child started) and node:perf_hooks (behind the `performance`
 * global). Together ~3.5 ms of CPU at every start.
 */
const NOT_FOR_ONE_ANTHROPIC_ANSWER = ["crypto", "child_process", "perf_hooks"];

/** The built-in modules the run loaded, as Node lists them at exit (`NativeModule <id>`). */
async function builtinsOfOneAnswer(provider: ProviderUnderTest): Promise<string[]> {
  workspace = await createWorkspace("text");
  const preload = join(workspace.root, "list-modules.cjs");
  const listed = join(workspace.root, "modules.txt");
  const writeList = `require("node:fs").writeFileSync(${JSON.stringify(listed)}, process.moduleLoadList.join("\\n"))`;
  await writeFile(preload, `process.on("exit", () => ${writeList});\n`);
  const args = ["-p", "hi", "--output-format", "stream-json", "--verbose"];
  const run = await runAgentwire(args, { workspace, provider, env: { NODE_OPTIONS: `--require ${preload}` } });
  expectWellFormedRun(run, 1);
  const lines = (await readFile(listed, "utf8")).split("\n");
  return lines.flatMap((line) => (line.startsWith("NativeModule ") ? [line.slice("NativeModule ".length)] : []));
}

describe("what a single answer loads of Node", () => {
  for (const provider of ["anthropic", "openai-chat", "openai-responses"] as const) {
    it(`${provider}: the request goes over a socket of agentwire's own, without node:http, Node's fetch and the modules behind it`, async () => {
      const builtins = await builtinsOfOneAnswer(provider);
      expect(builtins).toContain("net");
      expect(builtins.filter((id) => NOT_FOR_ONE_ANSWER.includes(id))).toEqual([]);
    });
  }

  it("anthropic: nor node:crypto, node:child_process or node:perf_hooks, which it has no use for", async () => {
    const builtins = await builtinsOfOneAnswer("anthropic");
    expect(builtins.filter((id) => NOT_FOR_ONE_ANTHROPIC_ANSWER.includes(id))).toEqual([]);
  });
});
