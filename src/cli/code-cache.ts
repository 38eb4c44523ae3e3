import { openCachedData, sealCachedData } from "./code-cache-envelope.js";
import { BEFORE_V8_FLAGS, CODE_COVERAGE } from "./code-cache-hooks.js";
import { makePrivateCacheFolder, privateCacheFolder, readPrivateFile, removeOtherBuilds, replaceFile } from "./code-cache-files.js";

// Node's built-ins through process.getBuiltinModule rather than `import`: in the CommonJS loader a
// `require` of a built-in also builds its ES module facade and reads every export (node:fs's
// streams among them), and this file runs before anything else on every start (~3 ms of CPU on a
// single answer, medians of 21).
const { readFileSync } = process.getBuiltinModule("node:fs");
const { createRequire } = process.getBuiltinModule("node:module");
const { homedir } = process.getBuiltinModule("node:os");
const { basename, dirname, isAbsolute, join, resolve } = process.getBuiltinModule("node:path");
const { Script } = process.getBuiltinModule("node:vm");
type Script = import("node:vm").Script;

/**
 * Runs the CLI bundle (CommonJS, dist/cli.cjs and dist/cli-chunks/) with V8's code cache: the
 * compiled code of each file a run loaded is kept beside agentwire's home and handed back to V8
 * on the next start, which then skips parsing and compiling what it already compiled (~15 ms of
 * CPU on a single answer). Node 20 caches nothing for ES modules and `module.enableCompileCache`
 * is Node 22's, hence the CommonJS bundle and this loader (bin/agentwire runs it).
 *
 * The cache never serves code for another bundle: its folder is named by a hash of the whole
 * built CLI (set by scripts/build.mjs); V8 refuses data from another V8 version or other V8
 * flags, but of the source it compares only the length, and it checks no checksum of the data.
 * So each file carries agentwire's own envelope (code-cache-envelope.ts: the source's length, the
 * data's length and hash), and only data that matches reaches V8. Cached code runs as agentwire:
 * only this user's private files in private folders are read (code-cache-files.ts). The install
 * folder is only read. A cache that cannot be read or written is no cache; the run is the same,
 * only slower.
 */

declare const __AGENTWIRE_CLI_BUILD__: string;

interface LoadedFile {
  script: Script;
  cacheFile: string;
  sourceLength: number;
  /** The V8 flags agentwire had set when the file was compiled ("" for none). */
  flags: string;
  /** Whether the cache lacked this file (or it was damaged, or V8 refused it): it is written before the process ends. */
  write: boolean;
  /** The kinds of run its cache covers (0 for none). */
  coverage: number;
}

/** A build's cache folder and the agentwire home it lies in (both absolute). */
export interface CodeCacheLocation {
  home: string;
  directory: string;
}

/**
 * Where one build's caches live for this Node and these Node options; undefined when caching is
 * off. V8 refuses code cached under other flags, and a host may start agentwire with its own
 * (`node --max-old-space-size=… agentwire`, NODE_OPTIONS): each set of options gets its folder,
 * or runs with and without them would each throw the other's cache away. A relative
 * AGENTWIRE_HOME (or HOME) gets no cache: it would be found from the working directory, which may be a
 * cloned repository's, and that repository would then choose the code agentwire runs.
 */
export function codeCacheLocation(env: NodeJS.ProcessEnv, build: string, execArgv: readonly string[]): CodeCacheLocation | undefined {
  if (env.AGENTWIRE_CODE_CACHE === "0") return undefined;
  const home = env.AGENTWIRE_HOME || join(homedir(), ".agentwire");
  if (!isAbsolute(home)) return undefined;
  const options = [...execArgv, env.NODE_OPTIONS ?? ""].join("\0");
  const optionsTag = options === "" ? "" : `-${fnv1a(options)}`;
  return { home, directory: join(home, "cache", "code", `${build}-${process.versions.v8}-${process.arch}${optionsTag}`) };
}

