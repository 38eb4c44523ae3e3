import { describe, expect, it, vi } from "vitest";
import { createAgentTool } from "../../src/session/subagent/agent-tool.js";
import { SkillCatalog } from "../../src/skills/catalog.js";
import { createSkillTool } from "../../src/skills/skill-tool.js";
import { COMPACT_TOOL_NAMES } from "../../src/tools/builtin-tool-traits.js";
import { compactTool } from "../../src/tools/compact-profile.js";
import type { ToolContext } from "../../src/tools/define-tool.js";
import { createToolSearchTool } from "../../src/tools/tool-search.js";
import { builtinTools } from "../../src/tools/registry.js";
import { toolInputJsonSchema } from "../../src/tools/tool-json-schema.js";
import { parseToolNames, selectTools } from "../../src/tools/select-tools.js";

const names = (selection: ReturnType<typeof selectTools>) => ("tools" in selection ? selection.tools.map((tool) => tool.name) : selection);

describe("tool registry", () => {
  it("offers every built-in tool by default, in Claude Code's alphabetical order", () => {
    expect(names(selectTools(builtinTools(), { tools: undefined, disallowedToolNames: [] }))).toEqual([
      "Bash",
      "Edit",
      "Glob",
      "Grep",
      "LS",
      "Monitor",
      "MultiEdit",
      "NotebookEdit",
      "Read",
      "TaskStop",
      "TodoWrite",
      "WebFetch",
      "WebSearch",
      "Write",
    ]);
  });

  it("every tool a start makes builds its input schema at its first use, not when the tool is made", () => {
    const made = [...builtinTools(), createSkillTool(SkillCatalog.empty()), createToolSearchTool(() => []), createAgentTool([])];
    for (const tool of made) {
      const property = Object.getOwnPropertyDescriptor(tool, "inputSchema");
      expect(property?.get, tool.name).toBeTypeOf("function");
      // Built once, then the same schema for every call.
      expect(tool.inputSchema, tool.name).toBe(tool.inputSchema);
    }
  });

  it("the compact profile does not build the full schema of the tool it shortens until a call runs", () => {
    for (const tool of builtinTools().filter((candidate) => COMPACT_TOOL_NAMES.includes(candidate.name as never))) {
      const full = vi.spyOn(tool, "inputSchema", "get");
      const compact = compactTool(tool);
      expect(full, tool.name).not.toHaveBeenCalled();
      expect(compact.inputSchema, tool.name).not.toBe(tool.inputSchema);
      full.mockClear();
      // Input the full schema refuses: the call goes no further than the check.
      expect(() => compact.execute({ no_such_field: 1 }, {} as ToolContext)).toThrow();
      expect(full, tool.name).toHaveBeenCalled();
    }
  });

  it("--tools selects exactly the named tools; default and empty", () => {
    expect(names(selectTools(builtinTools(), { tools: parseToolNames(["Read, Grep"]), disallowedToolNames: [] }))).toEqual([
      "Grep",
      "Read",
    ]);
    expect(names(selectTools(builtinTools(), { tools: parseToolNames(["default"]), disallowedToolNames: [] }))).toHaveLength(14);
    expect(names(selectTools(builtinTools(), { tools: parseToolNames([""]), disallowedToolNames: [] }))).toEqual([]);
  });

  it("--disallowedTools removes whole tools", () => {
    expect(names(selectTools(builtinTools(), { tools: ["Bash", "Read"], disallowedToolNames: ["Bash"] }))).toEqual(["Read"]);
  });

  it("an unknown name in --tools is an error naming the available tools", () => {
    expect(selectTools(builtinTools(), { tools: ["Read", "Frobnicate"], disallowedToolNames: [] })).toEqual({
      error:
        "Unknown tool name in --tools: Frobnicate. Available tools: Bash, Edit, Glob, Grep, LS, Monitor, MultiEdit, NotebookEdit, Read, TaskStop, TodoWrite, WebFetch, WebSearch, Write.",
    });
  });

  it("input schemas match Claude Code's for the tools it has (reference api/tools-*.json)", () => {
    const schema = (name: string) => toolInputJsonSchema(builtinTools().find((tool) => tool.name === name)!);
    expect(schema("Edit")).toMatchObject({
      type: "object",
      required: ["file_path", "old_string", "new_string"],
      additionalProperties: false,
      // The descriptions are agentwire's own words (test/tools/own-words.test.ts); the shapes are Claude Code's.
      properties: { replace_all: { type: "boolean", default: false } },
    });
    expect(schema("Glob")).toMatchObject({ required: ["pattern"], additionalProperties: false });
    expect(Object.keys((schema("Grep") as { properties: object }).properties)).toEqual(
      expect.arrayContaining([
        "pattern",
        "path",
        "glob",
        "output_mode",
        "-B",
        "-A",
        "-C",
        "context",
        "-n",
        "-i",
        "-o",
        "type",
        "head_limit",
        "offset",
        "multiline",
      ]),
    );
    expect(schema("TodoWrite")).toMatchObject({
      properties: {
        todos: {
          type: "array",
          items: {
            required: ["content", "status", "activeForm"],
            properties: { status: { enum: ["pending", "in_progress", "completed"] } },
          },
        },
      },
    });
  });
});
