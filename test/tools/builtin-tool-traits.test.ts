import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { SkillCatalog } from "../../src/skills/catalog.js";
import { createSkillTool } from "../../src/skills/skill-tool.js";
import { BUILTIN_TOOL_TRAITS, builtinToolDescriptors, COMPACT_TOOL_NAMES, SKILL_TOOL_TRAITS } from "../../src/tools/builtin-tool-traits.js";
import { compactTool } from "../../src/tools/compact-profile.js";
import type { ToolDefinition } from "../../src/tools/define-tool.js";
import { builtinTools } from "../../src/tools/registry.js";

/** What a definition holds besides its traits. */
const NOT_TRAITS = new Set(["name", "description", "inputSchema", "inputJsonSchema", "execute", "prepare"]);
const traitsOf = (tool: ToolDefinition) => Object.fromEntries(Object.entries(tool).filter(([key]) => !NOT_TRAITS.has(key)));
const inputFields = (tool: ToolDefinition) => Object.keys((tool.inputSchema as z.ZodObject).shape);

// The CLI names a session's tools from the table before the tools' code loads: both must say the same.
describe("the built-in tools' trait table against the tools", () => {
  const tools = builtinTools();

  it("names every tool, in the order the tools are sent", () => {
    expect(tools.map((tool) => tool.name)).toEqual(Object.keys(BUILTIN_TOOL_TRAITS));
    expect(builtinToolDescriptors().map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
  });

  it("gives each tool exactly the traits its definition has (kind, path and command fields, read-only-ness)", () => {
    for (const tool of tools) expect(traitsOf(tool), tool.name).toEqual(BUILTIN_TOOL_TRAITS[tool.name as keyof typeof BUILTIN_TOOL_TRAITS]);
    for (const { name, traits } of builtinToolDescriptors()) {
      expect(traits, name).toEqual(traitsOf(tools.find((tool) => tool.name === name)!));
    }
  });

  it("names input fields the tools have, in the full and the compact profile", () => {
    const fieldsNamed = (tool: ToolDefinition) => [tool.pathField, tool.commandField, tool.urlField].filter((field) => field !== undefined);
    for (const tool of tools) for (const field of fieldsNamed(tool)) expect(inputFields(tool), tool.name).toContain(field);
    for (const name of COMPACT_TOOL_NAMES) {
      const compact = compactTool(tools.find((tool) => tool.name === name)!);
      expect(traitsOf(compact), name).toEqual(traitsOf(tools.find((tool) => tool.name === name)!));
      for (const field of fieldsNamed(compact)) expect(inputFields(compact), name).toContain(field);
    }
  });

  it("gives the Skill tool its traits from the table too", () => {
    // The catalog is only read when the tool runs.
    for (const compact of [false, true]) expect(traitsOf(createSkillTool({} as SkillCatalog, { compact }))).toEqual(SKILL_TOOL_TRAITS);
  });
});
