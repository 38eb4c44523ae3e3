import type { Socket } from "node:net";
import { Readable } from "node:stream";

/**
 * An HTTP/1.1 response read off a connection, for http1-exchange.ts. The server may be hostile
 * (law 8): the head is parsed strictly and within bounds (at most 64 KiB, sizes that fit a
 * number, no backtracking pattern), the body's framing follows RFC 9112 (no body for HEAD, 1xx,
 * 204 and 304; chunked wins over Content-Length; otherwise the length, or the connection's end),
 * and a connection is offered back for reuse only after a response that ended exactly where its
 * framing said, so bytes a server sends beyond it are never read as the next response.
 */

export interface ExchangeResponse {
  status: number;
  statusText: string;
  /** Name, value, name, value…, as received. */
  rawHeaders: string[];
  /** The body without its transfer framing; destroying it closes the connection. */
  body: Readable;
}

/** Longest response head (status line and headers), and longest trailer section, taken in. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Longest chunk-size line (the size and any extensions). */
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
/** Interim (1xx) answers passed over before the answer itself; a server sending more is stalling. */
const MAX_INTERIM_ANSWERS = 16;
/**
 * How long an idle connection is kept, at most (a server's `Keep-Alive: timeout=` hint shortens it
 * to a second under the hint): servers close idle connections after a few seconds (llama.cpp after
 * 5), and a request sent just as one does fails. Node's own agent keeps them 5 s.
 */
const MAX_IDLE_MS = 4_000;

/** A request header name or field name: an HTTP token. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may hold, as Node's http allows: tab, visible ASCII, space, and obs-text. */
export const INVALID_VALUE_CHARACTER = /[^\t\x20-\x7e\x80-\xff]/;
/** Each pattern is linear in its input: none has a quantifier that can backtrack over another. */
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-5]\d\d)(?: ([^\r\n]*))?$/;
const CHUNK_SIZE_LINE = /^0*([0-9a-fA-F]{1,13})(?:[ \t;][^\r\n]*)?$/;
const KEEP_ALIVE_TIMEOUT = /(?:^|[ ,;])timeout=(\d{1,6})/i;

type Framing = { kind: "none" } | { kind: "length"; remaining: number } | { kind: "chunked" } | { kind: "close" };

/** Reads one response from `socket`: the head (resolving the exchange), then the body into a stream. */
export class ResponseReader {
  /** Set by exchange(): called once the head is in, once the exchange is over, and on silence. */
  onHead: (() => void) | undefined;
  onSettled: (() => void) | undefined;
  timedOut: (() => void) | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private state: "head" | "body" | "chunk-size" | "chunk-data" | "chunk-end" | "trailers" | "done" = "head";
  private framing: Framing = { kind: "none" };
  private chunkRemaining = 0;
  private interimAnswers = 0;
  private reusable = true;
  /** Whether the whole request has been written: a connection still sending one is never reused. */
  private requestSent = false;
  private idleMs = MAX_IDLE_MS;
  private body: Readable | undefined;
  private settled = false;

  constructor(
    private readonly isHead: boolean,
    private readonly socket: Socket,
    /** Takes the connection back once the response is over: for the next request (kept for `idleMs`), or to close. */
    private readonly release: (reusable: boolean, idleMs: number) => void,
    private readonly resolve: (response: ExchangeResponse) => void,
    private readonly reject: (reason: unknown) => void,
  ) {
    socket.on("data", this.onData).on("end", this.onEnd).on("error", this.onError).on("close", this.onClose).on("timeout", this.onTimeout);
  }

  private readonly onData = (chunk: Buffer): void => this.receive(chunk);
  private readonly onEnd = (): void => this.ended();
  private readonly onError = (error: Error): void => this.fail(error);
  private readonly onClose = (): void => this.fail(new Error("the connection closed"));
  private readonly onTimeout = (): void => this.timedOut?.();

