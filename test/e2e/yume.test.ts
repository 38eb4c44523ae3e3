import { spawn } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import type { AssistantEvent, OutputEvent, UserEvent } from "../../protocol/events.js";
import { BIN, createWorkspace, results, ROOT, waitForEvent, waitForExit, type RunResult, type Workspace } from "../helpers/agentwire.js";
import {
  PROJECT_FILES,
  recordedInvocationSchema,
  TITLE,
  YUME_MODELS,
  YUME_STEPS,
  yumeTitle,
  type RecordedInvocation,
  type YumeModelChoice,
} from "../helpers/yume.js";

/**
 * Yume's backend as recorded (fixtures/yume/): every process it starts for a working day, with
 * its exact argv, working folder, environment additions and stdin, replayed against the built
 * binary and the replay server, for both of Yume's models. Asserts what Yume reads: the stdout
 * events it turns into UI messages, an empty stderr (Yume shows every byte of it as an error),
 * a title from the title generator, a cost above zero, resume and interrupt.
 */

const interrupted = "interrupted";

async function loadRecording(choice: YumeModelChoice): Promise<RecordedInvocation[]> {
  return z
    .array(recordedInvocationSchema)
    .parse(JSON.parse(await readFile(join(ROOT, "fixtures", "yume", `${choice}-model.json`), "utf8")));
}
const recordings = { default: await loadRecording("default"), sonnet: await loadRecording("sonnet") };

