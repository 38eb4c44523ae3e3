import { execFileSync, spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The watcher of the differential test: runs shell commands in a throwaway tree under bubblewrap,
 * traced by strace, and reports every write, every program run that the command line does not
 * name, every network connection and every file opened outside the tree and the system folders.
 * Many commands share one bwrap and one strace (one bash each, told apart by a marker in its
 * arguments), so thousands of commands take seconds, not minutes.
 */

/** The tree the commands run in, with a world outside it that they must not reach. */
export interface WatchedTree {
  base: string;
  /** The working directory: what the classifier calls the workspace. */
  tree: string;
  /** Outside the tree: `secret`, `dir/inner`; `tree/lnk` leads here. */
  outside: string;
  /** HOME of the commands: `.netrc`, `.ssh/id_rsa`, `secret`. */
  home: string;
  /** Where the watcher keeps commands and traces; not visible to the classifier's corpus. */
  watchDirectory: string;
}

export interface Violation {
  command: string;
  kind: "write" | "exec" | "read outside" | "network";
  /** The traced system call, as strace printed it. */
  detail: string;
}

/** Why the watcher cannot run here (no strace, no bwrap), or undefined. */
export function watcherProblem(): string | undefined {
  for (const program of ["bwrap", "strace", "timeout"]) {
    const found = spawnSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" });
    if (found.status !== 0) return `${program} is not installed`;
  }
  const probe = spawnSync(
    "bwrap",
    [...sandboxArguments([]), "strace", "-f", "--seccomp-bpf", "-qq", "-e", "trace=execve", "-o", "/dev/null", "true"],
    { encoding: "utf8" },
  );
  if (probe.status !== 0)
    return `bwrap with strace inside does not run here: ${(probe.stderr || probe.error?.message || "").trim().split("\n")[0]}`;
  return undefined;
}

/** Builds the tree, its outside and a HOME under `base` (an empty temp folder). */
export function createWatchedTree(base: string, watchDirectory: string): WatchedTree {
  const tree = path.join(base, "tree");
  const outside = path.join(base, "outside");
  const home = path.join(base, "home");
  const files: Record<string, string> = {
    [`${tree}/a.txt`]: "alpha\nbeta\n",
    [`${tree}/b.txt`]: "beta\ngamma\n",
    [`${tree}/data.json`]: '{"k":[1,2]}\n',
    [`${tree}/sp ace.txt`]: "space\n",
    [`${tree}/.hidden`]: "hidden\n",
    [`${tree}/src/main.ts`]: "export const alpha = 1;\n",
    [`${tree}/src/util/x.ts`]: "alpha\n",
    [`${tree}/sub/plain.txt`]: "alpha\n",
    // Files that name the outside, for options that read names from a file.
    [`${tree}/list.txt`]: `${outside}/secret\n`,
    [`${tree}/files0.bin`]: `${outside}/secret\0`,
    [`${tree}/patterns.txt`]: "alpha\n",
    [`${tree}/sums.txt`]: `00000000000000000000000000000000  ${outside}/secret\n`,
    [`${tree}/script.sed`]: "1e touch pwned\nw pwned\n",
    [`${tree}/lib.jq`]: "input_filename\n",
    // A file named like an option: `grep x *` would hand grep `-R`, which follows `lnk` out.
    [`${tree}/-R`]: "alpha\n",
    [`${tree}/a.js`]: 'require("fs").writeFileSync("pwned", "")\n',
    [`${outside}/secret`]: "TOP-SECRET-OUTSIDE\n",
    [`${outside}/dir/inner`]: "inner secret\n",
    [`${home}/.netrc`]: "machine example.com password hunter2\n",
    [`${home}/.ssh/id_rsa`]: "PRIVATE KEY\n",
    [`${home}/secret`]: "HOME-SECRET\n",
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  symlinkSync(outside, path.join(tree, "lnk"));
  symlinkSync(path.join(outside, "secret"), path.join(tree, "lnk-file"));
  symlinkSync(path.join(outside, "missing"), path.join(tree, "dangling"));
  symlinkSync("../../outside", path.join(tree, "sub", "rel-lnk"));
  mkdirSync(watchDirectory, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: tree, stdio: "ignore" });
  try {
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
  } catch {
    // Without git the git commands fail to run, which the watcher does not mind.
  }
  return { base, tree, outside, home, watchDirectory };
}

/** System calls that change the filesystem whatever their arguments. */
const CHANGING_CALLS =
  /^(creat|rename|renameat2?|unlink|unlinkat|rmdir|mkdir|mkdirat|link|linkat|symlink|symlinkat|truncate|ftruncate|chmod|fchmod|fchmodat|chown|fchown|lchown|fchownat|utimensat|mknod|mknodat)$/;
const TRACED_CALLS =
  "execve,execveat,open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,rmdir,mkdir,mkdirat,link,linkat,symlink,symlinkat,truncate,ftruncate,chmod,fchmod,fchmodat,chown,fchown,lchown,fchownat,utimensat,mknod,mknodat,connect";
const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/;
/** Where a program may write without writing a file: the terminal and the bit bucket. */
const HARMLESS_WRITE_TARGETS = /^\/dev\/(null|tty|pts\/\d+|stdout|stderr)$/;
/** Read anywhere by every program (libraries, locales, /etc/passwd for names, /proc for ps). */
const SYSTEM_FOLDERS = ["/usr", "/etc", "/proc", "/sys", "/dev"];
/** Inside the system folders but a secret all the same. */
const SYSTEM_SECRETS = /^(\/etc\/(g?shadow|sudoers)|\/proc\/[^/]+\/environ)/;

/** A bwrap command line that shows the commands the system and `binds`, with no network. */
function sandboxArguments(binds: readonly string[]): string[] {
  const systemLinks = ["/bin", "/lib", "/lib64", "/sbin"].flatMap((folder) => {
    const stats = lstatSync(folder, { throwIfNoEntry: false });
    if (!stats) return [];
    return stats.isSymbolicLink()
      ? ["--symlink", execFileSync("readlink", [folder], { encoding: "utf8" }).trim(), folder]
      : ["--ro-bind", folder, folder];
  });
  return [
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--ro-bind",
    "/usr",
    "/usr",
    ...systemLinks,
    "--ro-bind",
    "/etc",
    "/etc",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    ...binds,
  ];
}

/** Runs each command in `tree` and returns what they did that a read-only command must not do. */
export async function watchCommands(
  commands: readonly string[],
  watched: WatchedTree,
  namedPrograms: (command: string) => string[],
  parallel = 2,
): Promise<Violation[]> {
  const driver = path.join(watched.watchDirectory, "driver.sh");
  // Each command gets its own bash with the marker as $0, so strace's execve line tells where it starts.
  writeFileSync(
    driver,
    'index=$2\nwhile IFS= read -r -d "" command; do\n  timeout -k 1 5 bash --norc --noprofile -c "$command" "aw-differential-$index" </dev/null >/dev/null 2>&1\n  index=$((index + 1))\ndone < "$1"\n',
  );
  const chunkSize = Math.ceil(commands.length / parallel);
  const chunks = Array.from({ length: parallel }, (_, chunk) => ({
    offset: chunk * chunkSize,
    commands: commands.slice(chunk * chunkSize, (chunk + 1) * chunkSize),
  }));
  const traces = await Promise.all(chunks.map((chunk, number) => runChunk(chunk, number, watched, driver)));
  const tree = realpathSync(watched.tree);
  return traces.flatMap((trace) => violationsIn(trace, commands, tree, namedPrograms));
}

function runChunk(
  chunk: { offset: number; commands: readonly string[] },
  number: number,
  watched: WatchedTree,
  driver: string,
): Promise<string> {
  const list = path.join(watched.watchDirectory, `commands-${number}`);
  const trace = path.join(watched.watchDirectory, `trace-${number}`);
  writeFileSync(list, chunk.commands.map((command) => `${command}\0`).join(""));
  const binds = [
    "--ro-bind",
    watched.base,
    watched.base,
    "--bind",
    watched.watchDirectory,
    watched.watchDirectory,
    "--chdir",
    watched.tree,
  ];
  // GIT_OPTIONAL_LOCKS=0: `git status` otherwise refreshes .git/index, a write of git's own that
  // auto-approved git must be run without (as `--no-optional-locks` does); the classifier cannot see it.
  const environment = [
    "--clearenv",
    "--setenv",
    "PATH",
    "/usr/bin:/bin",
    "--setenv",
    "HOME",
    watched.home,
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--setenv",
    "GIT_OPTIONAL_LOCKS",
    "0",
  ];
  // --seccomp-bpf stops the traced processes only at the calls watched, which makes tracing cheap.
  const strace = [
    "strace",
    "-f",
    "--seccomp-bpf",
    "-qq",
    "-y",
    "-s",
    "4096",
    "-e",
    "signal=none",
    "-e",
    `trace=${TRACED_CALLS}`,
    "-o",
    trace,
  ];
  const child = spawn(
    "bwrap",
    [...sandboxArguments(binds), ...environment, ...strace, "bash", "--norc", "--noprofile", driver, list, String(chunk.offset)],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`the watcher's bwrap/strace exited with ${code}: ${stderr}`));
      else resolve(execFileSync("cat", [trace], { encoding: "utf8", maxBuffer: 1 << 30 }));
    });
  });
}

