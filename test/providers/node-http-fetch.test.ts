import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer, globalAgent } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { FetchHeaders } from "../../src/providers/fetch-headers.js";
import { nodeHttpFetch, redirectRefusal } from "../../src/providers/node-http-fetch.js";
import { FormData as SdkFormData, ReadableStream as SdkReadableStream } from "../../src/providers/sdk-globals.js";

/** A loopback server answering with `handle`; every request it saw is kept. */
let server: Server | undefined;
const seen: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }> = [];

async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  seen.length = 0;
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Reads a body chunk by chunk, as the SDKs' SSE decoders do. */
async function chunks(body: AsyncIterable<Uint8Array> | null): Promise<string[]> {
  const read: string[] = [];
  for await (const chunk of body!) read.push(Buffer.from(chunk).toString("utf8"));
  return read;
}

describe("nodeHttpFetch", () => {
  it("posts the body with its headers and returns status, headers and the JSON answer", async () => {
    const url = await serve((_, response) => {
      response.writeHead(201, { "content-type": "application/json", "x-request-id": "req_1" }).end('{"ok":true}');
    });
    const headers = new FetchHeaders({ "Content-Type": "application/json", "X-Api-Key": "k" });
    const response = await nodeHttpFetch(`${url}/v1/messages?beta=true`, { method: "post", headers, body: '{"a":"é"}' });
    expect({ status: response.status, ok: response.ok }).toEqual({ status: 201, ok: true });
    expect(response.url).toBe(`${url}/v1/messages?beta=true`);
    expect(response.headers.get("X-Request-Id")).toBe("req_1");
    expect(await response.json()).toEqual({ ok: true });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/v1/messages?beta=true", body: '{"a":"é"}' });
    const contentLength = String(Buffer.byteLength('{"a":"é"}'));
    expect(seen[0]!.headers).toMatchObject({ "content-type": "application/json", "x-api-key": "k", "content-length": contentLength });
  });

  it("accepts the headers as a plain record, pairs, or Node's own Headers", async () => {
    const url = await serve((_, response) => response.end());
    await nodeHttpFetch(url, { headers: { "x-one": "1" } });
    await nodeHttpFetch(url, { headers: [["x-two", "2"]] });
    await nodeHttpFetch(url, { headers: new Headers({ "x-three": "3" }) });
    expect(seen.map((request) => [request.headers["x-one"], request.headers["x-two"], request.headers["x-three"]])).toEqual([
      ["1", undefined, undefined],
      [undefined, "2", undefined],
      [undefined, undefined, "3"],
    ]);
  });

  it("streams: each server-sent event is read before the server ends the response", async () => {
    let finish: (() => void) | undefined;
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      finish = () => response.end("data: two\n\n");
    });
    const response = await nodeHttpFetch(url, { method: "POST", body: "{}" });
    const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(Buffer.from(first.value!).toString()).toBe("data: one\n\n");
    finish!();
    expect(Buffer.from((await iterator.next()).value!).toString()).toBe("data: two\n\n");
    expect((await iterator.next()).done).toBe(true);
  });

  it("rejects with the abort reason before the answer comes, and ends a body being read with it", async () => {
    const url = await serve((request, response) => {
      if (request.url === "/slow") return; // never answers
      response.writeHead(200).write("data: one\n\n");
    });
    const early = new AbortController();
    const pending = nodeHttpFetch(`${url}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });

    const late = new AbortController();
    const response = await nodeHttpFetch(`${url}/stream`, { signal: late.signal });
    const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await iterator.next();
    late.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: "AbortError" });
    await expect(nodeHttpFetch(url, { signal: late.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("fails as Node's fetch does: TypeError 'fetch failed' with the system error, 'terminated' when the body is cut", async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-length": "100" }).write("partial");
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const response = await nodeHttpFetch(url, {});
    const error = await chunks(response.body as unknown as AsyncIterable<Uint8Array>).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: "terminated" });

    const port = (server!.address() as AddressInfo).port;
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const refused = await nodeHttpFetch(`http://127.0.0.1:${port}/`, {}).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused).toMatchObject({ message: "fetch failed", cause: { code: "ECONNREFUSED" } });
  });

  it("reads a gzip-compressed answer as its plain text", async () => {
    const url = await serve((_, response) => {
      response.writeHead(400, { "content-encoding": "gzip" }).end(gzipSync('{"error":{"message":"bad"}}'));
    });
    const response = await nodeHttpFetch(url, {});
    expect({ ok: response.ok, body: await response.text() }).toEqual({ ok: false, body: '{"error":{"message":"bad"}}' });
  });

  it("follows a redirect within its origin, and no other: another origin, another scheme or http after https fail", async () => {
    let otherHits = 0;
    const other = createServer((_request, response) => {
      otherHits++;
      response.end("other");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const origin = await serve((request, response) => {
        if (request.url === "/same") response.writeHead(307, { location: "/final" }).end();
        else if (request.url === "/final") response.end(`final: ${request.headers["x-api-key"]}`);
        else if (request.url === "/ftp")
          response.writeHead(307, { location: `ftp://127.0.0.1:${(other.address() as AddressInfo).port}/` }).end();
        else response.writeHead(308, { location: `${otherOrigin}/there` }).end();
      });
      const init = { method: "POST", body: "the conversation", headers: { "x-api-key": "secret", "api-key": "azure-secret" } };
      const same = await nodeHttpFetch(`${origin}/same`, init);
      expect({ text: await same.text(), redirected: same.redirected, url: same.url }).toEqual({
        text: "final: secret",
        redirected: true,
        url: `${origin}/final`,
      });
      expect(seen.at(-1)).toMatchObject({ method: "POST", body: "the conversation" });
      for (const [path, reason] of [
        ["/away", /another origin/],
        ["/ftp", /ftp: URL/],
      ] as const) {
        const failure = await nodeHttpFetch(`${origin}${path}`, init).then(
          () => undefined,
          (error: unknown) => error as TypeError & { cause: Error },
        );
        expect(failure, path).toBeInstanceOf(TypeError);
        expect(failure!.message).toBe("fetch failed");
        expect(failure!.cause.message).toMatch(reason);
      }
      expect(otherHits).toBe(0);
      expect(redirectRefusal(new URL("https://api.example.com/v1"), new URL("http://api.example.com/v1"))).toMatch(/https down to http/);
      expect(redirectRefusal(new URL("http://127.0.0.1:1/a"), new URL("http://127.0.0.1:1/b"))).toBeUndefined();
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("refuses a body read whole that decompresses past its cap, without holding it all", async () => {
    // 80 MiB of zeros gzip to ~80 KB.
    const bomb = gzipSync(Buffer.alloc(80 * 1024 * 1024));
    const url = await serve((_request, response) => response.writeHead(400, { "content-encoding": "gzip" }).end(bomb));
    const before = process.memoryUsage().rss;
    const failure = await (await nodeHttpFetch(url, { method: "POST", body: "x" })).text().then(
      () => undefined,
      (error: unknown) => error as TypeError & { cause: Error },
    );
    expect(failure?.message).toBe("terminated");
    expect(failure?.cause.message).toMatch(/over 67108864 bytes/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });
});

/** A self-signed certificate for 127.0.0.1, made with openssl (the https tests skip without it). */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } | undefined {
  const directory = mkdtempSync(join(tmpdir(), "agentwire-tls-"));
  try {
    const [key, cert] = [join(directory, "key.pem"), join(directory, "cert.pem")];
    const subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"];
    const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key];
    execFileSync("openssl", ["req", "-x509", ...newKey, "-out", cert, "-days", "1", ...subject], { stdio: "ignore" });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } catch {
    return undefined;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe("nodeHttpFetch over https", () => {
  const certificate = selfSignedCertificate();

  it.skipIf(!certificate)("checks the server's certificate, and streams once it is trusted", async () => {
    const tls = createTlsServer(certificate!, (_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end("data: over tls\n\n");
    });
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/v1/messages`;
    try {
      const refused = await nodeHttpFetch(url, { method: "POST", body: "{}" }).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(TypeError);
      expect(refused).toMatchObject({ message: "fetch failed", cause: { code: "DEPTH_ZERO_SELF_SIGNED_CERT" } });
      // Trusted as NODE_EXTRA_CA_CERTS would make it: the answer comes through.
      globalAgent.options.ca = certificate!.cert;
      const response = await nodeHttpFetch(url, { method: "POST", body: "{}" });
      expect(await chunks(response.body as unknown as AsyncIterable<Uint8Array>)).toEqual(["data: over tls\n\n"]);
    } finally {
      delete globalAgent.options.ca;
      globalAgent.destroy();
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});

describe("the SDKs' stand-ins for Node's lazy globals", () => {
  it("FetchHeaders: case-insensitive, appended values joined, iterated sorted by name", () => {
    const headers = new FetchHeaders([
      ["B-Header", "2"],
      ["a-header", "1"],
    ]);
    headers.append("b-header", " 3 ");
    headers.set("C", "x");
    headers.delete("c");
    expect([...headers]).toEqual([
      ["a-header", "1"],
      ["b-header", "2, 3"],
    ]);
    expect(headers.get("B-HEADER")).toBe("2, 3");
    expect(headers.has("c")).toBe(false);
    expect(new FetchHeaders(headers).get("a-header")).toBe("1");
  });

  it("FormData and ReadableStream answer instanceof for real instances only, and construct the real class", () => {
    expect(new SdkFormData() instanceof globalThis.FormData).toBe(true);
    expect(new globalThis.FormData() instanceof SdkFormData).toBe(true);
    expect(new globalThis.ReadableStream() instanceof SdkReadableStream).toBe(true);
    expect(("text" as unknown) instanceof SdkFormData).toBe(false);
    expect({} instanceof SdkReadableStream || new Uint8Array() instanceof SdkReadableStream).toBe(false);
  });
});
