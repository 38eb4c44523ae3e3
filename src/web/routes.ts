import type { IncomingMessage, ServerResponse } from "node:http";
import type * as z from "zod";
import { streamEvents } from "./event-stream.js";
import { HttpError, readBody, sendJson } from "./http.js";
import type { LiveSession } from "./live-session.js";
import { CreateSessionSchema, MessageSchema, PermissionAnswerSchema, SessionIdSchema } from "./request-schemas.js";
import type { StaticFiles } from "./static-files.js";
import type { WebSessions } from "./web-sessions.js";

/** What the handlers share: the sessions, the page's files, and what `/api/info` reports. */
export interface WebServerState {
  sessions: WebSessions;
  page: StaticFiles;
  info(): Promise<unknown>;
}

interface RouteInput<Body> {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  /** `:session`, already a valid session id, and the other named segments. */
  params: Record<string, string>;
  /** The segments a final `*` matched. */
  rest: string[];
  /** The session running here, for a route marked `live`. */
  session: LiveSession;
  body: Body;
}

interface Route<Body> {
  method: "GET" | "POST" | "DELETE";
  /**
   * Segments: literals, `:name` for one segment, a final `*` for one or more. A path of literals
   * only must equal the request's path; a patterned one is compared segment by segment.
   */
  path: string;
  /** The session named by `:session` must be running here (checked before the body is read). */
  live?: true;
  body?: z.ZodType<Body>;
  handle(input: RouteInput<Body>, state: WebServerState): Promise<void> | void;
}

/** Keeps each route's body type while the table holds them side by side. */
const route = <Body = undefined>(definition: Route<Body>): Route<unknown> => definition as Route<unknown>;

/** Every request the server answers, in the order they are tried. */
const ROUTES: ReadonlyArray<Route<unknown>> = [
  route({ method: "GET", path: "/", handle: ({ response }, state) => sendFile(state, response, "index.html") }),
  route({ method: "GET", path: "/index.html", handle: ({ response }, state) => sendFile(state, response, "index.html") }),
  route({ method: "GET", path: "/assets/*", handle: ({ response, rest }, state) => sendFile(state, response, rest.join("/")) }),
  route({ method: "GET", path: "/api/info", handle: async ({ response }, state) => sendJson(response, 200, await state.info()) }),
  route({
    method: "GET",
    path: "/api/sessions",
    handle: ({ response, url }, { sessions }) => sendJson(response, 200, sessions.list(url.searchParams.get("q") ?? "")),
  }),
  route({
    method: "POST",
    path: "/api/sessions",
    body: CreateSessionSchema,
    handle: ({ response, body }, { sessions }) => {
      const { status, id } = sessions.create(body);
      sendJson(response, status, { id });
    },
  }),
  route({
    method: "DELETE",
    path: "/api/sessions/:session",
    handle: async ({ response, params }, { sessions }) => {
      await sessions.remove(params.session!);
      response.writeHead(204).end();
    },
  }),
  route({
    method: "GET",
    path: "/api/sessions/:session/history",
    handle: ({ response, params }, { sessions }) => sendJson(response, 200, sessions.history(params.session!)),
  }),
  route({
    method: "GET",
    path: "/api/sessions/:session/events",
    live: true,
    handle: ({ request, response, session }) => streamEvents(request, response, session.log),
  }),
  route({
    method: "POST",
    path: "/api/sessions/:session/messages",
    live: true,
    body: MessageSchema,
    handle: ({ response, session, body }) => {
      if (session.ended) throw new HttpError(409, `Session ${session.id} has ended; resume it to go on.`);
      session.send(body.text);
      sendJson(response, 202, {});
    },
  }),
  route({
    method: "POST",
    path: "/api/sessions/:session/interrupt",
    live: true,
    handle: async ({ response, session }) => {
      await session.interrupt();
      sendJson(response, 202, {});
    },
  }),
  route({
    method: "POST",
    path: "/api/sessions/:session/permissions/:question",
    live: true,
    body: PermissionAnswerSchema,
    handle: ({ response, session, params, body }) => {
      if (!session.answer(params.question!, body))
        throw new HttpError(404, `No open permission question ${params.question} in session ${session.id}.`);
      sendJson(response, 200, {});
    },
  }),
];

/** Answers one request from the table, or with the 404 that says what was missing. Throws HttpError. */
export async function dispatch(request: IncomingMessage, response: ServerResponse, url: URL, state: WebServerState): Promise<void> {
  const method = request.method ?? "GET";
  const segments = url.pathname.split("/").filter(Boolean);
  for (const candidate of ROUTES) {
    if (candidate.method !== method) continue;
    const match = matchPath(candidate.path, url.pathname, segments);
    if (!match) continue;
    if (match.params.session !== undefined) match.params.session = validSessionId(match.params.session);
    const session = candidate.live ? state.sessions.running(match.params.session!) : (undefined as unknown as LiveSession);
    const body = candidate.body ? await readBody(request, candidate.body) : undefined;
    return candidate.handle({ request, response, url, ...match, session, body }, state);
  }
  throw notFound(method, url.pathname, segments, state);
}

/** Why nothing answered: no such page, no such session (or not running here), or no such API. */
function notFound(method: string, pathname: string, segments: string[], state: WebServerState): HttpError {
  if (segments[0] !== "api") return new HttpError(404, `No such page: ${pathname}`);
  if (segments[1] === "sessions" && segments.length >= 3) state.sessions.running(validSessionId(segments[2]!));
  return new HttpError(404, `No such API: ${method} ${pathname}`);
}

function validSessionId(segment: string): string {
  const id = SessionIdSchema.safeParse(segment);
  if (!id.success) throw new HttpError(404, `No session ${segment}.`);
  return id.data;
}

/** The named segments and the wildcard's part when `pattern` matches the request's path. Pure. */
export function matchPath(
  pattern: string,
  pathname: string,
  segments: readonly string[],
): { params: Record<string, string>; rest: string[] } | undefined {
  const parts = pattern.split("/").filter(Boolean);
  if (!parts.some((part) => part.startsWith(":") || part === "*")) return pattern === pathname ? { params: {}, rest: [] } : undefined;
  const wildcard = parts.at(-1) === "*";
  const fixed = wildcard ? parts.slice(0, -1) : parts;
  if (wildcard ? segments.length <= fixed.length : segments.length !== fixed.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of fixed.entries()) {
    const segment = segments[index]!;
    if (part.startsWith(":")) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return { params, rest: wildcard ? segments.slice(fixed.length) : [] };
}

async function sendFile(state: WebServerState, response: ServerResponse, name: string): Promise<void> {
  const file = await state.page.get(name);
  if (!file) throw new HttpError(404, `No such file: ${name}`);
  response.writeHead(200, { "Content-Type": file.type, "Content-Length": file.body.length }).end(file.body);
}