const MARKER = /"aw-differential-(\d+)"/;

/** Reads one strace log (several processes, calls split across lines) into violations per command. */
export function violationsIn(
  trace: string,
  commands: readonly string[],
  tree: string,
  namedPrograms: (command: string) => string[],
): Violation[] {
  const violations: Violation[] = [];
  const unfinished = new Map<string, string>();
  let current: number | undefined;
  let allowedPrograms = new Set<string>();
  for (const rawLine of trace.split("\n")) {
    const match = /^(\d+)\s+(.*)$/.exec(rawLine);
    if (!match) continue;
    const [, pid, rest] = match as unknown as [string, string, string];
    if (rest.endsWith("<unfinished ...>")) {
      unfinished.set(pid, rest.slice(0, -"<unfinished ...>".length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(rest);
    const line = resumed ? `${unfinished.get(pid) ?? ""}${resumed[1]}` : rest;
    unfinished.delete(pid);
    const marker = MARKER.exec(line);
    if (marker && line.startsWith("execve(")) {
      current = Number(marker[1]);
      allowedPrograms = new Set([...namedPrograms(commands[current]!), "bash", "timeout"]);
      continue;
    }
    if (current === undefined) continue;
    const problem = problemOf(line, tree, allowedPrograms);
    if (problem) violations.push({ command: commands[current]!, kind: problem, detail: line });
  }
  return violations;
}

function problemOf(line: string, tree: string, allowedPrograms: Set<string>): Violation["kind"] | undefined {
  const call = /^(\w+)\(/.exec(line)?.[1];
  if (call === undefined) return undefined;
  if (call === "execve" || call === "execveat") {
    const program = path.basename(quotedStrings(line)[0] ?? "");
    return allowedPrograms.has(program) ? undefined : "exec";
  }
  if (call === "connect") return /AF_INET6?\b/.test(line) ? "network" : undefined;
  if (CHANGING_CALLS.test(call)) return "write";
  if (call !== "open" && call !== "openat" && call !== "openat2") return undefined;
  const resultEnd = line.lastIndexOf(") = ");
  const result = line.slice(resultEnd + 4);
  const openedPath = /^\d+<(.*)>$/.exec(result.trim())?.[1];
  const requested = requestedPath(line);
  if (WRITE_FLAGS.test(line.slice(0, resultEnd))) {
    const target = openedPath ?? requested;
    return HARMLESS_WRITE_TARGETS.test(target) ? undefined : "write";
  }
  if (openedPath === undefined) return undefined;
  if (SYSTEM_SECRETS.test(openedPath)) return "read outside";
  const inside =
    openedPath === tree ||
    openedPath.startsWith(`${tree}/`) ||
    SYSTEM_FOLDERS.some((folder) => openedPath === folder || openedPath.startsWith(`${folder}/`));
  return inside ? undefined : "read outside";
}

/** The path an open asked for, made absolute against its directory descriptor's path. */
function requestedPath(line: string): string {
  const name = quotedStrings(line)[0] ?? "";
  if (name.startsWith("/")) return name;
  const directory = /^\w+\((?:AT_FDCWD|\d+)<([^>]*)>/.exec(line)?.[1] ?? "/";
  return path.resolve(directory, name);
}

/** The double-quoted strings of a strace line, unescaped. */
function quotedStrings(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!.replace(/\\(.)/g, "$1"));
}
