import type { ClientRequest, RequestOptions } from "node:http";
import type { Readable } from "node:stream";
import { FetchHeaders, type HeadersSource } from "./fetch-headers.js";
import { exchange } from "./http1-exchange.js";

/**
 * The `fetch` agentwire hands to the provider SDKs. An http: request (a local model server) goes
 * over agentwire's own HTTP/1.1 exchange on a kept connection (http1-exchange.ts), an https: one
 * over `node:https`, loaded only then. Node's own fetch is undici: its first call compiles undici
 * and the modules it needs (http2, tls, zlib, worker_threads, perf_hooks, web streams) and a
 * WebAssembly HTTP parser, ~70 ms of CPU before the first byte goes out; a single answer spent
 * more time there than in agentwire itself.
 *
 * What the SDKs use of fetch is kept: streamed bodies (SSE), abort through the signal (the
 * reason is what the promise or the body read rejects with), redirects, gzip/deflate/br bodies,
 * and undici's failure shapes — TypeError "fetch failed" with the system error as its cause
 * before a response, TypeError "terminated" when the connection drops mid-body — which
 * http-errors.ts reads. A request this adapter does not carry (a streamed or form body, a
 * Request object, another protocol) goes to Node's fetch unchanged.
 */
export const nodeHttpFetch = fetchOverNodeHttp as unknown as typeof fetch;