  private detach(): void {
    this.socket.removeListener("data", this.onData).removeListener("end", this.onEnd).removeListener("error", this.onError);
    this.socket.removeListener("close", this.onClose).removeListener("timeout", this.onTimeout);
  }

  sent(): void {
    this.requestSent = true;
  }

  /** Ends the exchange with `reason`: the head's promise rejects, or the body stream errors. The connection is closed. */
  fail(reason: unknown): void {
    if (this.state === "done") return;
    this.state = "done";
    this.socket.destroy();
    this.settle();
    if (this.body) this.body.destroy(reason instanceof Error ? reason : new Error(String(reason)));
    else this.reject(reason);
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettled?.();
  }

  private receive(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    try {
      this.advance();
    } catch (error) {
      this.fail(error);
    }
  }

  private advance(): void {
    while (this.state !== "done") {
      switch (this.state) {
        case "head":
          if (!this.readHead()) return;
          break;
        case "body":
          if (!this.readBody()) return;
          break;
        case "chunk-size":
          if (!this.readChunkSize()) return;
          break;
        case "chunk-data":
          if (!this.readChunkData()) return;
          break;
        case "chunk-end":
          if (this.pending.length < 2) return;
          if (this.pending[0] !== 0x0d || this.pending[1] !== 0x0a) throw new Error("chunk data not followed by CRLF");
          this.pending = this.pending.subarray(2);
          this.state = "chunk-size";
          break;
        case "trailers":
          if (!this.readTrailers()) return;
          break;
      }
    }
  }

  /** The status line and headers; 1xx heads are passed over. False until the whole head is in. */
  private readHead(): boolean {
    const end = blockEnd(this.pending, MAX_HEAD_BYTES, "response head");
    if (end < 0) return false;
    const lines = this.pending.toString("latin1", 0, end).split("\r\n");
    this.pending = this.pending.subarray(end + 4);
    const status = STATUS_LINE.exec(lines[0]!);
    if (!status) throw new Error(`malformed status line ${JSON.stringify(lines[0]!.slice(0, 80))}`);
    const code = Number(status[2]);
    const rawHeaders: string[] = [];
    const lengths: string[] = [];
    const codings: string[] = [];
    let close = status[1] === "0";
    for (let index = 1; index < lines.length; index++) {
      const [name, value] = headerField(lines[index]!);
      rawHeaders.push(name, value);
      const key = name.toLowerCase();
      if (key === "content-length") lengths.push(...value.split(",").map((part) => part.trim()));
      else if (key === "transfer-encoding") codings.push(...value.split(",").map((part) => part.trim().toLowerCase()));
      else if (key === "connection" && value.split(",").some((token) => token.trim().toLowerCase() === "close")) close = true;
      else if (key === "keep-alive") {
        const hint = KEEP_ALIVE_TIMEOUT.exec(value);
        if (hint) this.idleMs = Math.min(MAX_IDLE_MS, Number(hint[1]) * 1000 - 1000);
      }
    }
    if (code < 200) {
      // 101 would switch protocols, which agentwire never asks for; 100 and 103 precede the answer.
      if (code === 101) throw new Error("the server switched protocols");
      if (++this.interimAnswers > MAX_INTERIM_ANSWERS) throw new Error(`over ${MAX_INTERIM_ANSWERS} interim answers`);
      return true;
    }
    this.onHead?.();
    this.framing = this.framingOf(code, lengths, codings);
    if (close || this.framing.kind === "close") this.reusable = false;
    this.body = new Readable({
      // Once the response is over, the connection may serve another exchange: it is not this body's to resume.
      read: () => {
        if (this.state !== "done") this.socket.resume();
      },
      destroy: (error, callback) => {
        // The reader stopped early (or was aborted): the rest of the response is never read.
        if (this.state !== "done") {
          this.state = "done";
          this.socket.destroy();
          this.settle();
        }
        callback(error);
      },
    });
    // A broken body reaches whoever reads it (the stream stays errored); one nobody reads (a
    // caller that looked at the status only) must not take the process down as an unhandled
    // 'error' event. Node's IncomingMessage likewise emits errors only to listeners.
    this.body.on("error", () => {});
    this.state = this.framing.kind === "chunked" ? "chunk-size" : "body";
    this.resolve({ status: code, statusText: status[3] ?? "", rawHeaders, body: this.body });
    if (this.framing.kind === "none" || (this.framing.kind === "length" && this.framing.remaining === 0)) this.finish();
    return true;
  }

