import * as z from "zod/mini";
import "../validation/english-issues.js";
import { defineTool } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";
import { sessionSlot } from "./session-state.js";

const description = `Keeps a task list for the current session, which the user sees (GUIs render it). Send the whole list every time; it replaces the previous one.

When to use it: work with three or more distinct steps, several things the user asked for at once, or new requirements that arrive mid-task. Skip it for a single small task or a question.

- Each item has \`content\` (what to do, imperative: "Run the tests"), \`activeForm\` (the same as it is being done: "Running the tests") and \`status\`: pending, in_progress or completed.
- Mark an item in_progress before starting it and keep exactly one in progress at a time.
- Mark it completed as soon as it is done, not in batches later; only when it is fully done (tests pass, nothing left unfinished). If you are blocked, keep it in progress and add an item for what blocks you.
- Remove items that no longer apply.`;

const todoSchema = lazySchema(() =>
  z.strictObject({
    content: z.string().check(z.minLength(1), z.describe("What needs to be done, in the imperative")),
    status: z.enum(["pending", "in_progress", "completed"]),
    activeForm: z.string().check(z.minLength(1), z.describe("The same task in the present continuous, shown while it is in progress")),
  }),
);

const inputSchema = lazySchema(() =>
  z.strictObject({
    todos: z.array(todoSchema()).check(z.describe("The updated todo list")),
  }),
);

type Todo = z.infer<ReturnType<typeof todoSchema>>;

/** The current list, so the next call can report the change. */
const TODOS = sessionSlot<readonly Todo[]>("todos", () => []);

export const createTodoWriteTool = () =>
  defineTool({
    name: "TodoWrite",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.TodoWrite,
    async execute(input, context): Promise<ToolResult> {
      const oldTodos = context.sessionState.get(TODOS);
      context.sessionState.set(TODOS, input.todos);
      const count = (status: Todo["status"]): number => input.todos.filter((todo) => todo.status === status).length;
      const inProgress = count("in_progress");
      const summary = `${count("pending")} pending, ${inProgress} in progress, ${count("completed")} completed`;
      const reminder =
        inProgress > 1
          ? " More than one item is in progress: finish or pause all but one."
          : " Keep it current: mark items completed as soon as they are done.";
      return {
        content: `Todo list updated (${summary}).${reminder}`,
        isError: false,
        // Claude Code's TodoWrite output shape.
        details: { oldTodos, newTodos: input.todos },
      };
    },
  });