for (const [choice, model] of Object.entries(YUME_MODELS) as Array<[YumeModelChoice, string]>) {
  describe(`Yume's recorded invocations, ${choice} model (${model})`, () => {
    const invocations = recordings[choice];
    let workspace: Workspace;
    /** Claude's session id, from the first turn's system/init: Yume resumes it with every later message. */
    let sessionId: string | undefined;

    beforeAll(async () => {
      workspace = await createWorkspace("text");
      // A first run, as a new Yume user has it: no skills folder yet, so the bundled ones get installed.
      await rm(join(workspace.home, ".agentwire"), { recursive: true, force: true });
      await mkdir(join(workspace.home, ".yume-title-gen"));
      for (const [name, content] of Object.entries(PROJECT_FILES)) await writeFile(join(workspace.cwd, name), content);
    });

    afterAll(async () => {
      await workspace?.cleanup();
    });

    /** The recorded values of the machine and run it came from, replaced by this test's. */
    function substitute(text: string): string {
      return text
        .replaceAll("{project}", workspace.cwd)
        .replaceAll("{home}", workspace.home)
        .replaceAll("{PATH}", process.env.PATH ?? "/usr/bin:/bin")
        .replaceAll("{yume_session_id}", `session-replay-${choice}`)
        .replaceAll("{instance}", "replay-instance")
        .replaceAll("{claude_session_id}", sessionId ?? "{claude_session_id}");
    }

    /**
     * Starts the invocation as Yume does: its own process group (detached), Yume's environment
     * with its additions, stdin written and closed; an interrupt is SIGINT to the whole group once
     * the UI has shown a tool call.
     */
    async function replay(invocation: RecordedInvocation): Promise<RunResult> {
      const env = {
        PATH: process.env.PATH,
        HOME: workspace.home,
        ANTHROPIC_BASE_URL: workspace.server.url,
        ANTHROPIC_API_KEY: "test-key",
        ...Object.fromEntries(Object.entries(invocation.env).map(([name, value]) => [name, substitute(value)])),
      };
      const child = spawn(process.execPath, [BIN, ...invocation.argv.map(substitute)], {
        cwd: substitute(invocation.cwd),
        env,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
      const exit = waitForExit(child);
      child.stdin.end(substitute(invocation.stdin));
      if (invocation.step === interrupted) {
        await waitForEvent(
          child,
          (event) => event.type === "assistant" && event.message.content.some((block) => block.type === "tool_use"),
        );
        process.kill(-child.pid!, "SIGINT");
      }
      return exit;
    }

    const toolResults = (events: OutputEvent[]) =>
      events.flatMap((event) =>
        event.type === "user" ? (event as UserEvent).message.content.filter((block) => block.type === "tool_result") : [],
      );
    const toolUses = (events: OutputEvent[]) =>
      events.flatMap((event) =>
        event.type === "assistant" ? (event as AssistantEvent).message.content.filter((block) => block.type === "tool_use") : [],
      );

    it("the recording covers every step, each turn after the first resuming", () => {
      expect(invocations.filter((invocation) => invocation.kind === "turn").map((invocation) => invocation.step)).toEqual(
        Object.keys(YUME_STEPS),
      );
      expect(invocations.filter((invocation) => invocation.kind === "title").map((invocation) => invocation.step)).toEqual(["text"]);
      for (const invocation of invocations.filter((each) => each.kind === "turn").slice(1))
        expect(invocation.argv.slice(-2)).toEqual(["--resume", "{claude_session_id}"]);
    });

    for (const [index, invocation] of invocations.entries()) {
      it(`${index + 1}. ${invocation.step} (${invocation.kind}): ${invocation.argv.slice(0, 4).join(" ")} …`, async () => {
        await workspace.useScenario({
          turns: invocation.kind === "title" ? [{ text: TITLE }] : YUME_STEPS[invocation.step].turns(workspace.cwd),
        });
        const run = await replay(invocation);
        if (invocation.step === "text" && invocation.kind === "turn")
          sessionId = (run.events[0] as { session_id?: string } | undefined)?.session_id;
        expect(run.stderr, "nothing on stderr: Yume shows it as an error").toBe("");
        const [result] = results(run.events);

        if (invocation.kind === "title") {
          expect(run.code).toBe(0);
          expect(yumeTitle(run.stdout), "Yume's title from the last stdout line").toBe(TITLE);
          expect(workspace.server.requests[0]?.body).toMatchObject({ model: YUME_MODELS.sonnet });
          expect(result!.total_cost_usd).toBeGreaterThan(0);
          return;
        }

        const init = run.events[0];
        // Yume always compacts with its sonnet model.
        expect(init).toMatchObject({
          type: "system",
          subtype: "init",
          cwd: workspace.cwd,
          model: invocation.step === "compact" ? YUME_MODELS.sonnet : model,
        });
        expect(results(run.events)).toHaveLength(1);
        expect(result!.session_id, "one Claude session, resumed by every message").toBe(sessionId);

        if (invocation.step === interrupted) {
          expect(run.code, "exits with a code: Yume reports a death by signal as 'terminated unexpectedly'").not.toBeNull();
          expect(run.signal).toBeNull();
          expect(toolUses(run.events).map((block) => block.name)).toEqual(["Bash"]);
          return;
        }

        expect(run.code).toBe(0);
        expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false });
        expect(result!.total_cost_usd, "Yume shows the cost only when above zero").toBeGreaterThan(0);
        if (invocation.step === "compact") {
          expect(run.events.filter((event) => event.type === "system" && event.subtype === "compact_boundary")).toHaveLength(1);
          // Yume's backend takes a result with zero usage for a finished compaction and resets its context meter.
          expect(result!.usage).toMatchObject({
            input_tokens: 0,
            output_tokens: 0,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
          });
          expect(result!.result, "Yume's UI also recognises a compaction by this word").toMatch(/compact/i);
          return;
        }
        const scripted = YUME_STEPS[invocation.step].turns(workspace.cwd);
        expect(result!.result).toBe(scripted.at(-1)!.text);
        const scriptedTools = scripted.flatMap((turn) => turn.tool_calls ?? []);
        expect(toolUses(run.events).map((block) => ({ name: block.name, input: block.input }))).toEqual(
          scriptedTools.map((call) => ({ name: call.name, input: call.input })),
        );
        expect(toolResults(run.events).map((block) => block.is_error === true)).toEqual(scriptedTools.map(() => false));

        const history = JSON.stringify(workspace.server.requests[0]?.body);
        const earlier = {
          followUp: YUME_STEPS.text.message,
          reopened: YUME_STEPS.followUp.message,
          afterInterrupt: YUME_STEPS.interrupted.message,
        } as const;
        if (invocation.step in earlier)
          expect(history, "the resumed conversation reaches the model").toContain(earlier[invocation.step as keyof typeof earlier]);
        if (invocation.step === "read") expect(JSON.stringify(toolResults(run.events))).toContain("ship on friday");
        if (invocation.step === "write") expect(await readFile(join(workspace.cwd, "todo.md"), "utf8")).toBe("- release\n");
        if (invocation.step === "bash") expect(JSON.stringify(toolResults(run.events))).toContain("notes.txt");
      });
    }
  });
}
