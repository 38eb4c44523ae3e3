import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, ResultEvent, UserEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  PRINT_ARGS,
  PROVIDERS_UNDER_TEST,
  onStdoutEvents,
  results,
  runAgentwire,
  spawnAgentwire,
  waitForEvent,
  waitForExit,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

// Every page comes from a loopback server the test starts: nothing here touches the internet.

let workspace: Workspace | undefined;
let site: Site | undefined;

afterEach(async () => {
  await site?.close();
  await workspace?.cleanup();
  site = workspace = undefined;
});

interface Site {
  url: string;
  /** Requests per path, so a test sees what the cache spared. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const HARBOR_PAGE = `<!doctype html><html><head><title>Harbor Page</title><style>.hidden{color:red}</style><script>var SCRIPTMARK = 1;</script></head>
<body><h1>Harbor Heading</h1><p>Boats are <b>moored</b> here; see <a href="/other">a link</a>.</p>
<ul><li>one</li><li>two</li></ul><table><tr><th>Boat</th><th>Length</th></tr><tr><td>Skiff</td><td>4m</td></tr></table></body></html>`;

async function startSite(
  host: string,
  routes: Record<string, (response: ServerResponse, request: IncomingMessage) => void>,
): Promise<Site> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(response, request);
    else response.writeHead(404, { "content-type": "text/plain" }).end("nothing here");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const html = (body: string) => (response: ServerResponse) =>
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);

function fetchTurns(...inputs: Array<Record<string, unknown>>) {
  return { turns: [...inputs.map((input) => ({ tool_calls: [{ name: "WebFetch", input }] })), { text: "Done." }] };
}

function fetchResults(events: OutputEvent[]) {
  return events
    .filter((event): event is UserEvent => event.type === "user" && event.message.content[0]?.type === "tool_result")
    .map((event) => {
      const block = event.message.content[0] as { content: string; is_error?: boolean };
      return { text: block.content, isError: block.is_error === true, details: event.tool_use_result as Record<string, unknown> };
    });
}

async function runFetch(args: string[], env: Record<string, string> = {}, provider: ProviderUnderTest = "anthropic") {
  const extra = PROVIDERS_UNDER_TEST[provider].args(workspace!.server.url);
  return runAgentwire([...PRINT_ARGS, ...extra, ...args], { workspace: workspace!, env, provider });
}

describe("WebFetch through the binary", () => {
  it("returns a page as markdown (title first, scripts and styles dropped, lists, tables and links kept) with Claude Code's tool_use_result", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: `${site.url}/harbor.html` }));
    const run = await runFetch(["--allowedTools", "WebFetch(domain:127.0.0.1)"]);
    expectWellFormedRun(run, 1);
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(false);
    expect(result!.text.startsWith("Harbor Page")).toBe(true);
    expect(result!.text).toContain("Harbor Heading\n==============");
    expect(result!.text).toContain("**moored**");
    expect(result!.text).toContain("[a link](/other)");
    expect(result!.text).toMatch(/\*\s+one\n\*\s+two/);
    expect(result!.text).toContain("| Boat | Length |");
    expect(result!.text).toContain("| Skiff | 4m");
    expect(result!.text).not.toContain("SCRIPTMARK");
    expect(result!.text).not.toContain("color:red");
    expect(Object.keys(result!.details).sort()).toEqual(["bytes", "code", "codeText", "durationMs", "result", "url"]);
    expect(result!.details).toMatchObject({ code: 200, codeText: "OK", url: `${site.url}/harbor.html`, result: result!.text });
    expect(result!.details.bytes).toBe(Buffer.byteLength(HARBOR_PAGE));
    // The model's follow-up request carries the page as the tool result.
    expect(JSON.stringify(workspace.server.requests.at(-1)!.body)).toContain("Harbor Heading");
  });

  it("refuses 127.0.0.1 without a rule naming it, even where permissions are bypassed, and asks nothing", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: `${site.url}/harbor.html` }));
    const run = await runFetch(["--dangerously-skip-permissions"]);
    expectWellFormedRun(run, 1);
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain("127.0.0.1 is a loopback address");
    expect(result!.text).toContain("WebFetch(domain:127.0.0.1)");
    expect(site.hits.size).toBe(0);
  });

  it("asks for a host no rule names: headless without a prompt tool it is denied and listed in permission_denials", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: `${site.url}/harbor.html` }));
    // A rule for another host does not cover this one.
    const run = await runFetch(["--allowedTools", "WebFetch(domain:example.com)"]);
    expectWellFormedRun(run, 1);
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain("no allow rule names");
    expect(result!.text).toContain('--allowedTools "WebFetch(domain:127.0.0.1)"');
    const final = results(run.events).at(-1) as ResultEvent;
    expect(final.permission_denials.map((denial) => denial.tool_name)).toEqual(["WebFetch"]);
    expect(site.hits.size).toBe(0);
  });

  it("with a host, asks it by can_use_tool; its yes runs the call, which still refuses a loopback address no rule names", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    const url = `${site.url}/harbor.html`;
    await workspace.useScenario(fetchTurns({ url, prompt: "Which boats?" }));
    const child = spawnAgentwire(
      ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--permission-prompt-tool", "stdio"],
      { workspace },
    );
    const exited = waitForExit(child);
    const asked: Array<Record<string, unknown>> = [];
    onStdoutEvents(child, (event) => {
      if (event.type !== "control_request") return;
      asked.push(event.request as Record<string, unknown>);
      const response = {
        subtype: "success",
        request_id: event.request_id,
        response: { behavior: "allow", updatedInput: { url, prompt: "Which boats?" } },
      };
      child.stdin.write(`${JSON.stringify({ type: "control_response", response })}\n`);
    });
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "Read the page" } })}\n`);
    await waitForEvent(child, (event) => event.type === "result");
    child.stdin.end();
    const run = await exited;
    expectWellFormedRun(run, 1);
    expect(asked).toEqual([
      expect.objectContaining({ subtype: "can_use_tool", tool_name: "WebFetch", input: { url, prompt: "Which boats?" } }),
    ]);
    expect(String(asked[0]!.decision_reason)).toContain("127.0.0.1");
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain("loopback");
    expect(site.hits.size).toBe(0);
  });

  it("plan mode lets a fetch through (it only reads) when a rule names the host", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: `${site.url}/harbor.html` }));
    const run = await runFetch(["--permission-mode", "plan", "--allowedTools", "WebFetch(domain:127.0.0.1)"]);
    expectWellFormedRun(run, 1);
    expect(fetchResults(run.events)[0]).toMatchObject({ isError: false, details: { code: 200 } });
  });

  it("refuses host names without a dot unless a rule names them", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: "http://intranet/page" }));
    const run = await runFetch(["--dangerously-skip-permissions"]);
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain("host names without a dot");
  });

  it("opens a dotless local name over plain http when a rule names it (a local dev server)", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    const url = `${site.url.replace("127.0.0.1", "localhost")}/harbor.html`;
    await workspace.useScenario(fetchTurns({ url }));
    const run = await runFetch(["--allowedTools", "WebFetch(domain:localhost)"]);
    expectWellFormedRun(run, 1);
    expect(fetchResults(run.events)[0]).toMatchObject({ isError: false, details: { code: 200, url } });
    expect(site.hits.get("/harbor.html")).toBe(1);
  });

  it("upgrades http to https for a host no rule names, and still refuses its loopback address", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: `${site.url}/harbor.html` }));
    // A whole-tool rule approves fetching, but does not name the host: no plain http, no private address.
    const run = await runFetch(["--allowedTools", "WebFetch"]);
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain(`https://127.0.0.1:`);
    expect(result!.text).toContain("loopback");
  });

  it("follows a redirect within the site, and reports one to another host without following it", async () => {
    const other = await startSite("127.0.0.2", { "/target.html": html("<p>elsewhere</p>") });
    site = await startSite("127.0.0.1", {
      "/moved": (response) => response.writeHead(301, { location: "/harbor.html" }).end(),
      "/away": (response) => response.writeHead(302, { location: `${other.url}/target.html` }).end(),
      "/harbor.html": html(HARBOR_PAGE),
    });
    try {
      workspace = await createWorkspace("text");
      await workspace.useScenario(fetchTurns({ url: `${site.url}/moved` }, { url: `${site.url}/away`, prompt: "What is there?" }));
      const run = await runFetch(["--allowedTools", "WebFetch(domain:127.0.0.1)"]);
      expectWellFormedRun(run, 1);
      const [moved, away] = fetchResults(run.events);
      expect(moved!.isError).toBe(false);
      expect(moved!.text).toContain("Harbor Heading");
      expect(away!.isError).toBe(false);
      expect(away!.details.code).toBe(302);
      expect(away!.text).toContain("REDIRECT DETECTED");
      expect(away!.text).toContain(`Redirect URL (the server's Location header, not checked): ${other.url}/target.html`);
      expect(away!.text).toContain('- prompt: "What is there?"');
      expect(other.hits.size).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("reads a long page 100,000 characters at a time with offset, and serves a repeated URL from the cache", async () => {
    const words = Array.from({ length: 26_000 }, (_, index) => `w${index}`).join(" ");
    site = await startSite("127.0.0.1", {
      "/long.txt": (response) => response.writeHead(200, { "content-type": "text/plain" }).end(words),
    });
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: `${site.url}/long.txt` }, { url: `${site.url}/long.txt`, offset: 100_000 }));
    const run = await runFetch(["--allowedTools", "WebFetch(domain:127.0.0.1)"]);
    expectWellFormedRun(run, 1);
    const [first, second] = fetchResults(run.events);
    expect(first!.text).toContain(`the page's text is ${words.length} characters long and this covers characters 0 to 100000`);
    expect(first!.text).toContain("offset: 100000");
    expect(first!.text.startsWith(words.slice(0, 100_000))).toBe(true);
    expect(second!.text).toBe(words.slice(100_000));
    expect(site.hits.get("/long.txt")).toBe(1);
  });

  it("reports an HTTP error status as a failed fetch", async () => {
    site = await startSite("127.0.0.1", {});
    workspace = await createWorkspace("text");
    await workspace.useScenario(fetchTurns({ url: `${site.url}/missing` }));
    const run = await runFetch(["--allowedTools", "WebFetch(domain:127.0.0.1)"]);
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain("404 Not Found");
    expect(result!.details.code).toBe(404);
  });

  it("a page whose conversion would take minutes does not stall agentwire: SIGINT still ends the run at once", async () => {
    // ~150 KB of table rows: turndown's GFM table rule took minutes on it, in the main thread,
    // where no signal, interrupt or control request could be read until it finished.
    const slowTable = `<html><body><table>${"<tr><td>a</td><td>b</td></tr>".repeat(5000)}</table></body></html>`;
    site = await startSite("127.0.0.1", { "/slow.html": html(slowTable) });
    workspace = await createWorkspace("text");
    // WebFetch is deferred: the model loads it first.
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "ToolSearch", input: { query: "select:WebFetch" } }] },
        { tool_calls: [{ name: "WebFetch", input: { url: `${site.url}/slow.html` } }] },
        { text: "Done." },
      ],
    });
    const child = spawnAgentwire([...PRINT_ARGS, "--allowedTools", "WebFetch(domain:127.0.0.1)"], { workspace });
    child.stdin.end();
    const exited = waitForExit(child, 60_000);
    for (const startedAt = Date.now(); (site.hits.get("/slow.html") ?? 0) === 0 && Date.now() - startedAt < 20_000; )
      await new Promise((resolve) => setTimeout(resolve, 50));
    // The page is in and being converted.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const interruptedAt = Date.now();
    child.kill("SIGINT");
    const run = await exited;
    expect(Date.now() - interruptedAt).toBeLessThan(10_000);
    expect(run.code).toBe(130);
    expect(results(run.events)).toHaveLength(1);
  }, 90_000);
});

/** A self-signed certificate for 127.0.0.1 in `directory` (its own CA), or undefined without openssl. */
function testCertificate(directory: string): { key: string; cert: string } | undefined {
  const [key, cert] = [join(directory, "key.pem"), join(directory, "cert.pem")];
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
      ].concat(["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]),
      { stdio: "ignore" },
    );
    return { key, cert };
  } catch {
    return undefined;
  }
}