  private framingOf(code: number, lengths: string[], codings: string[]): Framing {
    if (this.isHead || code === 204 || code === 304) return { kind: "none" };
    if (codings.length > 0) {
      if (codings.some((coding) => coding === "")) throw new Error("empty Transfer-Encoding");
      if (codings.at(-1) === "chunked") {
        // A length beside chunked framing is a smuggling attempt or a broken server: the connection is not reused.
        if (lengths.length > 0) this.reusable = false;
        return { kind: "chunked" };
      }
      // Another final coding runs to the connection's end; beside a length, the framing is ambiguous.
      if (lengths.length > 0) throw new Error("Transfer-Encoding without chunked beside Content-Length");
      return { kind: "close" };
    }
    if (lengths.length > 0) {
      const first = lengths[0]!;
      if (!lengths.every((length) => /^\d+$/.test(length) && Number(length) === Number(first)) || !Number.isSafeInteger(Number(first)))
        throw new Error(`conflicting or malformed Content-Length ${JSON.stringify(lengths.join(", ").slice(0, 80))}`);
      return { kind: "length", remaining: Number(first) };
    }
    return { kind: "close" };
  }

  /** Body bytes of a length-framed or connection-framed body. */
  private readBody(): boolean {
    if (this.pending.length === 0) return false;
    if (this.framing.kind === "length") {
      const take = Math.min(this.framing.remaining, this.pending.length);
      const bytes = this.pending.subarray(0, take);
      this.pending = this.pending.subarray(take);
      this.framing.remaining -= take;
      this.push(bytes);
      if (this.state === "done") return false;
      if (this.framing.remaining === 0) this.finish();
      return false;
    }
    const bytes = this.pending;
    this.pending = Buffer.alloc(0);
    this.push(bytes);
    return false;
  }

  private readChunkSize(): boolean {
    const end = lineEnd(this.pending, MAX_CHUNK_LINE_BYTES, "chunk size line");
    if (end < 0) return false;
    const line = this.pending.toString("latin1", 0, end);
    const size = CHUNK_SIZE_LINE.exec(line);
    if (!size) throw new Error(`malformed chunk size ${JSON.stringify(line.slice(0, 40))}`);
    this.pending = this.pending.subarray(end + 2);
    this.chunkRemaining = Number.parseInt(size[1]!, 16);
    this.state = this.chunkRemaining === 0 ? "trailers" : "chunk-data";
    return true;
  }

  private readChunkData(): boolean {
    if (this.pending.length === 0) return false;
    const take = Math.min(this.chunkRemaining, this.pending.length);
    const bytes = this.pending.subarray(0, take);
    this.pending = this.pending.subarray(take);
    this.chunkRemaining -= take;
    if (this.chunkRemaining === 0) this.state = "chunk-end";
    this.push(bytes);
    return this.state === "chunk-end";
  }

  /** Trailer fields after the last chunk: read past (agentwire uses none), up to the empty line. */
  private readTrailers(): boolean {
    if (this.pending.length >= 2 && this.pending[0] === 0x0d && this.pending[1] === 0x0a) {
      this.pending = this.pending.subarray(2);
      this.finish();
      return true;
    }
    const end = blockEnd(this.pending, MAX_HEAD_BYTES, "trailer section");
    if (end < 0) return false;
    this.pending = this.pending.subarray(end + 4);
    this.finish();
    return true;
  }

