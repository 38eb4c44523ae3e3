import { describe, expect, it } from "vitest";
import { runToolCall } from "../../src/agent/tool-runner.js";
import { builtinTools } from "../../src/tools/registry.js";
import { createTodoWriteTool } from "../../src/tools/todo-write.js";
import { makeToolContext } from "../helpers/tool-context.js";

describe("createTodoWriteTool()", () => {
  it("replaces the list, reports the counts, and returns old and new lists for GUIs", async () => {
    const context = makeToolContext("/tmp");
    const first = [{ content: "Run the tests", status: "in_progress" as const, activeForm: "Running the tests" }];
    await createTodoWriteTool().execute({ todos: first }, context);
    const second = [
      { content: "Run the tests", status: "completed" as const, activeForm: "Running the tests" },
      { content: "Fix the bug", status: "pending" as const, activeForm: "Fixing the bug" },
    ];
    const result = await createTodoWriteTool().execute({ todos: second }, context);
    expect(result).toEqual({
      content: "Todo list updated (1 pending, 0 in progress, 1 completed). Keep it current: mark items completed as soon as they are done.",
      isError: false,
      details: { oldTodos: first, newTodos: second },
    });
  });

  it("reminds the model when several items are in progress", async () => {
    const todos = ["A", "B"].map((name) => ({ content: name, status: "in_progress" as const, activeForm: name }));
    const result = await createTodoWriteTool().execute({ todos }, makeToolContext("/tmp"));
    expect(result.content).toContain("More than one item is in progress");
  });

  it("rejects Claude Code-incompatible input with invalid_input", async () => {
    const result = await runToolCall(
      { id: "toolu_1", name: "TodoWrite", input: { todos: [{ content: "x", status: "done", activeForm: "x" }] } },
      builtinTools(),
      makeToolContext("/tmp"),
    );
    expect(result.code).toBe("invalid_input");
    expect(result.content).toContain("todos.0.status");
  });
});
