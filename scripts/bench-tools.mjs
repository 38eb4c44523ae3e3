// Tool benchmark (not run in CI): builds a 100k-file tree in a temp folder and times agentwire's
// Grep (ripgrep and built-in backends) and Glob in-process beside `grep -r` and `find`, then
// measures the peak RSS of a process whose Bash tool runs a command printing 1 GB.
// Run: node scripts/bench-tools.mjs   (BENCH_FILES=20000 for a smaller tree)
// The tools are bundled from src/ with esbuild into a temp module, exactly as dist/ bundles them.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const fileCount = Number(process.env.BENCH_FILES ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const workdir = mkdtempSync(join(tmpdir(), "agentwire-bench-tools-"));
const tree = join(workdir, "tree");

const bundle = join(workdir, "tools.mjs");
await build({
  stdin: {
    contents: [
      'export { createGrepTool } from "./src/tools/grep.ts";',
      'export { createGlobTool } from "./src/tools/glob.ts";',
      'export { createBashTool } from "./src/tools/bash.ts";',
      'export { findRipgrep } from "./src/tools/search/ripgrep-search.ts";',
    ].join("\n"),
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  splitting: false,
  format: "esm",
  platform: "node",
  target: "node20",
  outfile: bundle,
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: "warning",
});
const tools = await import(bundle);

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
}

async function time(label, action) {
  await action(); // warm the page cache and lazy imports
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const startedAt = performance.now();
    await action();
    samples.push(performance.now() - startedAt);
  }
  const ms = median(samples);
  console.log(`${label.padEnd(58)} ${String(ms).padStart(6)} ms`);
  return ms;
}

function context(cwd, overrides = {}) {
  return {
    cwd,
    signal: new AbortController().signal,
    sessionState: new Map(),
    workspace: { roots: [cwd], allowOutside: false },
    outputDirectory: join(workdir, "output"),
    imageInput: false,
    ...overrides,
  };
}

// 1000 folders × fileCount/1000 files of ~1 KB; a rare token in 10 files, .ts and .md mixed.
console.log(`building ${fileCount} files under ${tree} …`);
mkdirSync(join(tree, ".git"), { recursive: true });
writeFileSync(join(tree, ".gitignore"), "*.tmp\n");
const body = Array.from({ length: 20 }, (_, line) => `export const value${line} = compute(${line}, "some ordinary text");`).join("\n");
for (let folder = 0; folder < 1000; folder += 1) {
  const folderPath = join(tree, `pkg${folder}`, "src");
  mkdirSync(folderPath, { recursive: true });
  for (let file = 0; file < fileCount / 1000; file += 1) {
    const index = folder * (fileCount / 1000) + file;
    const extension = file % 2 === 0 ? "ts" : "md";
    const marker = index % (fileCount / 10) === 7 ? "\n// NEEDLE_TOKEN here\n" : "\n";
    writeFileSync(join(folderPath, `file${file}.${extension}`), body + marker);
  }
}

// The tree was just written: flush it, so that the searches timed first do not share the disk
// with the kernel's write-back while those timed later have it to themselves.
spawnSync("sync");
const cwd = tree;
const grepAuto = tools.createGrepTool({ backend: "auto" });
const grepBuiltin = tools.createGrepTool({ backend: "builtin" });
const ripgrep = await tools.findRipgrep();
console.log(`\nsearch timings (median of ${runs}, warm cache), ${fileCount} files:`);
const figures = {};
if (ripgrep)
  figures.grepRipgrep = await time("Grep files_with_matches, ripgrep backend", () =>
    grepAuto.execute({ pattern: "NEEDLE_TOKEN" }, context(cwd)),
  );
figures.grepBuiltin = await time("Grep files_with_matches, built-in backend", () =>
  grepBuiltin.execute({ pattern: "NEEDLE_TOKEN" }, context(cwd)),
);
if (ripgrep)
  figures.grepContentRipgrep = await time("Grep content, ripgrep backend", () =>
    grepAuto.execute({ pattern: "NEEDLE_TOKEN", output_mode: "content" }, context(cwd)),
  );
figures.grepContentBuiltin = await time("Grep content, built-in backend", () =>
  grepBuiltin.execute({ pattern: "NEEDLE_TOKEN", output_mode: "content" }, context(cwd)),
);
figures.grepR = await time("grep -rl NEEDLE_TOKEN", () => spawnSync("grep", ["-rl", "NEEDLE_TOKEN", tree]));
if (ripgrep) figures.rgRaw = await time("rg -l NEEDLE_TOKEN (raw)", () => spawnSync(ripgrep, ["-l", "NEEDLE_TOKEN", tree]));
figures.glob = await time("Glob **/*.ts (50% of files; mtime sort, cap 100)", () =>
  tools.createGlobTool().execute({ pattern: "**/*.ts" }, context(cwd)),
);
figures.globNarrow = await time("Glob pkg1*/src/file1.ts", () =>
  tools.createGlobTool().execute({ pattern: "pkg1*/src/file1.ts" }, context(cwd)),
);
figures.find = await time("find -name '*.ts'", () => spawnSync("find", [tree, "-name", "*.ts"], { maxBuffer: 1 << 30 }));

// Bash with 1 GB of output, in a fresh process so its peak RSS is the tool's alone.
console.log("\nBash peak RSS (fresh Node process each):");
const bashProbe = (command) => {
  const script = `
    const tools = await import(${JSON.stringify(bundle)});
    const startedAt = performance.now();
    const result = await tools.createBashTool().execute({ command: ${JSON.stringify(command)}, timeout: 600000 }, {
      cwd: ${JSON.stringify(workdir)}, signal: new AbortController().signal, sessionState: new Map(),
      workspace: { roots: [${JSON.stringify(workdir)}], allowOutside: false },
      outputDirectory: ${JSON.stringify(join(workdir, "bash-output"))}, imageInput: false,
    });
    console.log(JSON.stringify({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), seconds: Math.round(performance.now() - startedAt) / 1000, contentChars: result.content.length, fullOutputPath: result.details.fullOutputPath }));
  `;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", maxBuffer: 1 << 20 }).trim());
};
const baseline = bashProbe("echo hi");
console.log(`  echo hi:                        peak RSS ${baseline.maxRssMb} MB`);
const gigabyte = bashProbe("yes 'a line of output from yes' | head -c 1073741824");
console.log(
  `  1 GB of output (yes | head -c): peak RSS ${gigabyte.maxRssMb} MB, ${gigabyte.seconds} s, model sees ${gigabyte.contentChars} chars`,
);
figures.bashBaselineRssMb = baseline.maxRssMb;
figures.bashGigabyteRssMb = gigabyte.maxRssMb;
figures.bashGigabyteSeconds = gigabyte.seconds;

console.log(`\n${JSON.stringify(figures)}`);
rmSync(workdir, { recursive: true, force: true });
