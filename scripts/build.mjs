// Bundles agentwire into dist/ with code splitting, so each provider SDK lands in its own chunk
// and is only read from disk when that provider is actually used (start-up is on the critical
// path of every GUI turn). Two builds, and the web page's script:
//   - the library (`agentwire`) and the protocol (`agentwire/protocol`): esbuild, into dist/ and
//     dist/chunks/;
//   - the CLI: esbuild, then rollup regroups esbuild's chunks by when a run loads them (before
//     system/init, the session core, the stream-json input side, each provider), into dist/cli.cjs
//     and dist/cli-chunks/, as CommonJS that dist/code-cache.cjs runs with V8's code cache.
//     esbuild splits code by which entry points reach it, and the CLI's many on-demand imports
//     left a single answer loading 43 files, most under 2 KB; each ESM file costs ~0.4 ms to
//     resolve, read, link and run, so the regrouped CLI (4 files for that run) prints its first
//     line ~8 ms sooner and exits ~18 ms sooner.
import { build } from "esbuild";
import { rollup } from "rollup";
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { createHash } from "node:crypto";

const run = promisify(execFile);

const root = new URL("..", import.meta.url);
const packageJson = JSON.parse(await readFile(new URL("package.json", root), "utf8"));
await rm(new URL("dist", root), { recursive: true, force: true });
/**
 * zod's namespace re-exports every locale (about 40 files, ~200 KB minified) so that
 * `z.locales.xx()` works; agentwire only uses the default English messages, which zod installs
 * from `en.js` directly. Parsing the unused ones cost every start.
 */
const onlyEnglishZodLocales = {
  name: "only-english-zod-locales",
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: new URL("../node_modules/zod/v4/locales/", import.meta.url).pathname,
    }));
  },
};

/**
 * The provider SDKs touch the globals `Headers`, `FormData` and `ReadableStream` on every
 * request, and Node defines them lazily: the first touch of either of the first two compiles
 * undici and everything it requires (~28 ms of CPU), though agentwire sends the SDKs' requests
 * over node:http (src/providers/node-http-fetch.ts). In the SDKs' files these names are bound to
 * src/providers/sdk-globals.ts instead, which does not load undici.
 */
const sdkGlobalsFile = new URL("../src/providers/sdk-globals.ts", import.meta.url).pathname;
const SDK_GLOBALS = ["Headers", "FormData", "ReadableStream"];
const sdkGlobals = {
  name: "sdk-globals",
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]node_modules[\\/](@anthropic-ai[\\/]sdk|openai)[\\/].*\.mjs$/ }, async ({ path }) => {
      let contents = await readFile(path, "utf8");
      const used = SDK_GLOBALS.filter((name) => new RegExp(`\\b${name}\\b`).test(contents));
      if (used.length === 0) return undefined;
      // `globalThis.X` gets its own alias: a file may declare a local `X = globalThis.X`.
      for (const name of used) contents = contents.replaceAll(`globalThis.${name}`, `agentwire_${name}`);
      const bindings = used.flatMap((name) => [name, `${name} as agentwire_${name}`]).join(", ");
      return { contents: `import { ${bindings} } from ${JSON.stringify(sdkGlobalsFile)};\n${contents}`, loader: "js" };
    });
  },
};

/** esbuild settings both builds share. */
const common = {
  absWorkingDir: root.pathname,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  // Smaller code parses faster; start-up is dominated by parsing the bundled dependencies.
  minify: true,
  chunkNames: "chunks/[name]-[hash]",
  // Bundled CommonJS dependencies (yargs helpers, pino) call require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  define: { __AGENTWIRE_VERSION__: JSON.stringify(packageJson.version) },
  // Which outputs load which inputs, statically or on demand (test/api/package.test.ts reads it).
  metafile: true,
  plugins: [onlyEnglishZodLocales, sdkGlobals],
  logLevel: "warning",
};

