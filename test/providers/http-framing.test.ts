import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { exchange } from "../../src/providers/http1-exchange.js";
import { nodeHttpFetch } from "../../src/providers/node-http-fetch.js";

/**
 * How `nodeHttpFetch` frames HTTP/1.1 answers and reuses connections, pinned black-box against
 * servers that write exact bytes: whatever the adapter is built on, a model server (possibly a
 * hostile one) sees the same client. A case that hangs fails on its own short timeout.
 */

/** Per-test timeout: every case here finishes in well under a second when the client is right. */
const QUICK = 5_000;

/** A well-formed answer the servers give once the case under test is over. */
const FINE = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nfine";

/** A request as the raw server read it off the wire. */
interface WireRequest {
  /** As sent, e.g. `GET /v1/models HTTP/1.1`. */
  requestLine: string;
  /** Names lower-cased, values trimmed, in the order sent. */
  headers: Array<[string, string]>;
  body: Buffer;
  /** The TCP connection it came on, counted from 1 in the order the server accepted them. */
  connection: number;
  /** Its place among all the requests the server read, from 0. */
  index: number;
}

interface RawServer {
  url: string;
  port: number;
  requests: WireRequest[];
  /** TCP connections accepted so far. */
  connections: number;
  /** Every byte any client sent, for checking that something never went out. */
  received: string;
  sockets: Set<Socket>;
  server: Server;
}

/** How a raw server answers one request: by writing whatever bytes it likes to the socket. */
type Answer = (socket: Socket, request: WireRequest) => unknown;

const servers: RawServer[] = [];

/**
 * A TCP server on 127.0.0.1 that reads requests framed by Content-Length (the only framing the
 * adapter sends) and calls `answer` for each. It never closes a connection on its own, so a
 * client that waits for the close instead of honouring the framing hangs and fails.
 */
async function rawServer(answer: Answer): Promise<RawServer> {
  const raw: RawServer = { url: "", port: 0, requests: [], connections: 0, received: "", sockets: new Set(), server: createServer() };
  raw.server.on("connection", (socket) => {
    const connection = ++raw.connections;
    raw.sockets.add(socket);
    // Each write is its own segment: the byte-at-a-time case relies on it.
    socket.setNoDelay(true);
    // A client that gives up on a hostile answer resets the connection while the server writes.
    socket.on("error", () => {});
    socket.on("close", () => raw.sockets.delete(socket));
    let pending = Buffer.alloc(0);
    socket.on("data", (data: Buffer) => {
      raw.received += data.toString("latin1");
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const headEnd = pending.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const [requestLine = "", ...lines] = pending.subarray(0, headEnd).toString("latin1").split("\r\n");
        const headers = lines.map((line): [string, string] => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        });
        const bodyStart = headEnd + 4;
        const bodyEnd = bodyStart + Number(headers.find(([name]) => name === "content-length")?.[1] ?? 0);
        if (pending.byteLength < bodyEnd) return;
        const request = { requestLine, headers, body: pending.subarray(bodyStart, bodyEnd), connection, index: raw.requests.length };
        pending = pending.subarray(bodyEnd);
        raw.requests.push(request);
        void answer(socket, request);
      }
    });
  });
  servers.push(raw);
  await new Promise<void>((resolve) => raw.server.listen(0, "127.0.0.1", resolve));
  raw.port = (raw.server.address() as AddressInfo).port;
  raw.url = `http://127.0.0.1:${raw.port}`;
  return raw;
}

afterEach(async () => {
  for (const raw of servers.splice(0)) {
    for (const socket of raw.sockets) socket.destroy();
    await new Promise((resolve) => raw.server.close(resolve));
  }
});

/** The values a request carried for one header name, in the order sent. */
function headerValues(request: WireRequest, name: string): string[] {
  return request.headers.filter(([header]) => header === name).map(([, value]) => value);
}

/** A server answer: a chunked head now, then `body` a moment later, so the head alone settles fetch. */
function chunkedHeadThen(body: string): (socket: Socket) => Promise<void> {
  return async (socket) => {
    socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    await sleep(20);
    socket.write(body);
  };
}

/**
 * What a request came to, as one comparable string: `<status> <body>` for an answer read whole;
 * "fetch failed" for fetch's TypeError before the head, "terminated" for its TypeError while the
 * body is read; anything else spelled out as unexpected.
 */