/** A short hash for a folder name (FNV-1a, 32 bits): node:crypto would cost ~4 ms to load here. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** The cache file of one bundle file, made under `flags`. */
export function cacheFileName(file: string, flags: string): string {
  const suffix = flags === "" ? "" : `.${flags.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}`;
  return `${basename(file)}${suffix}.v8cache`;
}

/** Loads `entryFile` as the CLI's entry, its chunks through the cache at `location`. */
export function runWithCodeCache(entryFile: string, location: CodeCacheLocation | undefined): void {
  let folder = location === undefined ? undefined : privateCacheFolder(location.home, location.directory);
  const loaded = new Map<string, { exports: unknown }>();
  const files: LoadedFile[] = [];
  let flags = "";
  let runCoverage = 0;

  const writeCaches = (): void => {
    const pending = files.filter((file) => (file.write || (runCoverage & ~file.coverage) !== 0) && file.flags === flags);
    if (pending.length === 0 || folder === undefined || location === undefined) return;
    try {
      if (!folder.exists) {
        folder = makePrivateCacheFolder(location.home, location.directory, folder);
        if (!folder?.exists) return;
        removeOtherBuilds(folder.path);
      }
    } catch {
      // A home that cannot be written: no cache.
      return;
    }
    for (const file of pending) {
      file.write = false;
      file.coverage |= runCoverage;
      try {
        replaceFile(join(folder.path, file.cacheFile), sealCachedData(file.sourceLength, file.script.createCachedData(), file.coverage));
      } catch {
        // This file stays uncached; the others may still be written.
      }
    }
  };

  const load = (file: string): unknown => {
    const known = loaded.get(file);
    if (known) return known.exports;
    const module = { exports: {} };
    loaded.set(file, module);
    const source = wrap(readFileSync(file, "utf8"));
    const cacheFile = cacheFileName(file, flags);
    const sealed = folder?.exists === true ? readPrivateFile(join(folder.path, cacheFile)) : undefined;
    const cached = sealed === undefined ? undefined : openCachedData(sealed, source.length);
    const script = new Script(source, { filename: file, ...(cached ? { cachedData: cached.data } : {}) });
    if (folder !== undefined) {
      const write = cached === undefined || script.cachedDataRejected === true;
      files.push({ script, cacheFile, sourceLength: source.length, flags, write, coverage: write ? 0 : cached.coverage });
    }
    const nodeRequire = createRequire(file);
    // The bundle's own files are required by relative path; everything else is Node's.
    const requireFromFile = Object.assign(
      (id: string) => (id.startsWith("./") || id.startsWith("../") ? load(resolve(dirname(file), id)) : nodeRequire(id)),
      { resolve: nodeRequire.resolve, cache: nodeRequire.cache },
    );
    type ModuleFunction = (exports: unknown, require: unknown, module: unknown, filename: string, dirname: string) => void;
    const run = script.runInThisContext() as ModuleFunction;
    run.call(module.exports, module.exports, requireFromFile, module, file, dirname(file));
    return module.exports;
  };

  (globalThis as Record<symbol, unknown>)[CODE_COVERAGE] = (kind: number): void => {
    runCoverage |= kind;
  };
  (globalThis as Record<symbol, unknown>)[BEFORE_V8_FLAGS] = (newFlags: string): void => {
    writeCaches();
    flags = `${flags} ${newFlags}`.trim();
  };
  process.once("exit", writeCaches);
  load(entryFile);
}

/** The CommonJS function wrapper, as Node puts it around a module. */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}

/** bin/agentwire's entry: the CLI bundle in `distDirectory` (dist/), cached per this build. */
export function runCli(distDirectory: string): void {
  const entry = join(distDirectory, "cli.cjs");
  runWithCodeCache(entry, codeCacheLocation(process.env, __AGENTWIRE_CLI_BUILD__, process.execArgv));
}
