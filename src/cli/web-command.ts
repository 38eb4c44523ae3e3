import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { Options } from "yargs";
import { PERMISSION_MODES } from "../../protocol/permission-mode.js";
import { startWebServer, type ListedModel } from "../web/server.js";
import { isLoopbackHost } from "../web/access.js";
import { describeFlagError, parseFlags } from "./flag-parser.js";
import { childEnvironment } from "../process/child-environment.js";
import { chooseModel } from "../providers/model-choice.js";
import { AGENTWIRE_VERSION } from "../version.js";
import { noticeLine } from "./log-records.js";

const USAGE = `agentwire web [--port N] [--host H] [--open] [--cwd DIR] [--add-dir DIR…] [--provider P] [--model M] [--permission-mode MODE]

A browser UI over the same sessions: one local HTTP server runs them through the library API and
streams their events to the page. It prints its URL, with a one-time access token, on stderr;
every request needs that token (the page keeps it in its tab's storage, never in a cookie).
Sessions may work in --cwd and
the --add-dir folders; they are the same stored sessions as the CLI's (agentwire --resume ID).

  --port N            port to listen on (default: a free one)
  --host H            address to listen on (default 127.0.0.1; another one exposes the server to
                      the network: anyone with the URL and token can run commands as you)
  --open              open the page in the default browser
  --cwd DIR           default working directory of new sessions (default: the current one)
  --add-dir DIR       another folder sessions may work in (repeatable)
  --provider, --model, --permission-mode   defaults for new sessions (as for agentwire -p)`;

export const WEB_OPTIONS = {
  port: { type: "number", default: 0 },
  host: { type: "string", default: "127.0.0.1" },
  open: { type: "boolean", default: false },
  cwd: { type: "string" },
  "add-dir": { type: "string", array: true },
  provider: { type: "string" },
  model: { type: "string" },
  "permission-mode": { type: "string", choices: PERMISSION_MODES, default: "default" },
  help: { alias: "h", type: "boolean", default: false },
} as const satisfies Record<string, Options>;

/** Long enough for a cloud API's model list, short enough not to hold the page up. */
const MODEL_LOOKUP_TIMEOUT_MS = 3_000;

/**
 * The provider and model a new session gets: what `agentwire -p` would use with the same flags
 * and keys, so the page's picker starts where the command line does. A choice that needs more
 * (a local server without --model) stays open; the page's first listed model is used then.
 */
function sessionDefaults(
  provider: string | undefined,
  model: string | undefined,
  env: NodeJS.ProcessEnv,
): { provider?: string | undefined; model?: string | undefined } {
  const choice = chooseModel({ provider, model, env });
  return "error" in choice ? { provider, model } : choice;
}

/** `agentwire web …`: serves until SIGINT or SIGTERM; returns the exit code. */
export async function runWebCommand(argv: string[], processCwd: string, env: NodeJS.ProcessEnv, packageRoot: string): Promise<number> {
  let values: Record<string, unknown>;
  try {
    values = parseFlags(argv, WEB_OPTIONS).values;
  } catch (error) {
    process.stderr.write(`Error: ${describeFlagError(error, Object.keys(WEB_OPTIONS), "agentwire web")}\n\n${USAGE}\n`);
    return 1;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = values.port as number;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write("Error: --port must be a port number (0 for a free one).\n");
    return 1;
  }
  const host = values.host as string;
  const cwd = resolve(processCwd, (values.cwd as string | undefined) ?? ".");
  const roots = [cwd, ...((values["add-dir"] as string[] | undefined) ?? []).map((directory) => resolve(processCwd, directory))];
  let models: Promise<ListedModel[]> | undefined;
  let server;
  try {
    server = await startWebServer({
      host,
      port,
      token: randomBytes(24).toString("base64url"),
      cwd,
      roots,
      defaults: {
        ...sessionDefaults(values.provider as string | undefined, values.model as string | undefined, env),
        permissionMode: values["permission-mode"] as never,
      },
      env,
      pageRoot: resolve(packageRoot, "web"),
      version: AGENTWIRE_VERSION,
      // Looked up once, when the page first asks: live lists where keys allow, else the known models.
      listModels: () => (models ??= listModels(env)),
    });
  } catch (error) {
    process.stderr.write(`Error: agentwire web could not start: ${(error as Error).message}\n`);
    return 1;
  }
  process.stderr.write(`agentwire web: ${server.url}\n`);
  if (!isLoopbackHost(host))
    process.stderr.write(
      noticeLine(
        "warn",
        `listening on ${host}, reachable from the network: every request needs the token, and anyone who has the URL can run commands as you.`,
        "agentwire web",
      ),
    );
  if (values.open) openInBrowser(server.url);
  const signal = await new Promise<NodeJS.Signals>((done) => {
    process.once("SIGINT", () => done("SIGINT"));
    process.once("SIGTERM", () => done("SIGTERM"));
  });
  await server.close();
  return signal === "SIGINT" ? 130 : 143;
}

async function listModels(env: NodeJS.ProcessEnv): Promise<ListedModel[]> {
  const { collectModelListings } = await import("./list-models.js");
  const listings = await collectModelListings({ env, timeoutMs: MODEL_LOOKUP_TIMEOUT_MS });
  return listings.flatMap((listing) =>
    listing.models.map((model) => ({
      provider: listing.provider,
      id: model.id,
      displayName: model.aliases[0] ? `${model.id} (${model.aliases[0]})` : model.id,
    })),
  );
}

function openInBrowser(url: string): void {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(command, [url], { detached: true, stdio: "ignore", env: childEnvironment(process.env) });
  child.on("error", () =>
    process.stderr.write(noticeLine("warn", `could not open a browser (${command}); open the URL above.`, "agentwire web")),
  );
  child.unref();
}
