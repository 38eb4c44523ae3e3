import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

/**
 * Runs the CLI bundle (CommonJS, dist/cli.cjs and dist/cli-chunks/) with V8's code cache: the
 * compiled code of each file a run loaded is kept beside agentwire's home and handed back to V8
 * on the next start, which then skips parsing and compiling what it already compiled (~15 ms of
 * CPU on a single answer). Node 20 caches nothing for ES modules and `module.enableCompileCache`
 * is Node 22's, hence the CommonJS bundle and this loader (bin/agentwire runs it).
 *
 * The cache never serves code for another bundle: its folder is named by a hash of the whole
 * built CLI (set by scripts/build.mjs), and V8 itself refuses data from another V8 version,
 * other V8 flags or another source. The install folder is only read. A cache that cannot be
 * read or written is no cache; the run is the same, only slower.
 */

declare const __AGENTWIRE_CLI_BUILD__: string;

/**
 * main.ts calls the function under this global key with the V8 flags it is about to set. V8
 * refuses cached code made under other flags, so the loader first writes the caches of the files
 * loaded so far, and caches made from then on are kept apart, under the new flags' name.
 */
export const BEFORE_V8_FLAGS = Symbol.for("agentwire.before-v8-flags");

interface LoadedFile {
  script: Script;
  cacheFile: string;
  /** The V8 flags agentwire had set when the file was compiled ("" for none). */
  flags: string;
  /** Whether the cache lacked this file (or V8 refused it): it is written before the process ends. */
  write: boolean;
}

/**
 * Where one build's caches live for this Node and these Node options; undefined when caching is
 * off. V8 refuses code cached under other flags, and a host may start agentwire with its own
 * (`node --max-old-space-size=… agentwire`, NODE_OPTIONS): each set of options gets its folder,
 * or runs with and without them would each throw the other's cache away.
 */
export function codeCacheDirectory(env: NodeJS.ProcessEnv, build: string, execArgv: readonly string[]): string | undefined {
  if (env.AGENTWIRE_CODE_CACHE === "0") return undefined;
  const home = env.AGENTWIRE_HOME || join(homedir(), ".agentwire");
  const options = [...execArgv, env.NODE_OPTIONS ?? ""].join("\0");
  const optionsTag = options === "" ? "" : `-${fnv1a(options)}`;
  return join(home, "cache", "code", `${build}-${process.versions.v8}-${process.arch}${optionsTag}`);
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

/** Loads `entryFile` as the CLI's entry, its chunks through the cache in `cacheDirectory`. */
export function runWithCodeCache(entryFile: string, cacheDirectory: string | undefined): void {
  // Cached code runs as agentwire: a folder someone else could write to is not used at all.
  const usable = cacheDirectory !== undefined && privateOrAbsent(cacheDirectory) && privateOrAbsent(dirname(cacheDirectory));
  const directory = usable ? cacheDirectory : undefined;
  const loaded = new Map<string, { exports: unknown }>();
  const files: LoadedFile[] = [];
  let flags = "";

  const writeCaches = (): void => {
    const pending = files.filter((file) => file.write && file.flags === flags);
    if (pending.length === 0 || directory === undefined) return;
    try {
      if (!existsAsDirectory(directory)) {
        mkdirSync(directory, { recursive: true, mode: 0o700 });
        removeOtherBuilds(directory);
      }
      for (const file of pending) {
        file.write = false;
        // Written whole, then renamed: a run starting meanwhile reads the old cache or the new one.
        const temporary = `${file.cacheFile}.${process.pid}`;
        writeFileSync(temporary, file.script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, file.cacheFile);
      }
    } catch {
      // A home that cannot be written: no cache.
    }
  };

  const load = (file: string): unknown => {
    const known = loaded.get(file);
    if (known) return known.exports;
    const module = { exports: {} };
    loaded.set(file, module);
    const source = readFileSync(file, "utf8");
    const cacheFile = directory === undefined ? "" : join(directory, cacheFileName(file, flags));
    const cachedData = directory === undefined ? undefined : readIfPresent(cacheFile);
    const script = new Script(wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
    const refused = cachedData === undefined || script.cachedDataRejected === true;
    files.push({ script, cacheFile, flags, write: directory !== undefined && refused });
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

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** A folder only its owner, this user, can write to; or none yet (it is made so). */
function privateOrAbsent(directory: string): boolean {
  try {
    const stats = statSync(directory);
    return stats.isDirectory() && (stats.mode & 0o022) === 0 && (process.getuid === undefined || stats.uid === process.getuid());
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

function existsAsDirectory(directory: string): boolean {
  try {
    readdirSync(directory);
    return true;
  } catch {
    return false;
  }
}

/** Folders kept: this build's and the two made last before it (two installs used in turn keep theirs). */
const KEPT_BUILDS = 3;

/** Caches of older builds or other Node versions: all but the newest few go. */
function removeOtherBuilds(directory: string): void {
  const parent = dirname(directory);
  const others = readdirSync(parent)
    .map((name) => join(parent, name))
    .filter((path) => path !== directory)
    .map((path) => ({ path, made: statSync(path).mtimeMs }))
    .sort((left, right) => right.made - left.made);
  for (const { path } of others.slice(KEPT_BUILDS - 1)) rmSync(path, { recursive: true, force: true });
}

/** bin/agentwire's entry: the CLI bundle next to this file, cached per this build. */
export function runCli(): void {
  const entry = join(dirname(fileURLToPath(import.meta.url)), "cli.cjs");
  runWithCodeCache(entry, codeCacheDirectory(process.env, __AGENTWIRE_CLI_BUILD__, process.execArgv));
}
