import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, ROOT, type Workspace } from "../helpers/agentwire.js";
import { typecheck } from "../helpers/typescript.js";

/** The package as users install it: the built entries, the README example, the shipped types. */
const run = promisify(execFile);
let workspace: Workspace | undefined;
let scratch: string | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  workspace = undefined;
  scratch = undefined;
});

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string }>; inputs: Record<string, unknown> }>;
}

/**
 * An input's path as it would read in a plain checkout. esbuild resolves symlinks, so when
 * node_modules is a link to another checkout's (a git worktree) it records `../main/node_modules/…`.
 */
function asInRoot(input: string): string {
  return input.startsWith("../") && input.includes("/node_modules/") ? input.slice(input.indexOf("node_modules/")) : input;
}

/** Every input bundled into the outputs `entry` loads before any of its code runs (static imports only). */
function staticClosure(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (output: string): void => {
    if (seen.has(output) || !metafile.outputs[output]) return;
    seen.add(output);
    for (const imported of metafile.outputs[output].imports) if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(entry);
  return [...seen].flatMap((output) => Object.keys(metafile.outputs[output]!.inputs).map(asInRoot));
}

describe("the agentwire package", () => {
  it("loads no provider SDK and none of the CLI when the library or the protocol is imported", async () => {
    const metafile = JSON.parse(await readFile(join(ROOT, "dist", "metafile.json"), "utf8")) as Metafile;
    for (const entry of ["dist/index.js", "dist/protocol.js"]) {
      const inputs = staticClosure(metafile, entry);
      expect(inputs.length, `${entry} has a static import graph`).toBeGreaterThan(3);
      const heavy = inputs.filter(
        (input) =>
          /node_modules\/(@anthropic-ai\/sdk|openai|@google\/genai|@modelcontextprotocol\/sdk|yargs|pino)\//.test(input) ||
          input.startsWith("src/cli/"),
      );
      expect(heavy, `${entry} loads these before any session runs`).toEqual([]);
    }
    // The protocol entry is standalone: nothing from src/.
    expect(staticClosure(metafile, "dist/protocol.js").filter((input) => input.startsWith("src/"))).toEqual([]);
    // The check can see an SDK: the CLI entry reaches Anthropic's on demand.
    expect(
      Object.values(metafile.outputs).some((output) =>
        Object.keys(output.inputs).some((input) => input.includes("node_modules/@anthropic-ai/sdk/")),
      ),
    ).toBe(true);
  });

  it("starts the CLI without the tools', the loop's, the session core's or the logger's code: they load after system/init", async () => {
    const metafile = JSON.parse(await readFile(join(ROOT, "dist", "metafile.json"), "utf8")) as Metafile;
    const inputs = staticClosure(metafile, "dist/cli.cjs");
    expect(inputs).toEqual(
      expect.arrayContaining(["src/session/prepare-session.ts", "src/session/wire/init-event.ts", "src/skills/catalog.ts"]),
    );
    // permissions/shell/ whole: the shell grammar and its per-program tables load when a command is first judged.
    const late = inputs.filter(
      (input) =>
        /^src\/(tools\/(bash|read|grep|edit|registry)|agent\/loop|session\/session|permissions\/shell\/[\w-]+)\.ts$/.test(input) ||
        /node_modules\/(pino|yargs|ajv|@modelcontextprotocol\/sdk)\//.test(input),
    );
    expect(late, "dist/cli.cjs loads these before its first line").toEqual([]);
    // The schemas built before the first line are zod/mini ones: classic zod's code costs ~8 ms to load.
    expect(inputs.filter((input) => input.includes("node_modules/zod/v4/classic/"))).toEqual([]);
    expect(inputs).toContain("node_modules/zod/v4/mini/schemas.js");
  });

  it("loads one provider's SDK per run: the CLI's provider chunks do not pull in each other's", async () => {
    const metafile = JSON.parse(await readFile(join(ROOT, "dist", "metafile.json"), "utf8")) as Metafile;
    const sdks = {
      "src/providers/anthropic.ts": "node_modules/@anthropic-ai/sdk/",
      "src/providers/openai-chat.ts": "node_modules/openai/",
      "src/providers/gemini.ts": "node_modules/@google/genai/",
    };
    for (const [provider, ownSdk] of Object.entries(sdks)) {
      const chunk = Object.keys(metafile.outputs).find(
        (output) => output.startsWith("dist/cli-chunks/") && provider in metafile.outputs[output]!.inputs,
      );
      expect(chunk, provider).toBeDefined();
      const inputs = staticClosure(metafile, chunk!);
      expect(
        inputs.some((input) => input.startsWith(ownSdk)),
        provider,
      ).toBe(true);
      const others = Object.values(sdks).filter((sdk) => sdk !== ownSdk);
      expect(
        inputs.filter((input) => others.some((sdk) => input.startsWith(sdk))),
        provider,
      ).toEqual([]);
    }
  });

  it("sets up English zod messages wherever zod/mini schemas are built (mini installs no messages of its own)", async () => {
    const files = (await readdir(join(ROOT, "src"), { recursive: true }))
      .filter((file) => file.endsWith(".ts"))
      .map((file) => join("src", file));
    const miniUsers = [];
    for (const file of [...files, "protocol/model-usage.ts", "protocol/permission-mode.ts"]) {
      const text = await readFile(join(ROOT, file), "utf8");
      // The import from the file's own folder: src/tools/x.ts has "../validation/english-issues.js".
      const path = relative(dirname(file), "src/validation/english-issues.js");
      const english = `import "${path.startsWith(".") ? path : `./${path}`}";`;
      if (/^import \* as z from "zod\/mini";$/m.test(text)) miniUsers.push({ file, english: text.includes(english) });
    }
    expect(miniUsers.length).toBeGreaterThan(5);
    // protocol/ may not import src/; its entry builds classic schemas, which install the English messages.
    expect(miniUsers.filter((user) => !user.english && !user.file.startsWith("protocol/")).map((user) => user.file)).toEqual([]);
  });

  it("runs the README's library example against the replay server", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    const example = /<!-- library-example:[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, "README has the library example").toBeDefined();
    expect(example!.split("\n").length).toBeLessThanOrEqual(22);
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            { name: "LS", input: { path: "." } },
            { name: "Bash", input: { command: "touch made-by-bash.txt" } },
          ],
        },
        { text: "One file: README.md, about bees." },
      ],
    });
    await writeFile(join(workspace.cwd, "README.md"), "# Bees\n");
    // Inside the package folder, so `import "agentwire"` resolves through package.json "exports".
    scratch = await mkdtemp(join(ROOT, ".agentwire-test-example-"));
    await writeFile(join(scratch, "example.mjs"), example!);
    const output = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(scratch!, "example.mjs")], {
        cwd: workspace!.cwd,
        env: {
          PATH: process.env.PATH,
          HOME: workspace!.home,
          AGENTWIRE_HOME: join(workspace!.home, ".agentwire"),
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: workspace!.server.url,
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(output.stderr).toBe("");
    expect(output.code).toBe(0);
    // Two tool results and the answer: Claude Code counts 3 turns; the cost is the list price of the tokens.
    expect(output.stdout).toMatch(/^One file: README\.md, about bees\.\nsuccess: 3 turns, \$0\.\d+\n$/);
    // The denied Bash call reached the model as a denial, the allowed LS call ran.
    const second = workspace.server.requests[1]!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(second.messages.at(-1))).toContain("No shell in this example.");
    expect(JSON.stringify(second.messages.at(-1))).toContain("README.md");
  });

  it("ships declarations a TypeScript consumer compiles against", async () => {
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    await run(process.execPath, [tsc, "-p", "tsconfig.types.json"], { cwd: ROOT });
    const declarations = await readFile(join(ROOT, "dist", "types", "src", "api", "query.d.ts"), "utf8");
    expect(declarations).toContain("export declare function query(");
    expect(await typecheck(join(ROOT, "test", "fixtures", "library-consumer", "tsconfig.json"), "library-consumer")).toBe("");
    // Two compilations, one of them of every declaration file the consumer sees: a minute is not
    // enough while other tests load both cores.
  }, 120_000);
});