common.define.__AGENTWIRE_BUILTIN_TOOL_SCHEMAS__ = JSON.stringify(await builtinToolSchemas());

const library = await build({ ...common, entryPoints: { index: "src/api/index.ts", protocol: "protocol/index.ts" }, outdir: "dist" });

// The page's script (`agentwire web`): web/app.js and what it imports, the shared presentation
// module src/render/present/ among them, as one file for the browser. Not minified: it is small,
// read over loopback, and readable in the browser's tools. index.html and style.css stay in web/.
await build({
  absWorkingDir: root.pathname,
  entryPoints: { app: "web/app.js" },
  outdir: "dist/web",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  logLevel: "warning",
});

const STAGE = "dist/.cli-stage";
let cliOutputs;
let cliBuild;
try {
  const cli = await build({ ...common, entryPoints: { cli: "src/cli/main.ts" }, outdir: STAGE });
  ({ described: cliOutputs, build: cliBuild } = await regroupCli(cli.metafile.outputs));
} finally {
  await rm(new URL(STAGE, root), { recursive: true, force: true });
}
// bin/agentwire's loader of the CLI bundle, with the hash that names this build's code cache.
// CommonJS, as bin/agentwire is (bin/package.json): an ES module entry costs Node's ES module
// loader, and each built-in module it imports a facade that evaluates all its exports (node:fs's
// loads its streams); together ~8 ms of CPU on a single answer (106 → 98 ms, medians of 15).
await build({
  ...common,
  splitting: false,
  metafile: false,
  format: "cjs",
  banner: {},
  outExtension: { ".js": ".cjs" },
  entryPoints: { "code-cache": "src/cli/code-cache.ts" },
  outdir: "dist",
  define: { __AGENTWIRE_CLI_BUILD__: JSON.stringify(cliBuild) },
});
await writeFile(new URL("dist/metafile.json", root), JSON.stringify({ outputs: { ...library.metafile.outputs, ...cliOutputs } }));

/**
 * The built-in tools' input JSON Schemas, converted from their zod schemas here, once, rather than
 * at every run's first model request (~4 ms of CPU there). src/tools/registry.ts takes them for
 * the tools builtinTools() makes; any other tool (a compact-profile variant, MCP) is converted as
 * before.
 */
async function builtinToolSchemas() {
  const stage = "dist/.schema-stage";
  try {
    await build({
      ...common,
      splitting: false,
      metafile: false,
      sourcemap: false,
      entryPoints: { schemas: "src/cli/builtin-tool-schemas.ts" },
      outdir: stage,
    });
    const { convertBuiltinToolSchemas } = await import(new URL(`${stage}/schemas.js`, root).href);
    return convertBuiltinToolSchemas();
  } finally {
    await rm(new URL(stage, root), { recursive: true, force: true });
  }
}

/**
 * The CLI's load phases, in order: the modules each one loads, found from esbuild's metafile as
 * the static closure of its entries. A module goes to the first phase that loads it; modules no
 * phase names keep rollup's own chunking (commands and features a run loads on demand).
 */
function cliPhases(outputs) {
  const entryOf = (source) => Object.keys(outputs).find((file) => outputs[file].entryPoint === source);
  const closure = (...sources) => {
    const seen = new Set();
    const pending = sources.map(entryOf).filter(Boolean);
    while (pending.length > 0) {
      const file = pending.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      for (const imported of outputs[file].imports)
        if (imported.kind === "import-statement" && !imported.external) pending.push(imported.path);
    }
    return seen;
  };
  const start = closure("src/cli/main.ts");
  start.delete(`${STAGE}/cli.js`);
  const session = closure("src/session/session.ts");
  const providers = [
    ["anthropic", closure("src/providers/anthropic.ts")],
    ["openai", closure("src/providers/openai-chat.ts", "src/providers/openai-responses.ts")],
    ["gemini", closure("src/providers/gemini.ts", "src/providers/gcloud-token.ts")],
  ];
  // Helpers several providers share (HTTP error mapping, retry-after, the tool-call assembler)
  // go with the session core: in one provider's chunk they would make the others load it.
  for (const [, files] of providers) {
    for (const file of files) if (providers.filter(([, other]) => other.has(file)).length > 1) session.add(file);
  }
  return [
    // Everything before system/init, beside cli.js itself.
    ["start", start],
    ["session", session],
    ["stream-input", closure("src/server/stream-input.ts", "src/server/host-channel.ts", "src/server/host-approvals.ts")],
    ...providers,
  ];
}

