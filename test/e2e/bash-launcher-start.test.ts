import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, spawnAgentwire, waitForExit, type Workspace } from "../helpers/agentwire.js";
import { pidsRunning, until } from "../helpers/processes.js";

/**
 * Bash's commands start through the process launcher (src/process/launcher.ts), and the launcher
 * starts as soon as the model begins writing a Bash call: its start then overlaps with the rest
 * of the response instead of delaying the command.
 */
let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const parentOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
};
const launcherOf = (pid: number): number | undefined =>
  pidsRunning("agentwire process launcher").find((candidate) => {
    try {
      return parentOf(candidate) === pid;
    } catch {
      return false;
    }
  });

describe.skipIf(!existsSync("/usr/bin/perl"))("the process launcher's start (needs Perl)", () => {
  it("starts while the model is still writing the Bash call, and the call then runs through it", async () => {
    workspace = await createWorkspace("text");
    // 300 ms between the stream's frames: the call's input is complete only well after it began.
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Bash", input: { command: "echo ran" } }], chunk_delay_ms: 300 }, { text: "done" }],
    });
    const child = spawnAgentwire(
      ["-p", "go", "--output-format", "stream-json", "--verbose", "--include-partial-messages", "--dangerously-skip-permissions"],
      { workspace },
    );
    child.stdin.end();
    const events: Array<{ type: string; event?: { type: string; content_block?: { type: string } } }> = [];
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line) events.push(JSON.parse(line));
    });
    const streamed = (type: string, block?: string) =>
      events.some(
        (event) =>
          event.type === "stream_event" && event.event?.type === type && (block === undefined || event.event.content_block?.type === block),
      );

    expect(await until(() => streamed("message_start"), 10_000), "the response began").toBe(true);
    expect(launcherOf(child.pid!), "no launcher before the call began").toBeUndefined();
    expect(await until(() => streamed("content_block_start", "tool_use"), 10_000), "the call began").toBe(true);
    expect(await until(() => launcherOf(child.pid!) !== undefined, 250), "the launcher started").toBe(true);
    expect(streamed("content_block_stop"), "before the call's input was complete").toBe(false);

    expect((await waitForExit(child)).code).toBe(0);
    const result = events.find((event) => event.type === "user") as { message: { content: Array<{ content: string }> } } | undefined;
    expect(result?.message.content[0]?.content, "the command ran").toBe("ran");
  });
});
