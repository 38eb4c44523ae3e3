import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { createSession } from "../../src/session/session.js";
import { TurnQueue } from "../../src/session/turn-queue.js";
import { toUserMessage } from "../../src/session/user-input.js";
import { FakeProvider, hangingTurn, textTurn, type ScriptedTurn } from "../helpers/fake-provider.js";
import { sequence } from "../helpers/agentwire.js";

/** The turn queue over a real session core with a scripted provider: no CLI, no stdin. */
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function setUp(turns: ScriptedTurn[], extra: { beforeTurns?: () => Promise<void> } = {}) {
  root = await mkdtemp(join(tmpdir(), "agentwire-turn-queue-"));
  const events: OutputEvent[] = [];
  const states: string[] = [];
  const provider = new FakeProvider(turns);
  const session = createSession({
    cwd: root,
    provider: "anthropic",
    model: "claude-opus-5-5",
    env: {},
    home: join(root, ".home"),
    providerInstance: provider,
    persistSession: false,
    onEvent: (event) => events.push(event),
  });
  const queue = new TurnQueue({ session, emit: (event) => events.push(event), onStateChange: (state) => states.push(state), ...extra });
  return { session, queue, events, states, provider };
}

const texts = (events: OutputEvent[]) =>
  events.flatMap((event) => (event.type === "result" ? [event.is_error ? `error:${event.subtype}` : String(event.result)] : []));

describe("TurnQueue", () => {
  it("runs messages pushed while a turn runs strictly in order, each after its own system/init", async () => {
    const { queue, events, states, provider } = await setUp([textTurn("one"), textTurn("two"), textTurn("three")]);
    queue.push(toUserMessage("first"));
    queue.push(toUserMessage("second"));
    queue.push(toUserMessage("third"));
    await queue.idle();
    expect(sequence(events)).toEqual([
      "system/init",
      "assistant:text",
      "result/success",
      "system/init",
      "assistant:text",
      "result/success",
      "system/init",
      "assistant:text",
      "result/success",
    ]);
    expect(texts(events)).toEqual(["one", "two", "three"]);
    // One request per turn, each seeing the turns before it: nothing overlapped.
    expect(provider.requests.map((request) => request.messages.length)).toEqual([1, 3, 5]);
    expect(queue.lastResult).toMatchObject({ result: "three" });
    expect(states).toEqual(["running", "idle"]);
  });

  it("waits for the set-up the turns depend on before the first turn", async () => {
    let release!: () => void;
    const setUpDone = new Promise<void>((resolve) => (release = resolve));
    const { queue, events } = await setUp([textTurn("after set-up")], { beforeTurns: () => setUpDone });
    queue.push(toUserMessage("hi"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([]);
    release();
    await queue.idle();
    expect(texts(events)).toEqual(["after set-up"]);
  });

  it("an interrupt stops the running turn only: the message queued behind it still runs", async () => {
    let parked!: () => void;
    const waiting = new Promise<void>((resolve) => (parked = resolve));
    const { queue, events } = await setUp([hangingTurn({ onWaiting: () => parked() }), textTurn("second answer")]);
    expect(queue.interrupt()).toBe(false);
    queue.push(toUserMessage("slow"));
    queue.push(toUserMessage("next"));
    await waiting;
    expect(queue.interrupt()).toBe(true);
    await queue.idle();
    expect(texts(events)).toEqual(["error:error_during_execution", "second answer"]);
  });

  it("drops what is queued once the session is closed", async () => {
    let parked!: () => void;
    const waiting = new Promise<void>((resolve) => (parked = resolve));
    const { session, queue, events, states } = await setUp([hangingTurn({ onWaiting: () => parked() })]);
    queue.push(toUserMessage("slow"));
    queue.push(toUserMessage("never runs"));
    await waiting;
    await session.close();
    await queue.idle();
    expect(sequence(events).filter((name) => name.startsWith("result/"))).toEqual(["result/error_during_execution"]);
    expect(states).toEqual(["running", "idle"]);
    // A message pushed after the close does not run either.
    queue.push(toUserMessage("too late"));
    await queue.idle();
    expect(sequence(events).filter((name) => name.startsWith("result/"))).toHaveLength(1);
  });

  it("starts again after going idle, announcing each busy spell", async () => {
    const { queue, events, states } = await setUp([textTurn("a"), textTurn("b")]);
    queue.push(toUserMessage("one"));
    await queue.idle();
    queue.push(toUserMessage("two"));
    await queue.idle();
    expect(texts(events)).toEqual(["a", "b"]);
    expect(states).toEqual(["running", "idle", "running", "idle"]);
  });
});
