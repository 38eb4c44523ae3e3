import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OutputEventSchema, type OutputEvent } from "../../protocol/events.js";
import { createWorkspace, runAgentwire, type Workspace } from "../helpers/agentwire.js";
import { startWeb as startWebServer, stopWeb, type Web } from "../helpers/web.js";

/**
 * `agentwire web`'s HTTP API over loopback against the replay server: the access rules, sessions
 * created, streamed (SSE), interrupted and answered, reconnects with Last-Event-ID, two sessions
 * at once, the shared session store, and bad requests.
 */
let workspace: Workspace | undefined;
let server: ChildProcess | undefined;

afterEach(async () => {
  const [running, used] = [server, workspace];
  [server, workspace] = [undefined, undefined];
  if (running) await stopWeb(running);
  await used?.cleanup();
});

async function startWeb(extraArgs: string[] = []): Promise<Web> {
  const web = await startWebServer(workspace!, extraArgs);
  server = web.child;
  return web;
}

/** An SSE reader: every event validated as a stream-json OutputEvent, with its id. */
function openEvents(web: Web, sessionId: string, lastEventId?: number) {
  const events: Array<{ id: number; event: OutputEvent }> = [];
  const waiters: Array<() => void> = [];
  const outgoing = httpRequest({
    host: "127.0.0.1",
    port: web.port,
    path: `/api/sessions/${sessionId}/events`,
    headers: { Authorization: `Bearer ${web.token}`, ...(lastEventId === undefined ? {} : { "Last-Event-ID": String(lastEventId) }) },
  });
  outgoing.on("response", (response) => {
    let buffer = "";
    response.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      const messages = buffer.split("\n\n");
      buffer = messages.pop()!;
      for (const message of messages) {
        const id = /^id: (\d+)$/m.exec(message)?.[1];
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (id === undefined || data === undefined) continue;
        events.push({ id: Number(id), event: OutputEventSchema.parse(JSON.parse(data)) });
        for (const wake of waiters.splice(0)) wake();
      }
    });
  });
  outgoing.on("error", () => undefined);
  outgoing.end();
  const until = async (predicate: (event: OutputEvent) => boolean, timeoutMs = 10_000): Promise<OutputEvent> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find((entry) => predicate(entry.event));
      if (found) return found.event;
      if (Date.now() > deadline) throw new Error(`no such event; saw ${events.map((entry) => entry.event.type).join(", ")}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  return { events, until, close: () => outgoing.destroy() };
}

const isResult = (event: OutputEvent) => event.type === "result";

describe("agentwire web: the API", () => {
  it("refuses requests without the token, from another Host or Origin, and state changes without Origin or Authorization", async () => {
    workspace = await createWorkspace("text");
    const web = await startWeb();
    expect((await web.call("GET", "/api/info", undefined, { Authorization: "" })).status).toBe(401);
    expect((await web.call("GET", "/api/info", undefined, { Authorization: "Bearer wrong" })).status).toBe(401);
    expect((await web.call("GET", "/api/info", undefined, { Host: `attacker.example:${web.port}` })).status).toBe(403);
    expect((await web.call("POST", "/api/sessions", {}, { Origin: "http://attacker.example" })).status).toBe(403);
    // No cookie is ever set or taken: cookies are not kept apart by port, another local server could read it.
    const page = await web.call("GET", `/?token=${web.token}`, undefined, { Authorization: "" });
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect((await web.call("GET", "/api/info", undefined, { Authorization: "", Cookie: `agentwire_token=${web.token}` })).status).toBe(401);
    // A POST with only a query token and no Origin: refused (a page elsewhere cannot send our Origin).
    expect((await web.call("POST", `/api/sessions?token=${web.token}`, {}, { Authorization: "" })).status).toBe(403);
    // The page's own requests: the Bearer token with the server's Origin; its event stream: ?token=.
    const fromPage = await web.call("POST", "/api/sessions", {}, { Origin: web.base });
    expect(fromPage.status).toBe(201);
    expect(
      (
        await web.call("GET", `/api/sessions/${(fromPage.body as { id: string }).id}/history?token=${web.token}`, undefined, {
          Authorization: "",
        })
      ).status,
    ).toBe(200);
    const info = await web.call("GET", "/api/info");
    expect(info).toMatchObject({
      status: 200,
      body: {
        cwd: workspace.cwd,
        defaults: { permissionMode: "default" },
        models: expect.arrayContaining([expect.objectContaining({ provider: "anthropic" })]),
      },
    });
    expect(info.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("with no --model, new sessions default to the model agentwire -p would use, and /api/info names it", async () => {
    workspace = await createWorkspace("text");
    const cli = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose"], { workspace });
    const init = cli.events.find((event) => event.type === "system" && event.subtype === "init") as { model: string; provider: string };
    const web = await startWeb();
    const info = await web.call("GET", "/api/info");
    expect((info.body as { defaults: unknown }).defaults).toEqual({
      provider: init.provider,
      model: init.model,
      permissionMode: "default",
    });
  });

  it("runs a session: SSE carries exactly the stream-json events; a reconnect with Last-Event-ID loses nothing", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { text: "Hello from the web." },
        { text: "Second answer." },
        { text: "From the CLI." },
        { text: "Slow answer.", chunk_delay_ms: 400 },
      ],
    });
    const web = await startWeb();
    const created = await web.call("POST", "/api/sessions", {});
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const stream = openEvents(web, id);
    expect((await web.call("POST", `/api/sessions/${id}/messages`, { text: "hi" })).status).toBe(202);
    const result = await stream.until(isResult);
    expect(result).toMatchObject({ subtype: "success", result: "Hello from the web.", session_id: id });
    expect(stream.events[0]?.event).toMatchObject({ type: "system", subtype: "init", session_id: id });
    // The user's message follows its turn's init, so a page that reloads mid-turn shows what was asked.
    expect(stream.events[1]?.event).toMatchObject({
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "hi" }] },
      session_id: id,
    });
    expect(stream.events.some((entry) => entry.event.type === "stream_event")).toBe(true);
    const seen = stream.events.length;
    stream.close();
    // Events of the second turn arrive while nobody listens; the reconnect gets exactly those.
    await web.call("POST", `/api/sessions/${id}/messages`, { text: "again" });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const resumed = openEvents(web, id, seen);
    const second = await resumed.until(isResult);
    expect(second).toMatchObject({ result: "Second answer." });
    expect(resumed.events[0]!.id).toBe(seen + 1);
    expect(resumed.events.map((entry) => entry.id)).toEqual(resumed.events.map((_, index) => seen + 1 + index));
    resumed.close();
    // The same store as the CLI. Between turns the session's file is free: agentwire --resume
    // continues it while the server runs, and the page's next turn goes on after the CLI's.
    const cli = await runAgentwire(["-p", "and now", "--output-format", "stream-json", "--resume", id], { workspace });
    expect(cli.events.at(-1)).toMatchObject({ type: "result", session_id: id, result: "From the CLI." });
    // While a web turn runs, it is the one writer: the CLI is refused.
    const third = openEvents(web, id, seen + resumed.events.length);
    await web.call("POST", `/api/sessions/${id}/messages`, { text: "slowly" });
    await third.until((event) => event.type === "system" && event.subtype === "init");
    const whileRunning = await runAgentwire(["-p", "meanwhile", "--output-format", "stream-json", "--resume", id], { workspace });
    expect(whileRunning.stderr + whileRunning.stdout).toMatch(/in use by another agentwire process/);
    expect(await third.until(isResult)).toMatchObject({ result: "Slow answer." });
    third.close();
    const lastRequest = workspace.server.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(lastRequest.messages)).toContain("and now");
    expect(JSON.stringify(lastRequest.messages)).toContain("From the CLI.");
  });

  it("asks permission questions as can_use_tool control requests and applies the page's answer", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Write", input: { file_path: "made.txt", content: "made on the web\n" } }] }, { text: "Written." }],
    });
    const web = await startWeb();
    const id = ((await web.call("POST", "/api/sessions", {})).body as { id: string }).id;
    const stream = openEvents(web, id);
    await web.call("POST", `/api/sessions/${id}/messages`, { text: "write it" });
    const question = await stream.until((event) => event.type === "control_request");
    expect(question).toMatchObject({
      type: "control_request",
      request: { subtype: "can_use_tool", tool_name: "Write", input: { file_path: "made.txt" }, decision_reason: expect.any(String) },
    });
    const requestId = (question as { request_id: string }).request_id;
    expect((await web.call("POST", `/api/sessions/${id}/permissions/${requestId}`, { behavior: "allow" })).status).toBe(200);
    expect((await web.call("POST", `/api/sessions/${id}/permissions/${requestId}`, { behavior: "allow" })).status).toBe(404);
    expect(await stream.until(isResult)).toMatchObject({ subtype: "success", result: "Written." });
    expect(await readFile(join(workspace.cwd, "made.txt"), "utf8")).toBe("made on the web\n");
    const toolResult = stream.events.find((entry) => entry.event.type === "user" && entry.event.message.content[0].type === "tool_result")!
      .event as { tool_use_result?: { structuredPatch?: unknown } };
    expect(toolResult.tool_use_result?.structuredPatch).toBeDefined();
    stream.close();
  });

  it("interrupts a running turn: the turn ends with its result, the session takes the next message", async () => {
    workspace = await createWorkspace("text");
    const long = Array.from({ length: 200 }, (_, index) => `word${index}`).join(" ");
    await workspace.useScenario({ turns: [{ text: long, chunk_delay_ms: 50 }, { text: "After the stop." }] });
    const web = await startWeb();
    const id = ((await web.call("POST", "/api/sessions", {})).body as { id: string }).id;
    const stream = openEvents(web, id);
    await web.call("POST", `/api/sessions/${id}/messages`, { text: "talk" });
    await stream.until((event) => event.type === "stream_event");
    expect((await web.call("POST", `/api/sessions/${id}/interrupt`)).status).toBe(202);
    const stopped = await stream.until(isResult);
    expect(stopped).toMatchObject({ is_error: true });
    await web.call("POST", `/api/sessions/${id}/messages`, { text: "go on" });
    await stream.until((event) => event.type === "result" && event.result === "After the stop.");
    stream.close();
  });

  it("runs two sessions at once, each in its own folder; lists, resumes and deletes stored sessions", async () => {
    workspace = await createWorkspace("text");
    const other = join(workspace.cwd, "..", "other");
    await mkdir(other);
    await workspace.useScenario({ turns: [{ text: "one", chunk_delay_ms: 20, repeat: true }] });
    const earlier = await runAgentwire(["-p", "stored before the server", "--output-format", "stream-json"], { workspace });
    const storedId = (earlier.events.at(-1) as { session_id: string }).session_id;
    const web = await startWeb(["--add-dir", other]);
    const first = ((await web.call("POST", "/api/sessions", {})).body as { id: string }).id;
    const second = ((await web.call("POST", "/api/sessions", { cwd: other })).body as { id: string }).id;
    const streams = [openEvents(web, first), openEvents(web, second)];
    await Promise.all([
      web.call("POST", `/api/sessions/${first}/messages`, { text: "a" }),
      web.call("POST", `/api/sessions/${second}/messages`, { text: "b" }),
    ]);
    const [initA, initB] = await Promise.all(
      streams.map((stream) => stream.until((event) => event.type === "system" && event.subtype === "init")),
    );
    expect([initA, initB].map((event) => (event as { cwd: string }).cwd)).toEqual([workspace.cwd, other]);
    await Promise.all(streams.map((stream) => stream.until(isResult)));
    for (const stream of streams) stream.close();

    const listed = (await web.call("GET", "/api/sessions")).body as Array<{ id: string; running: boolean; firstPrompt: string }>;
    expect(listed.map((row) => row.id)).toEqual(expect.arrayContaining([first, second, storedId]));
    expect(listed.find((row) => row.id === storedId)).toMatchObject({ running: false, firstPrompt: "stored before the server" });
    expect(((await web.call("GET", "/api/sessions?q=before%20the%20server")).body as unknown[]).length).toBe(1);

    const history = (await web.call("GET", `/api/sessions/${storedId}/history`)).body as Array<{ type: string }>;
    expect(history.map((event) => event.type)).toEqual(["user", "assistant"]);
    expect((await web.call("POST", "/api/sessions", { resume: storedId })).body).toEqual({ id: storedId });
    const resumed = openEvents(web, storedId);
    await web.call("POST", `/api/sessions/${storedId}/messages`, { text: "continued on the web" });
    expect(await resumed.until(isResult)).toMatchObject({ session_id: storedId, num_turns: 1 });
    resumed.close();

    expect((await web.call("DELETE", `/api/sessions/${storedId}`)).status).toBe(204);
    expect(((await web.call("GET", "/api/sessions")).body as Array<{ id: string }>).map((row) => row.id)).not.toContain(storedId);
    expect((await web.call("GET", `/api/sessions/${storedId}/history`)).status).toBe(404);
  });

  it("keeps to its folders: a stored session of another folder cannot be read, resumed or deleted", async () => {
    workspace = await createWorkspace("text");
    const elsewhere = join(workspace.cwd, "..", "elsewhere");
    await mkdir(elsewhere);
    await workspace.useScenario({ turns: [{ text: "private" }] });
    const outside = await runAgentwire(["-p", "secret plans", "--output-format", "stream-json", "--cwd", elsewhere], { workspace });
    const outsideId = (outside.events.at(-1) as { session_id: string }).session_id;
    const web = await startWeb();
    expect(((await web.call("GET", "/api/sessions")).body as Array<{ id: string }>).map((row) => row.id)).not.toContain(outsideId);
    expect((await web.call("GET", `/api/sessions/${outsideId}/history`)).status).toBe(404);
    expect((await web.call("POST", "/api/sessions", { resume: outsideId })).status).toBe(404);
    expect((await web.call("DELETE", `/api/sessions/${outsideId}`)).status).toBe(404);
    expect(existsSync(join(workspace.home, ".agentwire"))).toBe(true);
    const stillThere = await runAgentwire(["-p", "again", "--output-format", "stream-json", "--cwd", elsewhere, "--resume", outsideId], {
      workspace,
    });
    expect(stillThere.events.at(-1)).toMatchObject({ type: "result", session_id: outsideId });
  });

  it("answers bad requests with a 4xx and a JSON error, and survives a reader that disconnects and a model error", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ error: { status: 401, message: "invalid x-api-key" } }] });
    const web = await startWeb();
    expect(await web.call("POST", "/api/sessions", "{not json")).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("not JSON") },
    });
    expect(await web.call("POST", "/api/sessions", { cwd: "/" })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("outside") },
    });
    expect(await web.call("POST", "/api/sessions", { permissionMode: "whatever" })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("permissionMode") },
    });
    expect(await web.call("POST", "/api/sessions", { resume: "00000000-0000-4000-8000-000000000000" })).toMatchObject({ status: 404 });
    expect(await web.call("GET", "/api/sessions/not-an-id/events")).toMatchObject({ status: 404, body: { error: expect.any(String) } });
    expect(await web.call("GET", "/api/sessions/00000000-0000-4000-8000-000000000000/events")).toMatchObject({ status: 404 });
    expect(await web.call("GET", "/assets/../../package.json")).toMatchObject({ status: 404 });
    const id = ((await web.call("POST", "/api/sessions", {})).body as { id: string }).id;
    expect(await web.call("POST", `/api/sessions/${id}/messages`, { text: "" })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("text") },
    });
    const dropped = openEvents(web, id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    dropped.close();
    await web.call("POST", `/api/sessions/${id}/messages`, { text: "hi" });
    const stream = openEvents(web, id);
    expect(await stream.until(isResult)).toMatchObject({ is_error: true, subtype: "error_during_execution" });
    stream.close();
    expect((await web.call("GET", "/api/info")).status).toBe(200);
    expect(existsSync(join(workspace.cwd, "made.txt"))).toBe(false);
  });
});
