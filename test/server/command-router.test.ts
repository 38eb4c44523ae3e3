import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { routeLine } from "../../src/server/command-router.js";
import { createStreamInputContext } from "../../src/server/stream-input-context.js";
import { createSession } from "../../src/session/session.js";
import { FakeProvider, textTurn } from "../helpers/fake-provider.js";

/**
 * The stdin command router in this process, over a real session core with a scripted provider:
 * each line goes to the handler of its command type or control subtype, and only once it matches
 * that handler's schema.
 */
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function setUp() {
  root = await mkdtemp(join(tmpdir(), "agentwire-router-"));
  const output: OutputEvent[] = [];
  const session = createSession({
    cwd: root,
    provider: "anthropic",
    model: "claude-opus-5-5",
    env: {},
    home: join(root, ".home"),
    providerInstance: new FakeProvider([textTurn("Hi.")]),
    persistSession: false,
    onEvent: (event) => output.push(event),
  });
  const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const context = createStreamInputContext({
    input: Readable.from([]),
    session,
    output: (event) => output.push(event),
    log: silent,
    frames: undefined,
    pid: 1234,
    models: [],
    host: undefined,
    announceSessionState: false,
    hostMcpServers: [],
    env: {},
  });
  let number = 0;
  const send = (value: unknown): void =>
    routeLine({ kind: "line", text: typeof value === "string" ? value : JSON.stringify(value), number: ++number }, context);
  return { session, context, output, send };
}

const control = (request_id: string, request: Record<string, unknown>) => ({ type: "control_request", request_id, request });
const answers = (output: OutputEvent[]) => output.flatMap((event) => (event.type === "control_response" ? [event.response] : []));
const inputErrors = (output: OutputEvent[]) =>
  output.flatMap((event) => (event.type === "system" && event.subtype === "input_error" ? [{ line: event.line, ...event.error }] : []));

describe("the stdin command router", () => {
  it("runs a control handler only when the request matches its schema", async () => {
    const { session, output, send } = await setUp();
    const before = session.permissionMode;
    send(control("bad", { subtype: "set_permission_mode", mode: "whatever" }));
    expect(session.permissionMode).toBe(before);
    send(control("good", { subtype: "set_permission_mode", mode: "plan" }));
    expect(session.permissionMode).toBe("plan");
    send(control("tokens", { subtype: "set_max_thinking_tokens", max_thinking_tokens: -1 }));
    send(control("model", { subtype: "set_model", model: 7 }));
    expect(answers(output)).toEqual([
      { subtype: "error", request_id: "bad", error: "Unknown permission mode: whatever" },
      { subtype: "success", request_id: "good", response: { mode: "plan" } },
      {
        subtype: "error",
        request_id: "tokens",
        error: "max_thinking_tokens must be a non-negative number, or null for the session's first budget",
      },
      {
        subtype: "error",
        request_id: "model",
        error: 'set_model: model must be a model id, or absent, null or "default" for the session\'s first model',
      },
    ]);
    await session.close();
  });

  it("answers an unknown subtype with an error naming it, also one that names a property every object has", async () => {
    const { session, output, send } = await setUp();
    for (const subtype of ["rewind_files", "toString", "__proto__", "constructor"]) send(control(subtype, { subtype }));
    expect(answers(output)).toEqual(
      ["rewind_files", "toString", "__proto__", "constructor"].map((subtype) => ({
        subtype: "error",
        request_id: subtype,
        error: `Unsupported control request subtype: ${subtype}`,
      })),
    );
    await session.close();
  });

  it("reports lines that are no command, with their line number, and runs nothing for them", async () => {
    const { session, output, send } = await setUp();
    send("{not json");
    send([1, 2]);
    send({ content: "no type" });
    send({ type: "toString" });
    send({ type: "user", content: "hi", extra: true });
    send({ type: "tool_approval", id: "nobody-asked", approved: true });
    expect(inputErrors(output).map(({ line, code }) => `${line}:${code}`)).toEqual([
      "1:invalid_json",
      "2:invalid_command",
      "3:invalid_command",
      "4:invalid_command",
      "5:invalid_command",
      "6:unsupported",
    ]);
    expect(inputErrors(output)[3]?.message).toMatch(/^Unknown or malformed command type "toString"/);
    expect(inputErrors(output)[4]?.message).toMatch(/^Invalid "user" command: /);
    expect(output.some((event) => event.type === "result")).toBe(false);
    await session.close();
  });

  it("queues a user line as a turn and answers interrupt at once, before the turn's lines", async () => {
    const { session, context, output, send } = await setUp();
    send({ type: "user", message: { role: "user", content: "hello" } });
    send(control("stop", { subtype: "interrupt" }));
    expect(answers(output)).toEqual([{ subtype: "success", request_id: "stop", response: { still_queued: [] } }]);
    await context.turns.idle();
    expect(output.at(-1)).toMatchObject({ type: "result", result: "Hi." });
    await session.close();
  });
});