describe("WebFetch over https", () => {
  it("fetches from a server whose certificate the test CA signs (NODE_EXTRA_CA_CERTS), and refuses it untrusted", async () => {
    workspace = await createWorkspace("text");
    const certificate = testCertificate(workspace.root);
    if (!certificate) return;
    const tls = createTlsServer({ key: readFileSync(certificate.key), cert: readFileSync(certificate.cert) }, (_, response) =>
      html(HARBOR_PAGE)(response),
    );
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    try {
      const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/harbor.html`;
      await workspace.useScenario(fetchTurns({ url }));
      const rule = ["--allowedTools", "WebFetch(domain:127.0.0.1)"];
      const trusted = await runFetch(rule, { NODE_EXTRA_CA_CERTS: certificate.cert });
      expectWellFormedRun(trusted, 1);
      expect(fetchResults(trusted.events)[0]).toMatchObject({ isError: false, details: { code: 200, url } });
      expect(fetchResults(trusted.events)[0]!.text).toContain("Harbor Heading");
      await workspace.useScenario(fetchTurns({ url }));
      const untrusted = await runFetch(rule);
      expect(fetchResults(untrusted.events)[0]).toMatchObject({ isError: true });
      expect(fetchResults(untrusted.events)[0]!.text).toMatch(/self.signed certificate/i);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});

describe("WebFetch with a prompt: a side request without tools, counted in modelUsage only", () => {
  it.each(Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[])("%s", async (provider) => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "WebFetch", input: { url: `${site.url}/harbor.html`, prompt: "Which boats?" } }] },
        { text: "A skiff, 4m long.", usage: { input_tokens: 500, output_tokens: 7 } },
        { text: "Done." },
      ],
    });
    const run = await runFetch(["--allowedTools", "WebFetch(domain:127.0.0.1)"], {}, provider);
    expectWellFormedRun(run, 1);
    const [result] = fetchResults(run.events);
    expect(result!.isError).toBe(false);
    expect(result!.text).toBe("A skiff, 4m long.");
    expect(result!.details.result).toBe("A skiff, 4m long.");
    const side = workspace.server.requests[1]!.body as Record<string, unknown>;
    const sideText = JSON.stringify(side);
    expect(sideText).toContain("Harbor Heading");
    expect(sideText).toContain("Which boats?");
    expect(side.tools === undefined || (Array.isArray(side.tools) && side.tools.length === 0)).toBe(true);
    const final = results(run.events).at(-1) as ResultEvent;
    const model = PROVIDERS_UNDER_TEST[provider].model;
    const mainInput = final.usage.input_tokens;
    expect(final.modelUsage[model]!.inputTokens).toBeGreaterThan(mainInput);
  });

  it("goes to the small fast model when ANTHROPIC_DEFAULT_HAIKU_MODEL names one", async () => {
    site = await startSite("127.0.0.1", { "/harbor.html": html(HARBOR_PAGE) });
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "WebFetch", input: { url: `${site.url}/harbor.html`, prompt: "Which boats?" } }] },
        { text: "A skiff.", usage: { input_tokens: 400, output_tokens: 3 } },
        { text: "Done." },
      ],
    });
    const run = await runFetch(["--allowedTools", "WebFetch(domain:127.0.0.1)"], { ANTHROPIC_DEFAULT_HAIKU_MODEL: "claude-haiku-4-5" });
    expectWellFormedRun(run, 1);
    expect((workspace.server.requests[1]!.body as { model: string }).model).toBe("claude-haiku-4-5");
    const final = results(run.events).at(-1) as ResultEvent;
    expect(final.modelUsage["claude-haiku-4-5"]).toMatchObject({ inputTokens: 400, outputTokens: 3 });
    expect(final.usage.input_tokens).toBeLessThan(final.modelUsage["claude-opus-5-5"]!.inputTokens + 1);
    expect(final.total_cost_usd).toBeGreaterThan(final.modelUsage["claude-opus-5-5"]!.costUSD);
  });
});