async function outcome(url: string, init?: RequestInit): Promise<string> {
  let response: Response;
  try {
    response = await nodeHttpFetch(url, init);
  } catch (error) {
    return failure(error, "fetch failed");
  }
  try {
    return `${response.status} ${await response.text()}`;
  } catch (error) {
    return failure(error, "terminated");
  }
}

function failure(error: unknown, expected: string): string {
  if (error instanceof TypeError && error.message === expected) return expected;
  return `unexpected ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
}

describe("framing of an HTTP/1.1 answer", () => {
  it(
    "reads a Content-Length body without waiting for the connection to close",
    async () => {
      const server = await rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world"));
      expect(await outcome(server.url)).toBe("200 hello world");
    },
    QUICK,
  );

  it(
    "joins a chunked body, skipping chunk extensions and the trailer, and leaves the connection clean for the next request",
    async () => {
      const server = await rawServer((socket, request) => {
        if (request.index > 0) return socket.write(FINE);
        socket.write(
          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
            "5;x=y\r\nhello\r\n" +
            'A;name="a b";flag\r\n, chunked!\r\n' +
            "0;last=1\r\nX-Trailer: t\r\nX-Other: u\r\n\r\n",
        );
      });
      expect(await outcome(server.url)).toBe("200 hello, chunked!");
      // Reused, so the trailer must have been read to its blank line: a byte left over would be
      // taken as the start of the next answer.
      expect(await outcome(server.url)).toBe("200 fine");
      expect(server.requests.map((request) => request.connection)).toEqual([1, 1]);
    },
    QUICK,
  );

  it(
    "reads a body with neither a length nor chunking up to the connection's close",
    async () => {
      const server = await rawServer(async (socket, request) => {
        if (request.index > 0) return socket.write(FINE);
        socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nread until ");
        await sleep(20);
        socket.end("the close");
      });
      expect(await outcome(server.url)).toBe("200 read until the close");
      expect(await outcome(server.url)).toBe("200 fine");
      expect(server.connections).toBe(2);
    },
    QUICK,
  );

  it(
    "parses an answer written one byte at a time: nothing depends on where the segments break",
    async () => {
      const answer =
        "HTTP/1.1 201 Created\r\nX-Request-Id: req_1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\none\r\n3;x=y\r\ntwo\r\n0\r\n\r\n";
      const server = await rawServer(async (socket) => {
        for (const byte of Buffer.from(answer)) {
          if (socket.destroyed) return;
          socket.write(Buffer.of(byte));
          await sleep(1);
        }
      });
      const response = await nodeHttpFetch(server.url);
      expect([response.status, response.statusText, response.headers.get("x-request-id")]).toEqual([201, "Created", "req_1"]);
      expect(await response.text()).toBe("onetwo");
    },
    QUICK,
  );

  it(
    "honours framing headers and finds any header whatever the case of its name",
    async () => {
      const server = await rawServer((socket, request) =>
        socket.write(
          request.index === 0
            ? "HTTP/1.1 200 OK\r\nCONTENT-LENGTH: 3\r\nContent-type: text/plain\r\nX-Mixed: a\r\nx-MIXED: b\r\n\r\nabc"
            : "HTTP/1.1 200 OK\r\ntransfer-ENCODING: Chunked\r\n\r\n3\r\nxyz\r\n0\r\n\r\n",
        ),
      );
      const response = await nodeHttpFetch(server.url);
      const headers = response.headers;
      expect([headers.get("content-length"), headers.get("Content-Type"), headers.get("X-MIXED")]).toEqual(["3", "text/plain", "a, b"]);
      expect(await response.text()).toBe("abc");
      // Transfer-coding names are case-insensitive too (RFC 9112 section 7).
      expect(await outcome(server.url)).toBe("200 xyz");
    },
    QUICK,
  );

  it.each(["HTTP/1.1 200 \r\n", "HTTP/1.1 200\r\n"])(
    "accepts a status line with no reason phrase: %j",
    async (statusLine) => {
      const server = await rawServer((socket) => socket.write(`${statusLine}Content-Length: 2\r\n\r\nok`));
      const response = await nodeHttpFetch(server.url);
      expect([response.status, response.statusText, await response.text()]).toEqual([200, "", "ok"]);
    },
    QUICK,
  );
});

describe("answers that have no body", () => {
  it(
    "reads no body after a HEAD request, though the head gives the length a GET would get",
    async () => {
      const server = await rawServer((socket, request) =>
        socket.write(request.requestLine.startsWith("HEAD ") ? "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" : FINE),
      );
      const response = await nodeHttpFetch(server.url, { method: "HEAD" });
      expect([response.status, response.headers.get("content-length"), await response.text()]).toEqual([200, "100", ""]);
      expect(await outcome(server.url)).toBe("200 fine");
    },
    QUICK,
  );

  // A 204 or 304 ends at its head whatever follows (RFC 9112 section 6.3): bytes a server wrongly
  // sends after it are not its body, and must not be read as the next request's answer either.
  it.each([
    ["204 with a Content-Length and bytes after the head", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello"],
    ["204 with bytes after the head", "HTTP/1.1 204 No Content\r\n\r\nhello"],
    ["304 with a Content-Length and bytes after the head", "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\nhello"],
  ])(
    "reads no body from a %s, and the next request still gets its own answer",
    async (_case, answer) => {
      const server = await rawServer((socket, request) => socket.write(request.index === 0 ? answer : FINE));
      const response = await nodeHttpFetch(server.url);
      expect(await response.text()).toBe("");
      expect(await outcome(server.url)).toBe("200 fine");
    },
    QUICK,
  );
});

describe("interim (1xx) answers", () => {
  it.each([
    ["100 Continue", "HTTP/1.1 100 Continue\r\n\r\n", 20],
    ["103 Early Hints", "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n", 20],
    [
      "100 and 103 in the same segment as the final answer",
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n",
      0,
    ],
  ])(
    "skips %s: status and headers are the final answer's",
    async (_case, interim, pause) => {
      const server = await rawServer(async (socket) => {
        socket.write(interim);
        // With a pause, a client that settles on the interim head would answer 100 or 103.
        if (pause > 0) await sleep(pause);
        socket.write("HTTP/1.1 200 OK\r\nX-Final: yes\r\nContent-Length: 4\r\n\r\ndone");
      });
      const response = await nodeHttpFetch(server.url, { method: "POST", body: "{}" });
      const seen = { status: response.status, final: response.headers.get("x-final"), link: response.headers.get("link") };
      expect({ ...seen, text: await response.text() }).toEqual({ status: 200, final: "yes", link: null, text: "done" });
    },
    QUICK,
  );
});

describe("connection reuse", () => {
  it(
    "sends sequential requests over one kept-alive connection",
    async () => {
      const server = await rawServer((socket) => socket.write(FINE));
      expect(await outcome(server.url)).toBe("200 fine");
      expect(await outcome(`${server.url}/second`)).toBe("200 fine");
      expect(server.connections).toBe(1);
    },
    QUICK,
  );

  it.each([
    ["a Connection: close answer", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\nfine"],
    ["an HTTP/1.0 answer", "HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nfine"],
  ])(
    "opens a new connection after %s, even while the server leaves the old one open",
    async (_case, answer) => {
      const server = await rawServer((socket) => socket.write(answer));
      expect(await outcome(server.url)).toBe("200 fine");
      expect(await outcome(server.url)).toBe("200 fine");
      expect(server.connections).toBe(2);
    },
    QUICK,
  );

  it.each(["end", "resetAndDestroy"] as const)(
    "opens a fresh connection when the server has closed the idle one (socket.%s)",
    async (close) => {
      const server = await rawServer(async (socket, request) => {
        socket.write(FINE);
        if (request.index > 0) return;
        await sleep(10);
        socket[close]();
      });
      expect(await outcome(server.url)).toBe("200 fine");
      // Time for the close to reach the client: this is the idle case, not a request crossing the close.
      await sleep(100);
      expect(await outcome(server.url)).toBe("200 fine");
      expect(server.connections).toBe(2);
    },
    QUICK,
  );
});

describe("hostile or malformed answers fail as fetch does, and the connection is not reused", () => {
  // 160 header lines of 1 KiB: past a 128 KiB head, and never the blank line that would end it.
  const endlessHead = (socket: Socket): void => {
    socket.write("HTTP/1.1 200 OK\r\n");
    const line = `X-Filler: ${"a".repeat(1012)}\r\n`;
    for (let index = 0; index < 160 && !socket.destroyed; index++) socket.write(line);
  };
  it.each<[string, "fetch failed" | "terminated", (socket: Socket) => unknown]>([
    ["a four-digit status", "fetch failed", (socket) => socket.write("HTTP/1.1 2000 OK\r\nContent-Length: 4\r\n\r\nfine")],
    ["a status line that is not HTTP", "fetch failed", (socket) => socket.write("FOO\r\n\r\n")],
    [
      "a header line without a colon",
      "fetch failed",
      (socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nNoColon\r\n\r\nfine"),
    ],
    [
      "an obs-fold continuation line",
      "fetch failed",
      (socket) => socket.write("HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nContent-Length: 4\r\n\r\nfine"),
    ],
    ["a head over 128 KiB that never ends", "fetch failed", endlessHead],
    [
      "two different Content-Length headers",
      "fetch failed",
      (socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nfine!"),
    ],
    [
      "a Content-Length listing two values",
      "fetch failed",
      (socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 4, 5\r\n\r\nfine!"),
    ],
    ["a negative Content-Length", "fetch failed", (socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\nfine")],
    ["a chunk size that is not hex", "terminated", chunkedHeadThen("zz\r\nhello\r\n0\r\n\r\n")],
    // A parser that reads this as a number waits for ~4.7e21 bytes; one that wraps reads garbage.
    ["an absurdly large chunk size", "terminated", chunkedHeadThen("ffffffffffffffffff\r\nhello\r\n0\r\n\r\n")],
    ["chunk data not followed by CRLF", "terminated", chunkedHeadThen("5\r\nhelloXX0\r\n\r\n")],
    [
      "a body cut short by the server closing mid-chunk",
      "terminated",
      async (socket) => {
        await chunkedHeadThen("a\r\nhel")(socket);
        socket.end();
      },
    ],
  ])(
    "%s: %s",
    async (_case, expected, hostile) => {
      const server = await rawServer((socket, request) => (request.index === 0 ? hostile(socket) : socket.write(FINE)));
      expect(await outcome(server.url)).toBe(expected);
      // The next request must not inherit the broken connection or its leftovers.
      expect(await outcome(server.url)).toBe("200 fine");
      expect(server.requests.map((request) => request.connection)).toEqual([1, 2]);
    },
    QUICK,
  );

  it(
    "takes only Content-Length bytes as the body: the bytes after them are never the next request's answer",
    async () => {
      const smuggled = "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled";
      const server = await rawServer((socket, request) =>
        socket.write(request.index === 0 ? `HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello${smuggled}` : FINE),
      );
      expect(await outcome(server.url)).toBe("200 hello");
      // Dropping that connection (a fresh answer) or failing are both safe; reading on is not.
      expect(["200 fine", "fetch failed"]).toContain(await outcome(server.url));
      expect(await outcome(server.url)).toBe("200 fine");
    },
    QUICK,
  );

  it(
    "does not take bytes a server sends on an idle kept-alive connection as the next request's answer",
    async () => {
      const server = await rawServer(async (socket, request) => {
        socket.write(FINE);
        if (request.index > 0) return;
        await sleep(20);
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled");
      });
      expect(await outcome(server.url)).toBe("200 fine");
      await sleep(100);
      expect(["200 fine", "fetch failed"]).toContain(await outcome(server.url));
      expect(await outcome(server.url)).toBe("200 fine");
    },
    QUICK,
  );
});

describe("answers that once broke the client (found by an attacking review)", () => {
  /** Errors nobody caught while `run` went on: an errored body must not take the process down. */
  async function uncaughtDuring(run: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const record = (error: Error): void => void seen.push(error.message);
    const others = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", record);
    try {
      await run();
      await sleep(100);
    } finally {
      process.removeListener("uncaughtException", record);
      for (const listener of others) process.on("uncaughtException", listener);
    }
    return seen;
  }

  it(
    "a broken chunk in the head's own segment errors the body for its reader only, never the process",
    async () => {
      const server = await rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));
      let read = "";
      const uncaught = await uncaughtDuring(async () => {
        read = await outcome(server.url);
      });
      expect(read).toBe("terminated");
      expect(uncaught).toEqual([]);
    },
    QUICK,
  );

  it(
    "an abort after an answer whose body nobody read (a probe that looked at the status) does not crash",
    async () => {
      const server = await rawServer((socket) => socket.write("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}"));
      const uncaught = await uncaughtDuring(async () => {
        const controller = new AbortController();
        const response = await nodeHttpFetch(server.url, { method: "POST", body: "{}", signal: controller.signal });
        expect(response.status).toBe(404);
        controller.abort(new Error("the probe gave up"));
      });
      expect(uncaught).toEqual([]);
    },
    QUICK,
  );

  it(
    "a header of 20,000 spaces ending in a NUL is refused at once (a backtracking parse would take hours)",
    async () => {
      const server = await rawServer((socket, request) =>
        socket.write(request.index === 0 ? `HTTP/1.1 200 OK\r\nX:${" ".repeat(20_000)}\0\r\nContent-Length: 2\r\n\r\nok` : FINE),
      );
      expect(await outcome(server.url)).toBe("fetch failed");
      expect(await outcome(server.url)).toBe("200 fine");
    },
    QUICK,
  );

  it(
    "a connection still sending a request body (the server answered early and stopped reading) is not reused",
    async () => {
      let connections = 0;
      const server = createServer((socket) => {
        const connection = ++connections;
        socket.on("error", () => {});
        socket.once("data", () => {
          socket.pause();
          socket.write(`HTTP/1.1 413 Content Too Large\r\nContent-Length: 1\r\n\r\n${connection}`);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        expect(await outcome(url, { method: "POST", body: "x".repeat(20_000_000) })).toBe("413 1");
        // On the first connection this request would wait behind 20 MB nobody reads.
        expect(await outcome(url, { method: "POST", body: "{}" })).toBe("413 2");
      } finally {
        server.close();
      }
    },
    QUICK,
  );

  it(
    "a head whose lines end in a bare LF is refused at once, not waited on until the timeout",
    async () => {
      const server = await rawServer((socket) => socket.write("HTTP/1.1 200 OK\nContent-Length: 2\n\nok"));
      expect(await outcome(server.url)).toBe("fetch failed");
    },
    QUICK,
  );

  it(
    "credentials in the URL do not replace the caller's own Authorization, and are sent where it has none",
    async () => {
      const server = await rawServer((socket) => socket.write(FINE));
      const withCredentials = server.url.replace("http://", "http://user:p%40ss@");
      await outcome(withCredentials, { headers: { authorization: "Bearer sk-test" } });
      await outcome(withCredentials);
      expect(server.requests.map((request) => headerValues(request, "authorization"))).toEqual([
        ["Bearer sk-test"],
        [`Basic ${Buffer.from("user:p@ss").toString("base64")}`],
      ]);
    },
    QUICK,
  );
});

describe("limits that end a stalling or ambiguous answer", () => {
  it(
    "a head trickled a byte at a time fails once it has taken the whole timeout, however lively the trickle",
    async () => {
      const server = await rawServer(async (socket) => {
        for (const byte of `HTTP/1.1 200 OK\r\nX-Slow: ${"a".repeat(1000)}`) {
          if (socket.destroyed) return;
          socket.write(byte);
          await sleep(50);
        }
      });
      const request = { url: new URL(server.url), method: "GET", headers: [], body: null, idleTimeoutMs: 400 };
      const failed = await exchange(request, undefined).then(
        () => "answered",
        (error: NodeJS.ErrnoException) => error.code,
      );
      expect(failed).toBe("ETIMEDOUT");
    },
    QUICK,
  );

  it(
    "endless interim answers fail instead of being passed over forever",
    async () => {
      const server = await rawServer((socket, request) =>
        socket.write(request.index === 0 ? "HTTP/1.1 100 Continue\r\n\r\n".repeat(40) : FINE),
      );
      expect(await outcome(server.url)).toBe("fetch failed");
      expect(await outcome(server.url)).toBe("200 fine");
    },
    QUICK,
  );

  it(
    "a transfer coding other than chunked beside a Content-Length is refused as ambiguous",
    async () => {
      const server = await rawServer((socket) =>
        socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 4\r\n\r\nfine"),
      );
      expect(await outcome(server.url)).toBe("fetch failed");
    },
    QUICK,
  );

  it(
    "sizes written with leading zeros are read as the numbers they are",
    async () => {
      const server = await rawServer((socket, request) =>
        socket.write(
          request.index === 0
            ? "HTTP/1.1 200 OK\r\nContent-Length: 00000000000000004\r\n\r\nfine"
            : "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000004\r\nfine\r\n0\r\n\r\n",
        ),
      );
      expect(await outcome(server.url)).toBe("200 fine");
      expect(await outcome(server.url)).toBe("200 fine");
    },
    QUICK,
  );

  it(
    "a server's Keep-Alive timeout is honoured: a connection it will soon close is not kept for the next request",
    async () => {
      const server = await rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 4\r\n\r\nfine"));
      expect(await outcome(server.url)).toBe("200 fine");
      expect(await outcome(server.url)).toBe("200 fine");
      expect(server.requests.map((request) => request.connection)).toEqual([1, 2]);
    },
    QUICK,
  );
});

describe("the request as it goes out", () => {
  it.each([
    ["CR LF", { "x-a": "1\r\nx-b: 2" }],
    ["a lone LF", { "x-a": "1\nx-b: 2" }],
    ["a lone CR", { "x-a": "1\rx-b: 2" }],
  ])(
    "refuses a header value holding %s with a TypeError, sending nothing",
    async (_case, headers) => {
      const server = await rawServer((socket) => socket.write(FINE));
      const error = await nodeHttpFetch(server.url, { headers }).then(
        () => "resolved",
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TypeError);
      // Time for anything that did go out to arrive.
      await sleep(50);
      expect(server.received).not.toMatch(/x-b/i);
      expect(server.requests).toEqual([]);
    },
    QUICK,
  );

  it(
    "sends the request target, a host header with the port, and each body's content-length",
    async () => {
      const server = await rawServer((socket) => socket.write(FINE));
      await outcome(`${server.url}/v1/messages?beta=true`, { method: "POST", body: "abc" });
      // A view into a larger buffer: only its own bytes go out.
      await outcome(`${server.url}/bytes`, { method: "POST", body: new Uint8Array([0, 1, 2, 3, 4, 5]).subarray(2, 5) });
      const [text, bytes] = server.requests;
      expect(text!.requestLine).toBe("POST /v1/messages?beta=true HTTP/1.1");
      expect(headerValues(text!, "host")).toEqual([`127.0.0.1:${server.port}`]);
      expect([headerValues(text!, "content-length"), headerValues(text!, "transfer-encoding"), text!.body.toString()]).toEqual([
        ["3"],
        [],
        "abc",
      ]);
      expect(bytes!.requestLine).toBe("POST /bytes HTTP/1.1");
      expect([headerValues(bytes!, "content-length"), [...bytes!.body]]).toEqual([["3"], [2, 3, 4]]);
    },
    QUICK,
  );

  it(
    "sends a non-ASCII string body byte for byte as UTF-8",
    async () => {
      const text = "héllo — 世界 🚀 \u2028 end";
      const server = await rawServer((socket) => socket.write(FINE));
      await outcome(server.url, { method: "POST", body: text });
      const request = server.requests[0]!;
      expect(request.body.toString("hex")).toBe(Buffer.from(text, "utf8").toString("hex"));
      expect(headerValues(request, "content-length")).toEqual([String(Buffer.byteLength(text))]);
    },
    QUICK,
  );
});

describe("idle connections and the process", () => {
  it("lets a process exit while its kept-alive connection sits idle and open", async () => {
    const server = await rawServer((socket) => socket.write(FINE));
    const directory = mkdtempSync(join(tmpdir(), "agentwire-http-framing-"));
    let child: ChildProcess | undefined;
    try {
      // Node 20 cannot import TypeScript, so the adapter is bundled (with the esbuild the project
      // builds with) into a module of its own, beside a script that makes one request.
      const source = fileURLToPath(new URL("../../src/providers/node-http-fetch.ts", import.meta.url));
      const bundle = { bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "silent" } as const;
      await build({ ...bundle, entryPoints: [source], outfile: join(directory, "adapter.mjs") });
      const script = [
        'import { nodeHttpFetch } from "./adapter.mjs";',
        "const response = await nodeHttpFetch(process.argv[2]);",
        "process.stdout.write(`${await response.text()}\\n`);",
      ];
      writeFileSync(join(directory, "request.mjs"), script.join("\n"));
      const running = spawn(process.execPath, [join(directory, "request.mjs"), server.url], { stdio: ["ignore", "pipe", "pipe"] });
      child = running;
      let output = "";
      running.stdout.on("data", (data: Buffer) => (output += data.toString()));
      running.stderr.on("data", (data: Buffer) => (output += data.toString()));
      const exited = new Promise<number | null>((resolve) => running.once("exit", (code) => resolve(code)));
      const answered = new Promise<void>((resolve) => running.stdout.on("data", () => output.includes("\n") && resolve()));
      await Promise.race([answered, exited]);
      expect(output).toBe("fine\n");
      // The server still holds the connection open; only the client letting go of it ends the process.
      const exitedInTime = await Promise.race([exited.then(() => true), sleep(2_000).then(() => false)]);
      expect(exitedInTime, "the child was still running 2 s after its answer").toBe(true);
      expect(await exited).toBe(0);
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill();
      rmSync(directory, { recursive: true, force: true });
    }
  }, 10_000);
});