  /** Hands bytes to the body; a reader that has enough pauses the connection until it reads on. */
  private push(bytes: Buffer): void {
    if (bytes.length > 0 && this.body?.push(bytes) === false) this.socket.pause();
  }

  /** The response ended where its framing said: the body ends, and the connection is kept if it can be. */
  private finish(): void {
    if (this.state === "done") return;
    this.state = "done";
    this.settle();
    this.detach();
    // Bytes past the response's end are never taken as the next response, and a connection still
    // writing this request (a server that answered before reading it all) carries nothing else.
    this.release(this.reusable && this.requestSent && this.pending.length === 0, this.idleMs);
    this.body?.push(null);
  }

  /** The server ended the connection: the end of a connection-framed body, an error for anything else. */
  private ended(): void {
    if (this.state === "done") return;
    if (this.state === "body" && this.framing.kind === "close") {
      // The connection's end was the body's end: the response is over, and the connection with it.
      this.reusable = false;
      this.finish();
      return;
    }
    this.fail(new Error(this.body ? "the connection ended before the response did" : "the server closed the connection before answering"));
  }
}

/**
 * Where the first line of `bytes` ends (the index of its CRLF), -1 while it is incomplete. Lines
 * end in CRLF only: a bare LF is refused at once rather than waited past (RFC 9112 lets a
 * recipient do either).
 */
function lineEnd(bytes: Buffer, maxBytes: number, what: string): number {
  const lf = bytes.indexOf(0x0a);
  if (lf < 0) {
    if (bytes.length > maxBytes) throw new Error(`${what} over ${maxBytes} bytes`);
    return -1;
  }
  if (lf === 0 || bytes[lf - 1] !== 0x0d) throw new Error(`${what} ends in a bare LF`);
  if (lf - 1 > maxBytes) throw new Error(`${what} over ${maxBytes} bytes`);
  return lf - 1;
}

/**
 * Where a block of CRLF-ended lines ends (the index of the CRLF CRLF after its last line), -1
 * while it is incomplete. A bare LF inside a complete block fails the line checks; one in an
 * incomplete block is refused here, or a head in LF-ended lines would be waited on to the timeout.
 */
function blockEnd(bytes: Buffer, maxBytes: number, what: string): number {
  const end = bytes.indexOf("\r\n\r\n");
  if (end >= 0) {
    if (end > maxBytes) throw new Error(`${what} over ${maxBytes} bytes`);
    return end;
  }
  if (bytes.length > maxBytes) throw new Error(`${what} over ${maxBytes} bytes`);
  for (let lf = bytes.indexOf(0x0a); lf >= 0; lf = bytes.indexOf(0x0a, lf + 1)) {
    if (lf === 0 || bytes[lf - 1] !== 0x0d) throw new Error(`${what} has a line ending in a bare LF`);
  }
  return -1;
}

/**
 * A header line split into its name and value, by hand: a regular expression with a lazy value
 * and trimmed ends backtracks cubically on a long run of spaces (a 4,000-space line took 21 s).
 */
function headerField(line: string): [string, string] {
  const colon = line.indexOf(":");
  const name = colon > 0 ? line.slice(0, colon) : "";
  if (!TOKEN.test(name)) throw new Error(`malformed header line ${JSON.stringify(line.slice(0, 80))}`);
  let start = colon + 1;
  let end = line.length;
  while (start < end && (line.charCodeAt(start) === 0x20 || line.charCodeAt(start) === 0x09)) start++;
  while (end > start && (line.charCodeAt(end - 1) === 0x20 || line.charCodeAt(end - 1) === 0x09)) end--;
  const value = line.slice(start, end);
  if (INVALID_VALUE_CHARACTER.test(value)) throw new Error(`header ${name} holds a control character`);
  return [name, value];
}