/** Rollup over esbuild's CLI output: same code, fewer files. Returns the CLI's metafile outputs. */
async function regroupCli(outputs) {
  const phases = cliPhases(outputs);
  const stageDirectory = new URL(`${STAGE}/`, root).pathname;
  const relative = (id) => `${STAGE}/${id.slice(stageDirectory.length)}`;
  const bundle = await rollup({
    input: { cli: `${stageDirectory}cli.js` },
    // esbuild has tree-shaken already; node: built-ins and the few packages left external stay so.
    treeshake: false,
    external: (id) => id.startsWith("node:") || (!id.startsWith(".") && !id.startsWith("/")),
    plugins: [
      {
        name: "esbuild-sourcemaps",
        // Chains esbuild's maps, so the CLI's maps still lead to src/.
        async load(id) {
          const code = await readFile(id, "utf8");
          const map = await readFile(`${id}.map`, "utf8").catch(() => undefined);
          return { code, map };
        },
      },
    ],
  });
  const { output } = await bundle.write({
    dir: new URL("dist/", root).pathname,
    // CommonJS, so that src/cli/code-cache.ts can hand V8 its cached code (Node 20 caches none
    // for ES modules); its on-demand imports become on-demand requires.
    format: "cjs",
    dynamicImportInCjs: false,
    entryFileNames: "[name].cjs",
    // esbuild's names carry its own hash; rollup adds one for the regrouped content.
    chunkFileNames: (chunk) => `cli-chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, "")}-[hash].cjs`,
    sourcemap: true,
    manualChunks: (id) => phases.find(([, files]) => files.has(relative(id)))?.[0],
  });
  await bundle.close();
  // The same shape esbuild's metafile has, inputs named by their source files.
  const described = {};
  for (const chunk of output) {
    if (chunk.type !== "chunk") continue;
    const inputs = {};
    for (const id of Object.keys(chunk.modules)) Object.assign(inputs, outputs[relative(id)]?.inputs ?? {});
    described[`dist/${chunk.fileName}`] = {
      bytes: Buffer.byteLength(chunk.code),
      inputs,
      imports: [
        ...chunk.imports.map((path) => ({ path, kind: "import-statement" })),
        ...chunk.dynamicImports.map((path) => ({ path, kind: "dynamic-import" })),
      ].map(({ path, kind }) =>
        path.startsWith("node:") || !path.endsWith(".cjs") ? { path, kind, external: true } : { path: `dist/${path}`, kind },
      ),
      ...(chunk.isEntry ? { entryPoint: "src/cli/main.ts" } : {}),
    };
  }
  // The build's name for the code cache (src/cli/code-cache.ts): any change to the CLI changes it.
  const code = output.map((chunk) => (chunk.type === "chunk" ? chunk.code : "")).join("\0");
  return { described, build: createHash("sha256").update(code).digest("hex").slice(0, 16) };
}

// The help and version texts bin/agentwire prints without loading the bundle, from the CLI itself.
for (const [file, args] of [
  ["help.txt", ["--help"]],
  ["help-start.txt", ["start", "--help"]],
  ["version.txt", ["--version"]],
]) {
  const { stdout } = await run(process.execPath, [new URL("dist/cli.cjs", root).pathname, ...args]);
  await writeFile(new URL(`dist/${file}`, root), stdout);
}