interface FetchInit {
  method?: string;
  headers?: HeadersSource;
  body?: unknown;
  signal?: AbortSignal | null;
  redirect?: "follow" | "manual" | "error";
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** Statuses whose responses have no body, per the fetch standard. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Silence on an open connection before it is given up, as undici's headers and body timeouts. */
const IDLE_TIMEOUT_MS = 300_000;
/**
 * A body read whole (`text()`, `json()`, `arrayBuffer()`) is refused past this, counted after
 * decompression: a model API's answer is far smaller, and a small gzip body can expand to gigabytes.
 */
export const MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

async function fetchOverNodeHttp(input: string | URL | { url: string }, init: FetchInit = {}): Promise<NodeHttpResponse> {
  const body = requestBody(init.body);
  const isRequestObject = typeof input === "object" && !(input instanceof URL);
  const url = new URL(typeof input === "string" ? input : isRequestObject ? input.url : input.href);
  if (body === undefined || isRequestObject || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return (await fetch(input as string, init as RequestInit)) as unknown as NodeHttpResponse;
  }
  const headers = new FetchHeaders(init.headers);
  if (!headers.has("accept")) headers.set("accept", "*/*");
  if (typeof init.body === "string" && !headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
  let request: OutgoingRequest = { url, method: (init.method ?? "GET").toUpperCase(), headers, body: body.bytes };
  for (let redirects = 0; ; redirects++) {
    const response = await send(request, init.signal ?? undefined);
    const location = headerValue(response.rawHeaders, "location");
    if (!REDIRECTS.has(response.status) || location === undefined || init.redirect === "manual") {
      return new NodeHttpResponse(response, request.url, redirects > 0, init.signal ?? undefined);
    }
    response.body.destroy();
    if (init.redirect === "error" || redirects === MAX_REDIRECTS) {
      const reason = init.redirect === "error" ? "unexpected redirect" : "redirect count exceeded";
      throw new TypeError("fetch failed", { cause: new Error(reason) });
    }
    const next = new URL(location, request.url);
    const refusal = redirectRefusal(request.url, next);
    if (refusal) throw new TypeError("fetch failed", { cause: new Error(refusal) });
    request = redirected(request, response.status, next);
  }
}

/** A response's head and its body stream (without transfer framing), from either transport. */
interface ResponseHead {
  status: number;
  statusText: string;
  /** Name, value, name, value…, as received. */
  rawHeaders: string[];
  body: Readable;
}

/** The first value of header `name` (lower case) in `rawHeaders`. */
function headerValue(rawHeaders: readonly string[], name: string): string | undefined {
  for (let index = 0; index < rawHeaders.length; index += 2) if (rawHeaders[index]!.toLowerCase() === name) return rawHeaders[index + 1];
  return undefined;
}

interface OutgoingRequest {
  url: URL;
  method: string;
  headers: FetchHeaders;
  body: Buffer | null;
}

/** The bytes of a body this adapter sends itself; undefined for a body it leaves to Node's fetch. */
function requestBody(body: unknown): { bytes: Buffer | null } | undefined {
  if (body === undefined || body === null) return { bytes: null };
  if (typeof body === "string") return { bytes: Buffer.from(body) };
  if (body instanceof Uint8Array) return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  if (body instanceof ArrayBuffer) return { bytes: Buffer.from(body) };
  return undefined;
}

/**
 * Why a model request does not follow a redirect: it carries the API key and the whole
 * conversation, so it goes only to the origin it was configured with (a server moving a path
 * answers within its origin), never over another scheme and never from https down to http.
 */
export function redirectRefusal(from: URL, to: URL): string | undefined {
  if (to.protocol !== "http:" && to.protocol !== "https:") return `redirect to a ${to.protocol} URL`;
  if (from.protocol === "https:" && to.protocol === "http:") return `redirect from https down to http (${to.origin})`;
  if (to.origin !== from.origin) return `redirect to another origin (${to.origin}): a model request goes only where it was configured to`;
  return undefined;
}

/** The next request of a redirect chain, as fetch builds it (always within one origin). */
function redirected(previous: OutgoingRequest, status: number, url: URL): OutgoingRequest {
  const headers = new FetchHeaders(previous.headers);
  // 303, and 301/302 after a POST, turn the request into a GET without a body.
  if (status === 303 || ((status === 301 || status === 302) && previous.method === "POST")) {
    for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) headers.delete(name);
    return { url, method: previous.method === "HEAD" ? "HEAD" : "GET", headers, body: null };
  }
  return { url, method: previous.method, headers, body: previous.body };
}

/** One HTTP exchange, up to the response head. */
async function send(outgoing: OutgoingRequest, signal: AbortSignal | undefined): Promise<ResponseHead> {
  if (signal?.aborted) throw signal.reason;
  const { url } = outgoing;
  const headers: Array<[string, string]> = [...outgoing.headers];
  // Credentials in the URL sign the request only where the caller set no Authorization of its own.
  if (url.username && !outgoing.headers.has("authorization")) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.push(["authorization", `Basic ${Buffer.from(credentials).toString("base64")}`]);
  }
  if (url.protocol === "https:") return sendOverHttps(outgoing, headers, signal);
  try {
    return await exchange({ url, method: outgoing.method, headers, body: outgoing.body, idleTimeoutMs: IDLE_TIMEOUT_MS }, signal);
  } catch (error) {
    // An invalid header name or value is refused before anything is sent: fetch rejects those as a TypeError too.
    throw signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error });
  }
}

async function sendOverHttps(
  outgoing: OutgoingRequest,
  pairs: Array<[string, string]>,
  signal: AbortSignal | undefined,
): Promise<ResponseHead> {
  const { url } = outgoing;
  const { request: httpsRequest } = await import("node:https");
  const headers: Record<string, string> = {};
  for (const [name, value] of pairs) headers[name] = value;
  if (outgoing.body) headers["content-length"] = String(outgoing.body.byteLength);
  const options: RequestOptions = {
    method: outgoing.method,
    // URL keeps an IPv6 host in brackets; the socket wants the bare address.
    hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port,
    path: `${url.pathname}${url.search}`,
    headers,
  };
  return new Promise((resolve, reject) => {
    let request: ClientRequest;
    const onAbort = (): void => {
      request.destroy();
      reject(signal!.reason);
    };
    try {
      request = httpsRequest(options);
    } catch (error) {
      // An invalid header name or value: fetch rejects those as a TypeError too.
      reject(new TypeError("fetch failed", { cause: error }));
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    request.setTimeout(IDLE_TIMEOUT_MS, () => {
      const silence = new Error(`no answer from ${url.origin} in ${IDLE_TIMEOUT_MS / 1000} s: timed out`);
      request.destroy(Object.assign(silence, { code: "ETIMEDOUT" }));
    });
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error }));
    });
    request.once("response", (message) => {
      signal?.removeEventListener("abort", onAbort);
      resolve({ status: message.statusCode ?? 0, statusText: message.statusMessage ?? "", rawHeaders: message.rawHeaders, body: message });
    });
    request.end(outgoing.body ?? undefined);
  });
}

