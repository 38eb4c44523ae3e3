// Bundles src/cli.ts into dist/ with code splitting, so each provider SDK lands in its own
// chunk and is only read from disk when that provider is actually used (start-up is on the
// critical path of every GUI turn).
import { build } from "esbuild";
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";

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
    plugin.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', resolveDir: new URL("../node_modules/zod/v4/locales/", import.meta.url).pathname }));
  },
};

const result = await build({
  absWorkingDir: root.pathname,
  // Three entries sharing chunks: the CLI, the library API (`agentwire`) and the protocol
  // (`agentwire/protocol`).
  entryPoints: { cli: "src/cli/main.ts", index: "src/api/index.ts", protocol: "protocol/index.ts" },
  outdir: "dist",
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
  // Which outputs load which inputs, statically or on demand (test/api/bundle.test.ts reads it).
  metafile: true,
  plugins: [onlyEnglishZodLocales],
  logLevel: "warning",
});
await writeFile(new URL("dist/metafile.json", root), JSON.stringify(result.metafile));

// The help texts bin/agentwire prints without loading the bundle, from the CLI itself.
for (const [file, args] of [["help.txt", ["--help"]], ["help-start.txt", ["start", "--help"]]]) {
  const { stdout } = await run(process.execPath, [new URL("dist/cli.js", root).pathname, ...args]);
  await writeFile(new URL(`dist/${file}`, root), stdout);
}
