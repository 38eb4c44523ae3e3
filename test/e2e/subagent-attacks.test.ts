import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkspace, expectWellFormedRun, results, ROOT, runAgentwire, type Workspace } from "../helpers/agentwire.js";

/**
 * What an agent definition can and cannot do to a subagent's tools, and names an attacker
 * controls reaching the counters a run reports: an agent type's name (from a
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

describe("a definition's tool lists", () => {
  it("an MCP server named in disallowedTools (mcp__server, mcp__server__*) takes all its tools away", async () => {
    workspace = await createWorkspace("text");
    const subagentCall = (id: string, type: string) => ({
      name: "Agent",
      id,
      input: { description: type, prompt: `SUB ${type}`, subagent_type: type },
    });
    await workspace.useScenario({
      turns: [
        { match: "PARENT", tool_calls: [subagentCall("toolu_a", "no-server"), subagentCall("toolu_b", "no-server-star")] },
        { match: "SUB", tool_calls: [{ name: "mcp__gh__echo", id: "toolu_echo", input: { text: "leak" } }], repeat: false },
        { match: "SUB", tool_calls: [{ name: "mcp__gh__echo", id: "toolu_echo2", input: { text: "leak" } }], repeat: false },
        { match: "SUB", text: "sub done" },
        { match: "SUB", text: "sub done" },
        { match: "PARENT", text: "done" },
      ],
    });
    const server = { command: process.execPath, args: [join(ROOT, "fixtures", "mcp", "test-server.mjs")] };
    const agents = JSON.stringify({
      "no-server": { description: "without the gh server", prompt: "Do the task.", disallowedTools: ["mcp__gh"] },
      "no-server-star": { description: "without the gh server", prompt: "Do the task.", disallowedTools: ["mcp__gh__*"] },
    });
    const run = await runAgentwire(
      [
        "-p",
        "PARENT go",
        ...STREAM,
        "--dangerously-skip-permissions",
        "--mcp-config",
        JSON.stringify({ mcpServers: { gh: server } }),
        "--agents",
        agents,
      ],
      { workspace },
    );
    expectWellFormedRun(run, 1);
    const offered = workspace.server.requests.map((request) => ({
      subagent: JSON.stringify((request.body as { messages: unknown[] }).messages[0]).includes("SUB "),
      mcp: ((request.body as { tools: Array<{ name: string }> }).tools ?? []).filter((tool) => tool.name.startsWith("mcp__gh__")).length,
    }));
    expect(
      offered.filter((request) => !request.subagent).every((request) => request.mcp > 0),
      "the parent has the server's tools",
    ).toBe(true);
    expect(offered.filter((request) => request.subagent).map((request) => request.mcp)).toEqual([0, 0, 0, 0]);
    const echoes = run.events.filter((event) => event.type === "user" && JSON.stringify(event).includes("ECHO: LEAK"));
    expect(echoes, "no subagent call reached the server").toEqual([]);
  });
});