/** The part of fetch's Response the SDKs read. */
class NodeHttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: FetchHeaders;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = "basic";
  readonly body: ResponseBody | null;

  constructor(head: ResponseHead, url: URL, redirected: boolean, signal: AbortSignal | undefined) {
    this.status = head.status;
    this.statusText = head.statusText;
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new FetchHeaders();
    const raw = head.rawHeaders;
    for (let index = 0; index < raw.length; index += 2) this.headers.append(raw[index]!, raw[index + 1]!);
    this.url = url.href;
    this.redirected = redirected;
    if (NULL_BODY.has(this.status)) {
      head.body.resume();
      this.body = null;
    } else {
      this.body = new ResponseBody(head.body, this.headers.get("content-encoding"), signal);
    }
  }

  get bodyUsed(): boolean {
    return this.body?.used ?? false;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return (await this.#bytes()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async #bytes(): Promise<Buffer> {
    if (!this.body) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.body) {
      size += chunk.byteLength;
      if (size > MAX_BUFFERED_BODY_BYTES) {
        await this.body.cancel();
        throw new TypeError("terminated", { cause: new Error(`response body over ${MAX_BUFFERED_BODY_BYTES} bytes`) });
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }
}

/**
 * A response body as the SDKs read it: an async iterable of byte chunks (their SSE decoders take
 * Uint8Array), cancelled by ending the iteration early.
 */
class ResponseBody {
  used = false;
  readonly #message: Readable;
  readonly #encoding: string | null;
  readonly #signal: AbortSignal | undefined;

  constructor(message: Readable, encoding: string | null, signal: AbortSignal | undefined) {
    this.#message = message;
    this.#encoding = encoding;
    this.#signal = signal;
    // Until the body is read, an abort still has to let go of the connection.
    const onAbort = (): void => void message.destroy(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    message.once("close", () => signal?.removeEventListener("abort", onAbort));
  }

  get locked(): boolean {
    return this.used;
  }

  async cancel(): Promise<void> {
    this.#message.destroy();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    if (this.used) throw new TypeError("Body is unusable: Body has already been read");
    this.used = true;
    const stream = await decoded(this.#message, this.#encoding);
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      throw this.#signal?.aborted ? this.#signal.reason : new TypeError("terminated", { cause: error });
    } finally {
      stream.destroy();
      this.#message.destroy();
    }
  }
}

/** The body bytes as sent before the server compressed them; zlib loads only for a compressed body. */
async function decoded(message: Readable, encoding: string | null): Promise<Readable> {
  const coding = encoding?.trim().toLowerCase();
  if (!coding || coding === "identity") return message;
  const zlib = await import("node:zlib");
  // Flushed as bytes arrive, so a compressed event stream is not held back.
  const zlibFlush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const brotliFlush = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };
  const decoder =
    coding === "gzip" || coding === "x-gzip"
      ? zlib.createGunzip(zlibFlush)
      : coding === "deflate"
        ? zlib.createInflate(zlibFlush)
        : coding === "br"
          ? zlib.createBrotliDecompress(brotliFlush)
          : undefined;
  if (!decoder) return message;
  const { pipeline } = await import("node:stream");
  return pipeline(message, decoder, () => {});
}
