import { randomUUID } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type * as z from "zod";
import type { PermissionModeName } from "../../protocol/permission-mode.js";
import { deleteSession, findSession, listSessions, sessionHistory } from "../api/sessions.js";
import { isSameOrInside } from "../paths/real-path.js";
import { checkAccess, isWildcardHost, type AccessPolicy } from "./access.js";
import { LiveSession } from "./live-session.js";
import { CreateSessionSchema, MessageSchema, PermissionAnswerSchema, SessionIdSchema } from "./request-schemas.js";
import { streamEvents } from "./event-stream.js";
import { StaticFiles } from "./static-files.js";

export interface ListedModel {
  provider: string;
  id: string;
  displayName: string;
}

export interface WebServerOptions {
  host: string;
  /** 0: a free port. */
  port: number;
  token: string;
  /** The default working directory of new sessions; with `roots`, where sessions may work. */
  cwd: string;
  roots: string[];
  defaults: { provider?: string | undefined; model?: string | undefined; permissionMode: PermissionModeName };
  env: Readonly<Record<string, string | undefined>>;
  /** The package's `web/` folder: the page. */
  pageRoot: string;
  listModels: () => Promise<ListedModel[]>;
  version: string;
}

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 2 * 1024 * 1024;
const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `agentwire web`: one HTTP server that runs sessions through the library API, streams their
 * events to the page over Server-Sent Events, and takes the page's messages, interrupts and
 * permission answers. Several sessions run at once, each its own `query()` with its own cwd.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const live = new Map<string, LiveSession>();
  const page = new StaticFiles(options.pageRoot);
  const roots = options.roots.map((root) => realpathSync(root));
  let policy: AccessPolicy | undefined;

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    void handle(request, response).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (!response.headersSent) sendJson(response, status, { error: status === 500 ? `Internal error: ${(error as Error).message}` : (error as Error).message });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://agentwire.invalid");
    const parts = url.pathname.split("/").filter(Boolean);
    const pageFile = url.pathname === "/" || url.pathname === "/index.html" || parts[0] === "assets";
    const access = checkAccess(request, url, policy!, pageFile);
    if (!access.allowed) return sendJson(response, access.status, { error: access.error });
    const method = request.method ?? "GET";

    if (method === "GET" && (url.pathname === "/" || url.pathname === "/index.html")) return sendFile(response, "index.html");
    if (method === "GET" && parts[0] === "assets" && parts.length >= 2) return sendFile(response, parts.slice(1).join("/"));
    if (parts[0] !== "api") throw new HttpError(404, `No such page: ${url.pathname}`);

    if (method === "GET" && url.pathname === "/api/info") {
      return sendJson(response, 200, { cwd: realpathSync(options.cwd), roots, defaults: options.defaults, models: await options.listModels(), version: options.version });
    }
    if (url.pathname === "/api/sessions") {
      if (method === "GET") return sendJson(response, 200, sessionList(url.searchParams.get("q") ?? ""));
      if (method === "POST") return createSession(await readBody(request, CreateSessionSchema), response);
    }
    if (parts[1] !== "sessions" || parts.length < 3) throw new HttpError(404, `No such API: ${method} ${url.pathname}`);
    const id = SessionIdSchema.safeParse(parts[2]);
    if (!id.success) throw new HttpError(404, `No session ${parts[2]}.`);
    const sessionId = id.data;
    const action = parts.slice(3).join("/");

    if (method === "DELETE" && action === "") return removeSession(sessionId, response);
    if (method === "GET" && action === "history") {
      const history = historyOf(sessionId);
      if (!history) throw new HttpError(404, `No session ${sessionId}.`);
      return sendJson(response, 200, history);
    }
    const session = live.get(sessionId);
    if (!session) throw new HttpError(404, `Session ${sessionId} is not running here; POST /api/sessions with {"resume": "${sessionId}"} continues it.`);
    if (method === "GET" && action === "events") return streamEvents(request, response, session.log);
    if (method === "POST" && action === "messages") {
      const { text } = await readBody(request, MessageSchema);
      if (session.ended) throw new HttpError(409, `Session ${sessionId} has ended; resume it to go on.`);
      session.send(text);
      return sendJson(response, 202, {});
    }
    if (method === "POST" && action === "interrupt") {
      await session.interrupt();
      return sendJson(response, 202, {});
    }
    if (method === "POST" && parts[3] === "permissions" && parts.length === 5) {
      const answer = await readBody(request, PermissionAnswerSchema);
      if (!session.answer(parts[4]!, answer)) throw new HttpError(404, `No open permission question ${parts[4]} in session ${sessionId}.`);
      return sendJson(response, 200, {});
    }
    throw new HttpError(404, `No such API: ${method} ${url.pathname}`);
  }

  /** Earlier turns: for a live session, what was stored before it went live (the log has the rest). */
  const historyAtStart = new Map<string, Array<Record<string, unknown>>>();
  function historyOf(sessionId: string): Array<Record<string, unknown>> | undefined {
    return historyAtStart.get(sessionId) ?? (storedSessionFolder(sessionId) ? sessionHistory(sessionId, { env: options.env, all: true }) : undefined);
  }

  /** The folder of a stored session this server may show, resume or delete: one inside the roots. */
  function storedSessionFolder(sessionId: string): string | undefined {
    const stored = findSession(sessionId, { env: options.env });
    return stored !== undefined && roots.some((root) => isSameOrInside(stored.cwd, root)) ? stored.cwd : undefined;
  }

  function createSession(body: z.infer<typeof CreateSessionSchema>, response: ServerResponse): void {
    if (body.resume && live.has(body.resume)) return sendJson(response, 200, { id: body.resume });
    // A resumed session goes on in its own folder.
    const storedFolder = body.resume ? storedSessionFolder(body.resume) : undefined;
    const stored = storedFolder ? sessionHistory(body.resume!, { env: options.env, all: true }) : undefined;
    if (body.resume && !stored) throw new HttpError(404, `No stored session ${body.resume} in the folders this server may use.`);
    const history = stored ?? [];
    const cwd = allowedDirectory(body.cwd ?? storedFolder ?? options.cwd);
    const id = body.resume ?? randomUUID();
    const provider = body.provider ?? options.defaults.provider;
    const model = body.model ?? options.defaults.model;
    const session = new LiveSession(id, cwd, {
      env: options.env,
      permissionMode: body.permissionMode ?? options.defaults.permissionMode,
      additionalDirectories: roots.filter((root) => root !== cwd),
      ...(provider ? { provider: provider as never } : {}),
      ...(model ? { model } : {}),
      ...(body.resume ? { resume: body.resume } : { sessionId: id }),
    });
    live.set(id, session);
    historyAtStart.set(id, history);
    sendJson(response, 201, { id });
  }

  async function removeSession(sessionId: string, response: ServerResponse): Promise<void> {
    const session = live.get(sessionId);
    if (!session && !storedSessionFolder(sessionId)) throw new HttpError(404, `No session ${sessionId}.`);
    if (session) {
      live.delete(sessionId);
      historyAtStart.delete(sessionId);
      await session.close();
    }
    const outcome = deleteSession(sessionId, { env: options.env, all: true });
    // A live session that never wrote a file has nothing to delete.
    if (outcome === "not_found" && !session) throw new HttpError(404, `No session ${sessionId}.`);
    if (typeof outcome === "object") throw new HttpError(409, `Session ${sessionId} is in use by process ${outcome.inUseBy}; it was not deleted.`);
    response.writeHead(204).end();
  }

  function sessionList(search: string) {
    const stored = listSessions({ env: options.env, all: true }).filter((summary) => roots.some((root) => isSameOrInside(summary.cwd, root)));
    const rows = new Map(
      stored.map((summary) => [
        summary.sessionId,
        { id: summary.sessionId, cwd: summary.cwd, updated: summary.updatedAt, firstPrompt: summary.title, turns: summary.turns, costUsd: summary.totalCostUsd, running: live.has(summary.sessionId) },
      ]),
    );
    for (const session of live.values()) {
      if (!rows.has(session.id)) rows.set(session.id, { id: session.id, cwd: session.cwd, updated: new Date().toISOString(), firstPrompt: "", turns: 0, costUsd: 0, running: true });
    }
    const needle = search.trim().toLowerCase();
    return [...rows.values()]
      .filter((row) => needle === "" || `${row.firstPrompt} ${row.id} ${row.cwd}`.toLowerCase().includes(needle))
      .sort((a, b) => (a.updated < b.updated ? 1 : -1));
  }

  /** A working directory for a new session: an existing folder inside the allowed roots. */
  function allowedDirectory(requested: string): string {
    let real: string;
    try {
      real = realpathSync(path.resolve(options.cwd, requested));
      if (!statSync(real).isDirectory()) throw new Error("not a directory");
    } catch {
      throw new HttpError(400, `cwd ${requested} is not an existing directory.`);
    }
    if (!roots.some((root) => isSameOrInside(real, root))) throw new HttpError(400, `cwd ${requested} is outside the folders this server may use (${roots.join(", ")}).`);
    return real;
  }

  async function sendFile(response: ServerResponse, name: string): Promise<void> {
    const file = await page.get(name);
    if (!file) throw new HttpError(404, `No such file: ${name}`);
    response.writeHead(200, { "Content-Type": file.type, "Content-Length": file.body.length }).end(file.body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  policy = { token: options.token, boundHost: options.host, port };
  const shownHost = isWildcardHost(options.host) ? "127.0.0.1" : options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    port,
    close: async () => {
      const closing = [...live.values()].map((session) => session.close());
      server.closeAllConnections();
      await Promise.all(closing);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) }).end(text);
}

async function readBody<Schema extends z.ZodType>(request: IncomingMessage, schema: Schema): Promise<z.infer<Schema>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    throw new HttpError(400, `The request body is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, `Invalid request: ${issue?.path.join(".") || "(body)"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
