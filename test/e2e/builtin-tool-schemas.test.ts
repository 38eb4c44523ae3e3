import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { agentInputSchema } from "../../src/session/subagent/agent-tool.js";
import { skillInputSchema } from "../../src/skills/skill-tool.js";
import { compactTool } from "../../src/tools/compact-profile.js";
import { toolSearchInputSchema } from "../../src/tools/tool-search.js";
import { builtinTools } from "../../src/tools/registry.js";
import { createWorkspace, expectWellFormedRun, runAgentwire, type Workspace } from "../helpers/agentwire.js";

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

type RequestTool = { name: string; input_schema: Record<string, unknown> };

/** The tools of the first model request of a single answer run with `args`. */
async function requestTools(args: string[], prepareHome?: (home: string) => Promise<void>): Promise<RequestTool[]> {
  workspace = await createWorkspace("text");
  await prepareHome?.(workspace.home);
  const run = await runAgentwire(["-p", "hi", "--output-format", "stream-json", "--verbose", ...args], { workspace });
  expectWellFormedRun(run, 1);
  return (workspace.server.requests[0]!.body as { tools: RequestTool[] }).tools;
}

/**
 * The build converts the built-in tools' zod schemas to JSON Schema once (scripts/build.mjs), so a
 * run need not at its first request: what the binary sends must be what converting them now gives.
 */
describe("the built-in tools' input schemas in a request", () => {
  it("are the conversions of their zod schemas", async () => {
    const builtins = builtinTools();
    // Without ToolSearch nothing is deferred, so the first request carries every built-in's schema.
    const sent = await requestTools(["--tools", builtins.map((tool) => tool.name).join(",")]);
    expect(sent.filter((tool) => builtins.some((builtin) => builtin.name === tool.name)).length).toBe(builtins.length);
    for (const tool of builtins) {
      expect(sent.find((candidate) => candidate.name === tool.name)?.input_schema, tool.name).toEqual(
        z.toJSONSchema(tool.inputSchema, { io: "input" }),
      );
    }
  });

  it("Skill, ToolSearch and Agent, which a single answer offers too, are sent as their zod schemas convert", async () => {
    // With a skill installed the default run offers all three (ToolSearch for the deferred tools).
    const sent = await requestTools([], async (home) => {
      await mkdir(join(home, ".agentwire", "skills", "demo"), { recursive: true });
      await writeFile(
        join(home, ".agentwire", "skills", "demo", "SKILL.md"),
        "---\nname: demo\ndescription: A demo skill.\n---\nSay hi.\n",
      );
    });
    const expected = { Skill: skillInputSchema(), ToolSearch: toolSearchInputSchema(), Agent: agentInputSchema() };
    for (const [name, schema] of Object.entries(expected)) {
      expect(sent.find((tool) => tool.name === name)?.input_schema, name).toEqual(z.toJSONSchema(schema, { io: "input" }));
    }
  });

  it("a compact-profile tool sends its own schema, not the built one of the tool it was made from", async () => {
    const sent = await requestTools(["--tool-profile", "compact"]);
    const bash = builtinTools().find((tool) => tool.name === "Bash")!;
    expect(sent.find((tool) => tool.name === "Bash")?.input_schema).toEqual(z.toJSONSchema(compactTool(bash).inputSchema, { io: "input" }));
    expect(sent.find((tool) => tool.name === "Bash")?.input_schema).not.toEqual(z.toJSONSchema(bash.inputSchema, { io: "input" }));
  });
});
