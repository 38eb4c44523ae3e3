import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, parseStdout, ROOT, waitForExit, type Workspace } from "../helpers/agentwire.js";
import { stopWeb } from "../helpers/web.js";

/**
 * agentwire as a user installs it: `npm pack`, then `npm install -g` into a temporary prefix, and
 * everything run from a folder that has nothing to do with the clone, so a path that only
 * resolves inside the repository (dist/, web/, skills/, protocol/) fails here.
 *
 * npm fetches the dependencies the tarball declares; `--prefer-offline` takes them from npm's cache
 * when they are there (CI and this machine installed the same versions for the clone).
 */
const run = promisify(execFile);
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const NPM_QUIET = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

let scratch: string;
let tarball: string;
let packedFiles: string[];
let prefix: string;
let workspace: Workspace;
/** An environment with the installed `agentwire` first on PATH and a home of its own. */
let userEnv: NodeJS.ProcessEnv;
/** userEnv pointed at the replay server of the moment (useScenario starts a new one). */
const withModel = (env: NodeJS.ProcessEnv = userEnv): NodeJS.ProcessEnv => ({ ...env, ANTHROPIC_BASE_URL: workspace.server.url });
/** A folder far from the clone, where the user types the commands. */
let elsewhere: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "agentwire-install-"));
  prefix = join(scratch, "prefix");
  elsewhere = join(scratch, "elsewhere");
  const home = join(scratch, "home");
  await Promise.all([mkdir(elsewhere), mkdir(home)]);
  // The suite's global setup built dist/ already; the prepack script would rebuild it (removing
  // dist/ while other test files run from it), so the tarball is packed from that build.
  const packed = await run(NPM, ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [contents] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(scratch, contents!.filename);
  packedFiles = contents!.files.map((file) => file.path);
  await run(NPM, ["install", "--global", "--prefix", prefix, ...NPM_QUIET, tarball], { cwd: scratch });
  workspace = await createWorkspace("text");
  userEnv = {
    PATH: `${join(prefix, "bin")}:${process.env.PATH}`,
    HOME: home,
    ANTHROPIC_API_KEY: "test-key",
  };
}, 180_000);

afterAll(async () => {
  await workspace?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

/** Runs the installed `agentwire` (found on PATH, as a shell would) in the unrelated folder. */
function agentwire(args: string[], stdin = "") {
  const child = spawn("agentwire", args, { cwd: elsewhere, env: withModel(), stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end(stdin);
  return waitForExit(child);
}

describe("the installed package", () => {
  it("ships the built code and what it reads at run time, without the build's source maps and metafile", () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        "bin/agentwire",
        "bin/package.json",
        "dist/code-cache.cjs",
        "dist/cli.cjs",
        "dist/index.js",
        "dist/help.txt",
        "protocol/schema.json",
        "web/index.html",
        "skills/repo-map/scripts/repo-map.sh",
      ]),
    );
    expect(packedFiles.filter((file) => file.endsWith(".map") || file === "dist/metafile.json")).toEqual([]);
  });

  it("runs a scripted session from any directory, installs its bundled skills, and renders the session", async () => {
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Write", input: { file_path: "note.txt", content: "hello\n" } }] }, { text: "Wrote **note.txt**." }],
    });
    const session = await agentwire([
      "-p",
      "write a note",
      "--output-format",
      "stream-json",
      "--verbose",
      "--permission-mode",
      "acceptEdits",
    ]);
    expect(session.code, session.stderr).toBe(0);
    const result = session.events.at(-1);
    expect(result).toMatchObject({ type: "result", subtype: "success", result: "Wrote **note.txt**." });
    expect(await readFile(join(elsewhere, "note.txt"), "utf8")).toBe("hello\n");
    // The bundled skills came from the installed package, not from the clone.
    expect((await readdir(join(userEnv.HOME!, ".agentwire", "skills"))).sort()).toEqual(["git-helper", "repo-map", "writing-skills"]);

    const rendered = await agentwire(["render", "--no-color"], session.stdout);
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stdout).toMatch(/⏺ Write note\.txt\n {2}⎿ created note\.txt \(1 line\)/);
    expect(rendered.stdout).toContain("✓ success");
  });

  it("chats with piped input", async () => {
    await workspace.useScenario({ turns: [{ text: "Hello from the installed chat." }] });
    const chat = await agentwire(["chat"], "hi\n");
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toMatch(/> hi\n[\s\S]*Hello from the installed chat\./);
  });

  it("serves the web page and its assets", async () => {
    const child = spawn("agentwire", ["web", "--port", "0"], { cwd: elsewhere, env: withModel(), stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let stderr = "";
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
          const match = /agentwire web: (http\S+)/.exec(stderr);
          if (match) resolve(new URL(match[1]!));
        });
        child.on("exit", (code) => reject(new Error(`agentwire web exited with ${code}: ${stderr}`)));
      });
      const page = await fetch(new URL("/", url));
      expect(page.status).toBe(200);
      const html = await page.text();
      const linked = [...html.matchAll(/(?:src|href)="(\/assets\/[\w-]+\.(?:js|css))"/g)].map((match) => match[1]!);
      expect(linked).toEqual(["/assets/style.css", "/assets/app.js"]);
      // The page's script is one bundle (dist/web/app.js): it imports nothing the browser would ask for.
      for (const asset of linked) expect((await fetch(new URL(asset, url))).status, asset).toBe(200);
      const script = await (await fetch(new URL("/assets/app.js", url))).text();
      expect(script).not.toMatch(/^\s*import\s.*from\s/m);
      const token = url.searchParams.get("token")!;
      const info = await fetch(new URL("/api/info", url), { headers: { authorization: `Bearer ${token}` } });
      expect(info.status).toBe(200);
    } finally {
      await stopWeb(child);
    }
  });

  it("is a library another project imports, with its protocol schema", async () => {
    const project = join(scratch, "consumer");
    await mkdir(project);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    await run(NPM, ["install", ...NPM_QUIET, tarball], { cwd: project });
    await writeFile(
      join(project, "main.js"),
      [
        'import { query } from "agentwire";',
        'import schema from "agentwire/protocol/schema.json" with { type: "json" };',
        "const events = [];",
        'for await (const event of query({ prompt: "hi", options: { cwd: process.cwd() } })) events.push(event);',
        "console.log(JSON.stringify({ result: events.at(-1), schema: typeof schema.$schema }));",
      ].join("\n"),
    );
    await workspace.useScenario({ turns: [{ text: "Hello, library." }] });
    const output = await run(process.execPath, ["main.js"], {
      cwd: project,
      env: withModel({ ...userEnv, AGENTWIRE_HOME: join(scratch, "library-home") }),
    });
    const { result, schema } = JSON.parse(output.stdout) as { result: unknown; schema: string };
    expect(parseStdout(`${JSON.stringify(result)}\n`)[0]).toMatchObject({ type: "result", subtype: "success", result: "Hello, library." });
    expect(schema).toBe("string");
  }, 120_000); // npm links the package and tsc compiles a consumer: ~7 s alone, 30 s and more beside a second suite
});
