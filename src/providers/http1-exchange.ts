import { connect, type Socket } from "node:net";
import { type ExchangeResponse, INVALID_VALUE_CHARACTER, ResponseReader, TOKEN } from "./http1-response.js";

export type { ExchangeResponse };

/**
 * One HTTP/1.1 request and its response over plain TCP, on a connection kept for the next
 * request to the same origin: the model request of a local server (Ollama, llama.cpp, vLLM, LM
 * Studio, the replay server of the tests) without `node:http`. Node's client builds a request, an
 * outgoing message, an agent's bookkeeping and an incoming message around every exchange, and
 * agentwire runs each request path only a few times per process, mostly in the interpreter: ten
 * tool turns took 8 ms less CPU this way (125.5 -> 117.2 ms, medians of 21), and a single answer
 * 3 ms less, as node:http is not loaded at all.
 *
 * The response is read by http1-response.ts, strictly, as from a hostile server. Request header
 * names and values are checked as Node checks them, so no value can smuggle a header or a request
 * of its own.
 */

export interface ExchangeRequest {
  url: URL;
  method: string;
  /** Name and value pairs; `host`, `content-length`, `connection` and `transfer-encoding` are set here. */
  headers: Iterable<readonly [string, string]>;
  body: Buffer | null;
  /** Silence on the connection, once the request is sent, before it is given up. */
  idleTimeoutMs: number;
}

/** Idle connections kept per origin; more come from concurrent requests (subagents) and are closed. */
const MAX_IDLE_PER_ORIGIN = 8;
/** Request headers the connection's framing owns (fetch forbids setting them too). */
const FRAMING_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "te"]);

const idle = new Map<string, Socket[]>();
/** How to take a kept connection's idle watch off again. */
const idleWatches = new WeakMap<Socket, () => void>();

/** Sends `request` and resolves with the response head once it has come; rejects with the reason the exchange failed. */
export function exchange(request: ExchangeRequest, signal: AbortSignal | undefined): Promise<ExchangeResponse> {
  const head = requestHead(request);
  const origin = request.url.origin;
  const socket = idleConnection(origin) ?? newConnection(request.url);
  return new Promise((resolve, reject) => {
    const release = (reusable: boolean, idleMs: number): void => (reusable ? keep(socket, origin, idleMs) : void socket.destroy());
    const reader = new ResponseReader(request.method === "HEAD", socket, release, resolve, reject);
    const silence = (): void => {
      const error = new Error(`no answer from ${origin} in ${request.idleTimeoutMs / 1000} s: timed out`);
      reader.fail(Object.assign(error, { code: "ETIMEDOUT" }));
    };
    // Silence ends the exchange; so does a head that takes as long in all (a server trickling it).
    reader.timedOut = silence;
    socket.setTimeout(request.idleTimeoutMs);
    const headDeadline = setTimeout(silence, request.idleTimeoutMs);
    const onAbort = (): void => reader.fail(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    reader.onHead = () => clearTimeout(headDeadline);
    reader.onSettled = () => {
      clearTimeout(headDeadline);
      signal?.removeEventListener("abort", onAbort);
    };
    // Corked: the head and the body leave in one write, without copying the body.
    socket.cork();
    socket.write(head);
    socket.write(request.body ?? Buffer.alloc(0), () => reader.sent());
    socket.uncork();
  });
}

function requestHead(request: ExchangeRequest): Buffer {
  const { url, method, body } = request;
  if (!TOKEN.test(method)) throw new TypeError(`invalid method ${JSON.stringify(method)}`);
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of request.headers) {
    if (!TOKEN.test(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
    if (INVALID_VALUE_CHARACTER.test(value)) throw new TypeError(`invalid value for header ${name}`);
    if (!FRAMING_HEADERS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  }
  if (body !== null || (method !== "GET" && method !== "HEAD")) head += `content-length: ${body?.byteLength ?? 0}\r\n`;
  return Buffer.from(`${head}\r\n`, "latin1");
}

function newConnection(url: URL): Socket {
  // URL keeps an IPv6 host in brackets; the socket wants the bare address.
  const socket = connect({ host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port: Number(url.port || 80) });
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 1_000);
  return socket;
}

/** A kept connection to `origin`, taken out of the pool, or undefined. */
function idleConnection(origin: string): Socket | undefined {
  const pool = idle.get(origin);
  const socket = pool?.pop();
  if (socket === undefined) return undefined;
  idleWatches.get(socket)?.();
  socket.ref();
  return socket;
}

/**
 * Keeps `socket` for the next request to `origin`, for `idleMs` at most; one the server closes or
 * talks on meanwhile is dropped.
 */
function keep(socket: Socket, origin: string, idleMs: number): void {
  const pool = idle.get(origin) ?? [];
  if (pool.length >= MAX_IDLE_PER_ORIGIN || socket.destroyed || idleMs <= 0) {
    socket.destroy();
    return;
  }
  socket.setTimeout(idleMs);
  const drop = (): void => {
    socket.destroy();
    const index = pool.indexOf(socket);
    if (index >= 0) pool.splice(index, 1);
  };
  // A server speaks on an idle connection only to close it (or to break the protocol).
  const events = ["data", "end", "close", "error", "timeout"] as const;
  for (const event of events) socket.on(event, drop);
  idleWatches.set(socket, () => {
    for (const event of events) socket.removeListener(event, drop);
  });
  // Flowing, so that a close is seen; and an idle connection does not keep agentwire running.
  socket.resume();
  socket.unref();
  pool.push(socket);
  idle.set(origin, pool);
}
