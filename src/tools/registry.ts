import { createBashTool } from "./bash.js";
import type { ToolDefinition } from "./define-tool.js";
import { withBuiltSchema } from "./tool-json-schema.js";
import { createEditTool } from "./edit.js";
import { createGlobTool } from "./glob.js";
import { createGrepTool } from "./grep.js";
import { createLsTool } from "./ls.js";
import { createMonitorTool } from "./monitor.js";
import { createMultiEditTool } from "./multi-edit.js";
import { createNotebookEditTool } from "./notebook-edit.js";
import { createReadTool } from "./read.js";
import { createTaskStopTool } from "./task-stop.js";
import { createTodoWriteTool } from "./todo-write.js";
import { createWebFetchTool } from "./web-fetch.js";
import { createWebSearchTool } from "./web-search.js";
import { createWriteTool } from "./write.js";

/**
 * The built-in tools, alphabetical as Claude Code 2.1.330 sends its tools to the API (Bash,
 * Edit, Glob, Grep, Read, Write), with agentwire's additions in their alphabetical places, so
 * prompts and cache keys line up with it where the sets overlap.
 */
export function builtinTools(): ToolDefinition[] {
  const tools = [
    createBashTool(),
    createEditTool(),
    createGlobTool(),
    createGrepTool({ backend: "auto" }),
    createLsTool(),
    createMonitorTool(),
    createMultiEditTool(),
    createNotebookEditTool(),
    createReadTool(),
    createTaskStopTool(),
    createTodoWriteTool(),
    createWebFetchTool(),
    createWebSearchTool(),
    createWriteTool(),
  ] as ToolDefinition[];
  // Remembered for these very objects: a tool made from one of them (a compact-profile variant,
  // with a schema of its own) is another object, and is converted.
  for (const tool of tools) withBuiltSchema(tool);
  return tools;
}

export function findTool(tools: readonly ToolDefinition[], name: string): ToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}
