import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";

/**
 * Names an attacker controls reaching the counters a run reports: an agent type's name (from a
 * definition) and the tool names a subagent's model writes. Both are keys of plain objects, where
 * `constructor` or `hasOwnProperty` already name something.
 */
const STREAM = ["--output-format", "stream-json", "--verbose"];
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

describe("names that an object already holds", () => {
  it("an agent type named constructor and tool calls named like Object's members are counted as numbers", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        {
          match: "PARENT",
          tool_calls: [
            { name: "Agent", id: "toolu_agent", input: { description: "probe", prompt: "SUB go", subagent_type: "constructor" } },
          ],
        },
        {
          match: "SUB",
          tool_calls: [
            { name: "constructor", id: "toolu_c", input: {} },
            { name: "hasOwnProperty", id: "toolu_h", input: {} },
            { name: "__proto__", id: "toolu_p", input: {} },
          ],
        },
        { match: "SUB", text: "sub done" },
        { match: "PARENT", text: "done" },
      ],
    });
    const agents = JSON.stringify({ constructor: { description: "an agent with an awkward name", prompt: "Do the task." } });
    const run = await runAgentwire(["-p", "PARENT go", ...STREAM, "--agents", agents], { workspace });
    expectWellFormedRun(run, 1);
    expect(results(run.events)[0]!.subagent_stats.by_type).toEqual({ constructor: 1 });
    const agentResult = run.events.find(
      (event) => event.type === "user" && event.parent_tool_use_id === null && "tool_use_result" in event,
    ) as { tool_use_result: { toolStats: Record<string, number> } };
    expect(agentResult.tool_use_result.toolStats).toMatchObject({ readCount: 0, bashCount: 0, otherToolCount: 3 });
  });
});
