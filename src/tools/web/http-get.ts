import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, STATUS_CODES, type IncomingMessage } from "node:http";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { AGENTWIRE_VERSION } from "../../version.js";

/** One HTTP response, its body read up to the cap (decompressed). Redirects are not followed here. */
export interface HttpResponse {
  status: number;
  statusText: string;
  /** The `Location` header of a redirect, as the server sent it. */
  location: string | undefined;
  contentType: string;
  body: Buffer;
  /** The body went past the cap; `body` is its beginning. */
  truncated: boolean;
}

export interface HttpGetOptions {
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  /** Why an address must not be reached, or undefined: asked of every address the host resolves to. */
  refuseAddress: (address: string) => string | undefined;
  /** Name resolution; the system resolver unless a test supplies its own. */
  resolve?: (host: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;
}

/** The address a URL's host resolves to may not be reached: the message says which and why. */
export class RefusedAddressError extends Error {}

/** A fetch that took longer than its time allowed. */
export class FetchTimeoutError extends Error {}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** How agentwire names itself to the sites it fetches: a person's agent, reading one page on request. */
const USER_AGENT = `agentwire/${AGENTWIRE_VERSION} (WebFetch: one page fetched for a user's coding agent)`;

/**
 * One GET over node:http or node:https. The host is resolved here, every address checked with
 * `refuseAddress`, and the connection made to the checked address (the request's own lookup),
 * so a name cannot resolve to a public address for the check and a private one for the connect.
 */
export async function httpGet(url: URL, options: HttpGetOptions): Promise<HttpResponse> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0) {
    const refusal = options.refuseAddress(host);
    if (refusal) throw new RefusedAddressError(refusal);
  }
  const resolve = options.resolve ?? ((name: string) => dnsLookup(name, { all: true, verbatim: true }));
  const lookup = checkedLookup(resolve, options.refuseAddress);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  // https is loaded only when a page needs it, like the model requests' client does.
  const send = url.protocol === "https:" ? (await import("node:https")).request : httpRequest;
  try {
    const message = await new Promise<IncomingMessage>((resolveMessage, reject) => {
      const request = send(url, {
        method: "GET",
        lookup,
        signal,
        headers: {
          "user-agent": USER_AGENT,
          accept: "text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5",
          "accept-encoding": "gzip, deflate, br",
        },
      });
      request.once("response", resolveMessage);
      request.once("error", reject);
      request.end();
    });
    const status = message.statusCode ?? 0;
    const base = {
      status,
      statusText: message.statusMessage || STATUS_CODES[status] || "",
      location: message.headers.location,
      contentType: message.headers["content-type"] ?? "",
    };
    if (REDIRECT_STATUSES.has(status) && base.location !== undefined) {
      message.destroy();
      return { ...base, body: Buffer.alloc(0), truncated: false };
    }
    const read = await readCapped(await decoded(message), options.maxBytes);
    // A capped read stops early: the connection behind a decompressor must be closed as well.
    message.destroy();
    return { ...base, ...read };
  } catch (error) {
    if (timeout.aborted && !options.signal.aborted) throw new FetchTimeoutError(`no complete answer within ${options.timeoutMs / 1000} s`);
    throw error;
  }
}

function checkedLookup(resolve: NonNullable<HttpGetOptions["resolve"]>, refuseAddress: HttpGetOptions["refuseAddress"]): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as (error: Error | null, address?: unknown, family?: number) => void;
    resolve(hostname).then(
      (addresses) => {
        // Every address is checked, not just the first: a connection may try any of them.
        const refusal = addresses.map((entry) => refuseAddress(entry.address)).find((reason) => reason !== undefined);
        if (refusal) return done(new RefusedAddressError(`${hostname} resolves to ${refusal}`));
        if (addresses.length === 0) return done(new Error(`${hostname} has no address`));
        if (options.all) return done(null, addresses);
        return done(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => done(error),
    );
  };
}

/** The body as the server meant it: gzip, deflate and brotli undone (zlib loads only then). */
async function decoded(message: IncomingMessage): Promise<Readable> {
  const encoding = String(message.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "" || encoding === "identity") return message;
  const zlib = await import("node:zlib");
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return message;
  message.once("error", (error) => decoder.destroy(error));
  return message.pipe(decoder);
}

/** Reads at most `maxBytes`, counted after decompression (a small gzip body can expand enormously). */
async function readCapped(stream: Readable, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length >= room) {
      chunks.push(chunk.subarray(0, room));
      stream.destroy();
      return { body: Buffer.concat(chunks), truncated: chunk.length > room || stream.readableLength > 0 };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}
