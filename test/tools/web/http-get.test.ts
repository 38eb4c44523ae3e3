import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { forbiddenAddressReason } from "../../../src/tools/web/address-guard.js";
import { FetchTimeoutError, httpGet, RefusedAddressError } from "../../../src/tools/web/http-get.js";

let server: Server | undefined;
let hits = 0;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
  hits = 0;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer((request, response) => {
    hits++;
    handler!(request, response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

const options = (overrides: Partial<Parameters<typeof httpGet>[1]> = {}): Parameters<typeof httpGet>[1] => ({
  signal: new AbortController().signal,
  timeoutMs: 5_000,
  maxBytes: 1024 * 1024,
  refuseAddress: forbiddenAddressReason,
  ...overrides,
});

describe("httpGet", () => {
  it("checks the address a public-looking name resolves to, and never connects to a refused one", async () => {
    const port = await serve((_, response) => response.end("secret"));
    // A name that resolves to loopback (as a hostile DNS server would answer it) is refused before any connection.
    const resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    const failure = await httpGet(new URL(`http://innocent.example:${port}/`), options({ resolve })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RefusedAddressError);
    expect((failure as Error).message).toBe("innocent.example resolves to 127.0.0.1 is a loopback address");
    // One private address among public ones is enough to refuse: a connection may try any of them.
    const mixed = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "::ffff:10.0.0.5", family: 6 },
    ];
    await expect(httpGet(new URL(`http://innocent.example:${port}/`), options({ resolve: mixed }))).rejects.toBeInstanceOf(
      RefusedAddressError,
    );
    await expect(httpGet(new URL(`http://127.0.0.1:${port}/`), options())).rejects.toBeInstanceOf(RefusedAddressError);
    expect(hits).toBe(0);
  });

  it("connects to the address it checked, not to a second lookup's", async () => {
    const port = await serve((_, response) => response.writeHead(200, { "content-type": "text/plain" }).end("checked"));
    const looked: string[] = [];
    const resolve = async (host: string) => {
      looked.push(host);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const response = await httpGet(new URL(`http://pages.example:${port}/`), options({ resolve, refuseAddress: () => undefined }));
    expect(new TextDecoder().decode(response.body)).toBe("checked");
    expect(looked).toEqual(["pages.example"]);
  });

  it("decompresses gzip and caps the body after decompression", async () => {
    const port = await serve((_, response) =>
      response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(gzipSync("a".repeat(5_000_000))),
    );
    const response = await httpGet(new URL(`http://127.0.0.1:${port}/`), options({ refuseAddress: () => undefined, maxBytes: 100_000 }));
    expect(response.body.length).toBe(100_000);
    expect(response.truncated).toBe(true);
  });

  it("reports a redirect without reading on, and gives up on a server that does not answer in time", async () => {
    const port = await serve((request, response) => {
      if (request.url === "/moved") response.writeHead(302, { location: "/elsewhere" }).end();
      // /slow never answers.
    });
    const allowed = { refuseAddress: () => undefined };
    const moved = await httpGet(new URL(`http://127.0.0.1:${port}/moved`), options(allowed));
    expect(moved).toMatchObject({ status: 302, statusText: "Found", location: "/elsewhere" });
    const slow = await httpGet(new URL(`http://127.0.0.1:${port}/slow`), options({ ...allowed, timeoutMs: 300 })).catch(
      (error: unknown) => error,
    );
    expect(slow).toBeInstanceOf(FetchTimeoutError);
  });
});
