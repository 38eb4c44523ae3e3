import * as z from "zod/mini";
import "../validation/english-issues.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";

const description = `Stops a background task of this session by its id: a command started with Bash's run_in_background, or a Monitor. The task and every process it started are stopped. Answers whether it worked.`;

const inputSchema = lazySchema(() =>
  z.strictObject({
    task_id: z.optional(z.string()).check(z.describe("Which task: the id its start reported (b and 8 characters)")),
    shell_id: z.optional(z.string()).check(z.describe("Older name of task_id; use task_id")),
  }),
);

export const createTaskStopTool = () =>
  defineTool({
    name: "TaskStop",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.TaskStop,
    async execute(input, context): Promise<ToolResult> {
      const id = input.task_id ?? input.shell_id;
      if (id === undefined) return toolError("invalid_input", "<tool_use_error>Give the task_id of the task to stop.</tool_use_error>");
      const task = context.backgroundTasks?.stop(id);
      if (!task) return toolError("invalid_input", `<tool_use_error>No task found with ID: ${id}</tool_use_error>`);
      const answer = {
        message: `Successfully stopped task: ${id} (${task.command})`,
        task_id: id,
        task_type: task.taskType,
        command: task.command,
      };
      // Claude Code answers with the object as a JSON string.
      return { content: JSON.stringify(answer), isError: false, details: answer };
    },
  });
