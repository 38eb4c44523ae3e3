import { containsKnownSecret } from "../text/secret-formats.js";

/**
 * The environment of every process agentwire starts (Bash commands, MCP stdio servers, helper
 * programs): agentwire's own, without its credentials. A command the model runs, or a server a
 * repository configures, may be written by an attacker; whatever it can read it can send away,
 * and redaction of tool output is undone by any transform (`tr`, `cut`, base64). So the keys
 * agentwire needs for its own model requests never reach a child unless the user passes one on
 * purpose (`--pass-env NAME`, or an MCP server's own `env` block).
 *
 * The matcher errs toward removing: a variable whose name reads like a credential goes, and so
 * does one whose value holds a well-known key format or a URL with a password in it. A removed
 * variable that a command needed is one flag away; a leaked key is not recoverable.
 */

/** Name words that mark a credential wherever they appear (`GH_TOKEN`, `DB_PASS`, `SENTRY_DSN`). */
const CREDENTIAL_WORDS = new Set([
  "TOKEN",
  "KEY",
  "KEYS",
  "PASS",
  "PAT",
  "AUTH",
  "AUTHORIZATION",
  "BEARER",
  "CREDS",
  "COOKIE",
  "COOKIES",
  "DSN",
  "SALT",
  "WEBHOOK",
  "HEADER",
  "HEADERS",
  // Found missing by an independent attack: `LDAP_BIND_PW`, `KEYSTORE_PIN`, `WALLET_MNEMONIC`, `OAUTH`, `SESSIONID`.
  "PW",
  "PIN",
  "MNEMONIC",
  "SEED",
  "OAUTH",
  "SESSIONID",
  "PRIVKEY",
]);

/**
 * Parts of a word that mark a credential even when glued to others (`PGPASSWORD`,
 * `CLIENTSECRET`, `GOOGLE_APPLICATION_CREDENTIALS`). `TOKEN` counts only at a word's end:
 * `TOKENIZERS_PARALLELISM` and `MAX_TOKENS` are settings, not secrets.
 */
const CREDENTIAL_WORD_PARTS = /SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|TOKEN$|(?:API|ACCESS|PRIVATE|PRIV|SIGNING|ENCRYPTION)KEY$/;

/** Whole names no word rule catches: Bitwarden's and 1Password's unlocked-vault sessions. */
const CREDENTIAL_NAMES = /^(?:BW_SESSION|OP_SESSION_.*|.*_CONN(?:ECTION)?_?STR(?:ING)?)$/;

/**
 * Names the word rules would catch that are not secrets, and that everyday commands need:
 * the ssh agent's socket path (git over ssh; it holds no key itself), and the names of git
 * settings given through the environment (removing only the key half makes git fail).
 */
const NOT_CREDENTIALS = /^(?:SSH_AUTH_SOCK|GIT_CONFIG_KEY_\d+)$/;

/** `scheme://user:password@host`: proxies, database URLs and package indexes carry logins this way. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i;

/** Upper-case words of a variable name: `npm_config__authToken` → NPM, CONFIG, AUTH, TOKEN. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((word) => word !== "");
}

/**
 * Verdicts remembered: the same environment is judged again for every command a session runs,
 * and the word splitting and format scans would otherwise cost ~0.5 ms per hundred variables
 * each time. Bounded, in case something builds environments without end.
 */
const nameVerdicts = new Map<string, boolean>();
const valueVerdicts = new Map<string, boolean>();
const MAX_REMEMBERED = 4_096;

function remembered(verdicts: Map<string, boolean>, key: string, judge: (key: string) => boolean): boolean {
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    verdict = judge(key);
    if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
    verdicts.set(key, verdict);
  }
  return verdict;
}

/**
 * Whether a variable's name says it holds a credential. Pure (answers are remembered). Used for
 * the environment of children and wherever a configuration file could ask for a variable's
 * value (`${NAME}`).
 */
export function isCredentialName(name: string): boolean {
  return remembered(nameVerdicts, name, judgeName);
}

function judgeName(name: string): boolean {
  if (NOT_CREDENTIALS.test(name)) return false;
  const upper = name.toUpperCase();
  if (CREDENTIAL_NAMES.test(upper)) return true;
  const words = nameWords(name);
  // `PWD` alone is the shell's working directory; as part of a name (`MYSQL_PWD`) it is a password.
  if (words.length > 1 && words.includes("PWD")) return true;
  return words.some((word) => CREDENTIAL_WORDS.has(word) || CREDENTIAL_WORD_PARTS.test(word));
}

/** Whether a value holds a credential whatever its variable is called. Pure (answers are remembered). */
export function isCredentialValue(value: string): boolean {
  return remembered(valueVerdicts, value, judgeValue);
}

function judgeValue(value: string): boolean {
  return (value.includes("://") && URL_WITH_PASSWORD.test(value)) || containsKnownSecret(value);
}

interface ChildEnvironment {
  /** What the child gets. */
  env: Record<string, string>;
  /** The names left out, for diagnostics (never their values). */
  removed: string[];
}

/**
 * `env` without its credentials, except the names in `pass`, which the user handed to children
 * on purpose. Pure; a new object each call (a caller may add to it).
 */
export function filterChildEnvironment(env: Readonly<Record<string, string | undefined>>, pass: readonly string[] = []): ChildEnvironment {
  const passed = new Set(pass);
  const kept: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!passed.has(name) && (isCredentialName(name) || isCredentialValue(value))) removed.push(name);
    else kept[name] = value;
  }
  return { env: kept, removed };
}

/** The environment a child process gets: `filterChildEnvironment(env, pass).env`. */
export function childEnvironment(env: Readonly<Record<string, string | undefined>>, pass: readonly string[] = []): Record<string, string> {
  return filterChildEnvironment(env, pass).env;
}
