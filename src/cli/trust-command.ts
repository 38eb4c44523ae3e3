import { existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { FlagError, parseFlags } from "./flag-parser.js";
import { gatherTrustOffer, type TrustOffer } from "./trust-offer.js";
import { agentwireHome } from "../sessions/session-file.js";
import { trustRootOf } from "../trust/project-trust.js";
import { bytesFingerprint, folderFingerprint, mcpConfigFingerprint } from "../trust/fingerprint.js";
import { settingsFingerprint } from "../trust/settings-fingerprint.js";
import { readRegularFile } from "../trust/regular-file.js";
import { readTrustStore, trustFilePath, withoutProject, withTrusted, writeTrustStore, type TrustStore } from "../trust/trust-store.js";

const USAGE = `agentwire trust [DIR]            show what DIR's project brings, then trust it
agentwire trust --yes [DIR]      trust it without a question (what is shown is what is trusted)
agentwire trust --list           the trusted projects, and which files changed since
agentwire trust --revoke [DIR]   forget DIR's project

A cloned repository's .mcp.json servers do not start, its settings files' hooks, allow rules
and env (.claude/settings.json, .claude/settings.local.json) do nothing, its skills'
allowed-tools approve nothing, and its agent definitions (.claude/agents, .agents/agents) are
not loaded, until the user trusts them. Trust is kept per repository root (the directory with
.git, or DIR itself) in $AGENTWIRE_HOME/trusted-projects.json, with a sha256 of each trusted
file or skill folder: a file that changes, or a new one, needs trust again.
--trust-project trusts a project for one run instead (CI checkouts).`;

export const TRUST_OPTIONS = {
  yes: { alias: "y", type: "boolean", default: false },
  list: { type: "boolean", default: false },
  revoke: { type: "boolean", default: false },
  help: { alias: "h", type: "boolean", default: false },
} as const;

/** `agentwire trust …`; returns the exit code. What is shown goes to stdout, problems to stderr. */
export async function runTrustCommand(argv: string[], processCwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  let flags: Record<string, unknown> & { _: string[] };
  try {
    flags = parseFlags(argv, TRUST_OPTIONS).values;
  } catch (error) {
    return fail(`${error instanceof FlagError ? error.message : String(error)}\n\n${USAGE}`);
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [target, ...extra] = flags._;
  if (extra.length > 0) return fail(`Unexpected argument: ${extra.join(" ")}\n\n${USAGE}`);
  if (flags.list && (flags.revoke || target !== undefined)) return fail("--list takes no directory and no other action.");
  const home = agentwireHome(env);
  const read = readTrustStore(home);
  if ("problem" in read) return fail(`${read.problem}. Fix or remove it; until then no project is trusted.`);
  if (flags.list) {
    process.stdout.write(formatTrusted(read.store));
    return 0;
  }
  const directory = path.resolve(processCwd, target ?? ".");
  if (!existsSync(directory)) return fail(`No such directory: ${directory}`);
  if (flags.revoke) return revoke(home, read.store, trustRootOf(directory));
  const offer = await gatherTrustOffer(directory);
  if (offer.items.length === 0) {
    process.stdout.write(
      `Nothing in ${directory} needs trust: no .mcp.json, no settings file with hooks, allow rules or env, no project skill with allowed-tools and no agent definition.\n`,
    );
    return 0;
  }
  process.stdout.write(formatOffer(offer));
  const unhashable = offer.items.filter((item) => item.fingerprint === undefined);
  if (unhashable.length > 0)
    return fail(
      `${unhashable.map((item) => item.key).join(", ")} could not be read whole (unreadable, changed while it was read, or a skill folder over the size limits), so nothing was trusted.`,
    );
  if (!flags.yes) {
    const answer = await ask(
      "Trust these? The servers will start, the hooks will run and the rules will approve calls in every run here, without asking. [y/N] ",
    );
    if (answer === undefined) return fail("Not trusted: stdin is not a terminal to answer on. Pass --yes to trust what is shown above.");
    if (!/^y(es)?$/i.test(answer.trim())) {
      process.stdout.write("Not trusted.\n");
      return 1;
    }
  }
  const files = Object.fromEntries(offer.items.map((item) => [item.key, item.fingerprint!]));
  writeTrustStore(home, withTrusted(withoutGone(read.store, offer.root), offer.root, files, new Date()));
  process.stdout.write(`Trusted ${offer.root} (recorded in ${trustFilePath(home)}).\n`);
  return 0;
}

function revoke(home: string, store: TrustStore, root: string): number {
  if (store.projects[root] === undefined) {
    process.stdout.write(`${root} was not trusted.\n`);
    return 0;
  }
  writeTrustStore(home, withoutProject(store, root));
  process.stdout.write(`No longer trusted: ${root}.\n`);
  return 0;
}

/** Drops the root's entries for files that no longer exist, so the record lists only what is there. */
function withoutGone(store: TrustStore, root: string): TrustStore {
  const record = store.projects[root];
  if (!record) return store;
  const files = Object.fromEntries(Object.entries(record.files).filter(([key]) => existsSync(path.join(root, key))));
  return { ...store, projects: { ...store.projects, [root]: { ...record, files } } };
}

function formatOffer(offer: TrustOffer): string {
  const blocks = offer.items.map((item) => [item.title, ...item.details.map((detail) => `  ${detail}`)].map(visible).join("\n"));
  return `Project ${visible(offer.root)}\n\n${blocks.join("\n\n")}\n\n`;
}

/**
 * The text as the repository wrote it, with every control, line-breaking and direction-changing
 * character shown as an escape: a server name holding terminal escape codes could otherwise erase
 * or reorder the very lines the user reads before trusting.
 */
function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g,
    (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`,
  );
}

/** Each trusted root with its files, and whether each is unchanged, changed or gone. */
function formatTrusted(store: TrustStore): string {
  const roots = Object.keys(store.projects).sort();
  if (roots.length === 0) return "No project is trusted.\n";
  return roots
    .map((root) => {
      const record = store.projects[root]!;
      const lines = Object.entries(record.files).map(([key, fingerprint]) => `  ${visible(key)}  ${fileState(root, key, fingerprint)}`);
      return `${visible(root)}  (trusted ${visible(record.trustedAt)})\n${lines.join("\n")}\n`;
    })
    .join("\n");
}

/**
 * A record's key is a folder (a skill, ending in `/`) or a file: `.mcp.json` or a settings file,
 * each with the programs it names, or an agent definition.
 */
function fileState(root: string, key: string, fingerprint: string): string {
  const file = path.join(root, key);
  if (!existsSync(file)) return "gone";
  return currentFingerprint(root, key, file) === fingerprint ? "unchanged" : "changed since: needs trust again";
}

/** A record key that names an agent definition file (`.claude/agents/x.md`, `.agents/agents/x.md`, also in a subfolder's project folder). */
const AGENT_FILE_KEY = /(?:^|\/)\.(?:claude|agents)\/agents\/[^/]+\.md$/;

function currentFingerprint(root: string, key: string, file: string): string | undefined {
  if (key.endsWith("/")) return folderFingerprint(file);
  const read = readRegularFile(file);
  if (!("bytes" in read)) return undefined;
  // An agent definition: its bytes alone.
  if (AGENT_FILE_KEY.test(key)) return bytesFingerprint(read.bytes);
  // .claude/settings.json: its hooks run in the folder that holds .claude.
  if (path.basename(path.dirname(file)) === ".claude") return settingsFingerprint(read.bytes, path.dirname(path.dirname(file)), root);
  return mcpConfigFingerprint(read.bytes, path.dirname(file), root);
}

/** One line from a person at the terminal; undefined when nobody is there to answer. */
async function ask(question: string): Promise<string | undefined> {
  if (process.stdin.isTTY !== true) return undefined;
  const reader = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await reader.question(question);
  } finally {
    reader.close();
  }
}

function fail(message: string): number {
  process.stderr.write(`Error: ${message}\n`);
  return 1;
}
