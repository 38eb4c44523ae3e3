import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startYumeBackend,
  YUME_CLI,
  yumeBackendMissing,
  type ShimRecord,
  type UiEvent,
  type YumeBackend,
  type YumeUi,
} from "../helpers/yume-backend.js";
import {
  isStreamEnd,
  isTitleInvocation,
  PROJECT_FILES,
  stepOf,
  TITLE,
  YUME_MODELS,
  YUME_STEPS,
  type RecordedInvocation,
  type YumeModelChoice,
  type YumeStep,
} from "../helpers/yume.js";

/**
 * Yume's real backend, unmodified, driving agentwire as its `claude`, through the socket events
 * its UI sends: each step of a working day with both of Yume's models. Runs where a Yume backend
 * is installed (fixtures/yume/README.md says how); the replay test (yume.test.ts) covers the same
 * invocations everywhere. AGENTWIRE_YUME_RECORD=DIR writes what every CLI process was given, in
 * the form of fixtures/yume/; AGENTWIRE_YUME_CLI=PATH runs the same steps against a real Claude Code.
 */

const missing = await yumeBackendMissing();

describe.skipIf(missing !== undefined)(`Yume's backend drives ${YUME_CLI.name}${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let backend: YumeBackend;
  const recordsByModel = new Map<YumeModelChoice, ShimRecord[]>();

  beforeAll(async () => {
    backend = await startYumeBackend({ turns: [{ text: TITLE, repeat: true }] });
  });

  afterAll(async () => {
    const keep = process.env.AGENTWIRE_YUME_RECORD;
    if (keep && backend) {
      await mkdir(keep, { recursive: true });
      for (const [choice, records] of recordsByModel) {
        await writeFile(join(keep, `${choice}-model.json`), `${JSON.stringify(asFixture(records, backend), null, 2)}\n`);
      }
      await writeFile(join(keep, "raw-records.json"), `${JSON.stringify(await backend.records(), null, 2)}\n`);
      await writeFile(join(keep, "server-stderr.txt"), backend.serverStderr());
    }
    await backend?.close();
  });

  for (const [choice, model] of Object.entries(YUME_MODELS) as Array<[YumeModelChoice, string]>) {
    describe(`${choice} model (${model})`, () => {
      let ui: YumeUi;
      /** Every window of this model's steps, for the errors they showed. */
      const windows: YumeUi[] = [];
      let sessionId: string;
      let claudeSessionId: string;
      let firstRecord = 0;
      let turnEvents: UiEvent[] = [];

      /** Serves the step's model turns, sends its message as the UI does and waits until the UI shows the turn ended. */
      async function send(step: YumeStep) {
        const server = await backend.useScenario({ turns: YUME_STEPS[step].turns(backend.project) });
        const before = ui.events(sessionId).length;
        const answer = await ui.call<{ success: boolean }>("sendMessage", {
          sessionId,
          content: YUME_STEPS[step].message,
          model,
          autoGenerateTitle: true,
          systemPromptSettings: {},
        });
        expect(answer).toEqual({ success: true });
        await ui.waitFor(sessionId, (event) => ui.events(sessionId).indexOf(event) >= before && isStreamEnd(event.payload));
        turnEvents = ui.events(sessionId).slice(before);
        return { events: turnEvents, server };
      }
      const payloads = (events: UiEvent[], type: string) =>
        events.filter((event) => event.channel === "message" && event.payload.type === type).map((event) => event.payload);
      /** Yume shows each stderr chunk as an error and stops showing the turn as running. */
      const expectNoError = (events: UiEvent[]) => expect(payloads(events, "error"), "no error reached the UI").toEqual([]);
      const records = async (): Promise<ShimRecord[]> => (await backend.records()).slice(firstRecord);
      const lastTurnRecord = async (): Promise<ShimRecord> => (await records()).filter((record) => !isTitleInvocation(record)).at(-1)!;
      const toolResultText = (payload: Record<string, unknown> | undefined) =>
        String((payload?.message as { content?: unknown } | undefined)?.content);

      beforeAll(async () => {
        firstRecord = (await backend.records()).length;
        ui = await backend.connect();
        windows.push(ui);
        await rm(join(backend.project, "todo.md"), { force: true });
        for (const [name, content] of Object.entries(PROJECT_FILES)) await writeFile(join(backend.project, name), content);
      });

      afterAll(async () => {
        recordsByModel.set(choice, await records());
      });

      it("1. opens a session in the project folder", async () => {
        const answer = await ui.call<{ success: boolean; sessionId: string; workingDirectory: string }>("createSession", {
          name: "new session",
          workingDirectory: backend.project,
        });
        expect(answer).toMatchObject({ success: true, workingDirectory: backend.project });
        sessionId = answer.sessionId;
      });

      it("2. a text answer", async () => {
        const { events } = await send("text");
        const init = payloads(events, "system").find((payload) => payload.subtype === "init");
        expect(init, "system/init reaches the UI").toBeDefined();
        claudeSessionId = (init!.message as { session_id: string }).session_id;
        const assistant = payloads(events, "assistant").find((payload) => payload.streaming === true);
        expect(assistant?.message).toMatchObject({ content: [{ type: "text", text: "2 + 2 = 4" }] });
        expect(payloads(events, "result")).toEqual([
          expect.objectContaining({ is_error: false, result: "2 + 2 = 4", session_id: claudeSessionId, model }),
        ]);
        expectNoError(events);
      });

      it("3. a title from the title generator", async () => {
        const title = await ui.waitFor(sessionId, (event) => event.channel === "title", 10_000);
        expect(title.payload).toEqual({ title: TITLE });
      });

      it("4. the turn's cost", () => {
        const [result] = payloads(turnEvents, "result");
        expect(result?.total_cost_usd).toBeGreaterThan(0);
      });

      it("5. a Read", async () => {
        const { events } = await send("read");
        expect(payloads(events, "tool_use")).toEqual([
          expect.objectContaining({
            message: expect.objectContaining({ name: "Read", input: { file_path: join(backend.project, "notes.txt") } }),
          }),
        ]);
        const [result] = payloads(events, "tool_result");
        expect(result?.message).not.toMatchObject({ is_error: true });
        expect(toolResultText(result)).toContain("ship on friday");
        expect(payloads(events, "result")).toEqual([expect.objectContaining({ is_error: false, result: "it says ship on friday" })]);
        expectNoError(events);
      });

      it("6. a Write", async () => {
        const { events } = await send("write");
        // Yume keeps a snapshot for its rollback button from the tool_use it is shown (whether the file
        // is still new then is a race between its reading the line and the CLI's writing the file).
        const file = join(backend.project, "todo.md");
        expect(payloads(events, "tool_use")).toEqual([
          expect.objectContaining({
            message: expect.objectContaining({ name: "Write" }),
            fileSnapshot: expect.objectContaining({ path: file }),
          }),
        ]);
        expect(payloads(events, "tool_result")[0]?.message).not.toMatchObject({ is_error: true });
        expect(await readFile(file, "utf8")).toBe("- release\n");
        expectNoError(events);
      });

      it("7. a Bash command", async () => {
        const { events } = await send("bash");
        expect(payloads(events, "tool_use")).toEqual([expect.objectContaining({ message: expect.objectContaining({ name: "Bash" }) })]);
        const [result] = payloads(events, "tool_result");
        expect(result?.message).not.toMatchObject({ is_error: true });
        expect(toolResultText(result)).toContain("notes.txt");
        expectNoError(events);
      });

      it("8. the next message resumes the conversation", async () => {
        const { events, server } = await send("followUp");
        expect((await lastTurnRecord()).argv).toEqual(expect.arrayContaining(["--resume", claudeSessionId]));
        expect(JSON.stringify(server.requests[0]?.body)).toContain(YUME_STEPS.text.message);
        expect(payloads(events, "result")).toEqual([expect.objectContaining({ is_error: false, session_id: claudeSessionId })]);
        expectNoError(events);
      });

      it("9. a session reopened from history after a restart resumes", async () => {
        ui.close();
        ui = await backend.connect();
        windows.push(ui);
        // What the UI sends when it reopens a past conversation (App.minimal.tsx, ClaudeChat.tsx).
        const reopened = `session-reopened-${choice}`;
        const answer = await ui.call<{ success: boolean; sessionId: string }>("createSession", {
          name: "reopened",
          workingDirectory: backend.project,
          sessionId: reopened,
          existingSessionId: reopened,
          claudeSessionId,
          messages: [{ type: "user", message: { content: YUME_STEPS.text.message } }],
        });
        expect(answer).toMatchObject({ success: true, sessionId: reopened });
        sessionId = reopened;
        const { events, server } = await send("reopened");
        expect((await lastTurnRecord()).argv).toEqual(expect.arrayContaining(["--resume", claudeSessionId]));
        expect(JSON.stringify(server.requests[0]?.body)).toContain(YUME_STEPS.followUp.message);
        expect(payloads(events, "result")).toEqual([expect.objectContaining({ is_error: false, result: "still here" })]);
        expectNoError(events);
      });

      it("10. interrupt stops the running turn", async () => {
        await backend.useScenario({ turns: YUME_STEPS.interrupted.turns() });
        const before = ui.events(sessionId).length;
        const started = (await backend.records()).length;
        await ui.call("sendMessage", {
          sessionId,
          content: YUME_STEPS.interrupted.message,
          model,
          autoGenerateTitle: true,
          systemPromptSettings: {},
        });
        await ui.waitFor(sessionId, (event) => ui.events(sessionId).indexOf(event) >= before && event.payload.type === "tool_use");
        const answer = await ui.call<{ success: boolean }>("interrupt", { sessionId });
        expect(answer).toEqual({ success: true });
        const deadline = Date.now() + 10_000;
        while ((await backend.records()).length === started && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        const record = (await backend.records()).at(-1)!;
        expect(stepOf(record)).toBe("interrupted");
        expect(record.code, "exits with a code (Yume reports a death by signal as 'terminated unexpectedly')").not.toBeNull();
        turnEvents = ui.events(sessionId).slice(before);
        expect(payloads(turnEvents, "system").map((payload) => payload.subtype)).toContain("interrupted");
        expectNoError(turnEvents);
      });

      it("11. the message after an interrupt resumes with the interrupted turn", async () => {
        const { events, server } = await send("afterInterrupt");
        expect((await lastTurnRecord()).argv).toEqual(expect.arrayContaining(["--resume", claudeSessionId]));
        expect(JSON.stringify(server.requests[0]?.body)).toContain(YUME_STEPS.interrupted.message);
        expect(payloads(events, "result")).toEqual([expect.objectContaining({ is_error: false, result: "stopped waiting" })]);
        expectNoError(events);
      });

      it("12. /compact: Yume's backend sees the compaction", async () => {
        const { events } = await send("compact");
        expect((await lastTurnRecord()).argv).toEqual(expect.arrayContaining(["--model", YUME_MODELS.sonnet, "--resume", claudeSessionId]));
        // Yume's backend takes a result with zero usage for a finished compaction (and resets its context meter).
        expect(payloads(events, "result")).toEqual([expect.objectContaining({ is_error: false, wrapper_compact: expect.anything() })]);
        expectNoError(events);
      });

      it("13. nothing on stderr, no error in the UI", async () => {
        const stderr = (await records()).filter((record) => record.stderr !== "").map((record) => `${stepOf(record)}: ${record.stderr}`);
        expect(stderr).toEqual([]);
        expect(windows.flatMap((window) => window.allEvents()).filter((event) => event.payload.type === "error")).toEqual([]);
      });
    });
  }
});

/**
 * One model's records in the form of fixtures/yume/: what Yume gave each process, in step order
 * (a turn before the title it triggered), with the values of this machine and run as placeholders.
 */
function asFixture(records: ShimRecord[], backend: YumeBackend): RecordedInvocation[] {
  const steps = Object.keys(YUME_STEPS);
  const inherited = process.env.PATH ?? "";
  const replace = (text: string, record: ShimRecord): string => {
    let result = text.replaceAll(backend.project, "{project}").replaceAll(backend.home, "{home}");
    if (inherited) result = result.replaceAll(inherited, "{PATH}");
    for (const [name, placeholder] of [
      ["CLAUDE_SESSION_ID", "{yume_session_id}"],
      ["CLAUDE_INSTANCE", "{instance}"],
    ] as const) {
      const value = record.env[name];
      if (value) result = result.replaceAll(value, placeholder);
    }
    return result.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "{claude_session_id}");
  };
  return records
    .map((record) => ({
      step: stepOf(record)!,
      kind: isTitleInvocation(record) ? ("title" as const) : ("turn" as const),
      argv: record.argv.map((arg) => replace(arg, record)),
      cwd: replace(record.cwd, record),
      env: Object.fromEntries(Object.entries(record.env).map(([name, value]) => [name, replace(value, record)])),
      stdin: replace(record.stdin, record),
    }))
    .sort((a, b) => steps.indexOf(a.step) - steps.indexOf(b.step) || (a.kind === "turn" ? -1 : 1) - (b.kind === "turn" ? -1 : 1));
}
