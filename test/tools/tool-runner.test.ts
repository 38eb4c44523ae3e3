import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolCall } from "../../src/agent/tool-runner.js";
import { defineTool } from "../../src/tools/define-tool.js";
import type { ToolContext, ToolDefinition } from "../../src/tools/define-tool.js";
import { makeToolContext } from "../helpers/tool-context.js";
import { builtinTools } from "../../src/tools/registry.js";

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "agentwire-runner-"));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function makeContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return makeToolContext(directory, { signal });
}

/** A tool that records what it was called with and then does what the test asks. */
function makeProbeTool(behaviour: (input: { count: number }) => Promise<string>): {
  tool: ToolDefinition;
  receivedInputs: unknown[];
} {
  const receivedInputs: unknown[] = [];
  const tool = defineTool({
    name: "Probe",
    description: "Test tool.",
    inputSchema: z.object({ count: z.number().int() }).strict(),
    kind: "read",
    async execute(input) {
      receivedInputs.push(input);
      return { content: await behaviour(input), isError: false };
    },
  });
  return { tool, receivedInputs };
}

describe("runToolCall", () => {
  it("runs a built-in tool end to end", async () => {
    const filePath = path.join(directory, "hello.txt");
    await writeFile(filePath, "hi\n");
    const result = await runToolCall({ id: "toolu_1", name: "Read", input: { file_path: filePath } }, builtinTools(), makeContext());
    expect(result.isError).toBe(false);
    expect(result.content).toBe("1\thi\n2\t");
  });

  it("passes the validated input to execute", async () => {
    const { tool, receivedInputs } = makeProbeTool(async (input) => `count was ${input.count}`);
    const result = await runToolCall({ id: "toolu_1", name: "Probe", input: { count: 2 } }, [tool], makeContext());
    expect(result).toEqual({ content: "count was 2", isError: false });
    expect(receivedInputs).toEqual([{ count: 2 }]);
  });

  it("rejects an unknown tool and lists the available ones", async () => {
    const result = await runToolCall({ id: "toolu_1", name: "Frobnicate", input: {} }, builtinTools(), makeContext());
    const message =
      "<tool_use_error>Error: No such tool available: Frobnicate. Available tools: Bash, Edit, Glob, Grep, LS, Monitor, MultiEdit, NotebookEdit, Read, TaskStop, TodoWrite, WebFetch, WebSearch, Write.</tool_use_error>";
    expect(result).toEqual({ content: message, isError: true, code: "unknown_tool", details: `Error: ${message}` });
  });

  it("reports a missing required field", async () => {
    const result = await runToolCall({ id: "toolu_1", name: "Read", input: {} }, builtinTools(), makeContext());
    expect(result.code).toBe("invalid_input");
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      "<tool_use_error>InputValidationError: Read failed due to the following issue(s):\n" +
        "  - file_path: required parameter is missing (expected string)</tool_use_error>",
    );
  });

  it("reports a field of the wrong type", async () => {
    const result = await runToolCall({ id: "toolu_1", name: "Read", input: { file_path: 42 } }, builtinTools(), makeContext());
    expect(result.code).toBe("invalid_input");
    expect(result.content).toBe(
      "<tool_use_error>InputValidationError: Read failed due to the following issue(s):\n" +
        "  - file_path: Invalid input: expected string, received number</tool_use_error>",
    );
  });

  it("reports an unknown key and names the accepted parameters", async () => {
    const result = await runToolCall(
      { id: "toolu_1", name: "Write", input: { file_path: "a.txt", content: "x", mode: "append" } },
      builtinTools(),
      makeContext(),
    );
    expect(result.code).toBe("invalid_input");
    expect(result.content).toBe(
      "<tool_use_error>InputValidationError: Write failed due to the following issue(s):\n" +
        "  - mode: unexpected parameter; accepted parameters are file_path, content</tool_use_error>",
    );
  });

  it("lists every issue of one call", async () => {
    const result = await runToolCall(
      { id: "toolu_1", name: "Read", input: { offset: -1, limit: 0, extra: true } },
      builtinTools(),
      makeContext(),
    );
    const lines = (result.content as string).split("\n");
    expect(lines).toEqual([
      "<tool_use_error>InputValidationError: Read failed due to the following issue(s):",
      "  - file_path: required parameter is missing (expected string)",
      "  - offset: Too small: expected number to be >=0",
      "  - limit: Too small: expected number to be >0",
      "  - extra: unexpected parameter; accepted parameters are file_path, offset, limit</tool_use_error>",
    ]);
  });

  it("does not execute a tool whose input is invalid", async () => {
    const { tool, receivedInputs } = makeProbeTool(async () => "ran");
    const result = await runToolCall({ id: "toolu_1", name: "Probe", input: { count: 1.5 } }, [tool], makeContext());
    expect(result.code).toBe("invalid_input");
    expect(receivedInputs).toEqual([]);
  });

  it("turns an exception from execute into internal_error", async () => {
    const { tool } = makeProbeTool(async () => {
      throw new Error("disk on fire");
    });
    const result = await runToolCall({ id: "toolu_1", name: "Probe", input: { count: 1 } }, [tool], makeContext());
    const message = "<tool_use_error>Error: Probe failed unexpectedly: disk on fire</tool_use_error>";
    expect(result).toEqual({ content: message, isError: true, code: "internal_error", details: `Error: ${message}` });
  });

  it("reports aborted when execute throws because the signal was aborted", async () => {
    const controller = new AbortController();
    const { tool } = makeProbeTool(async () => {
      controller.abort();
      controller.signal.throwIfAborted();
      return "unreachable";
    });
    const result = await runToolCall({ id: "toolu_1", name: "Probe", input: { count: 1 } }, [tool], makeContext(controller.signal));
    expect(result.isError).toBe(true);
    expect(result.code).toBe("aborted");
    expect(result.content).toBe("The Probe call was interrupted before it finished.");
  });

  it("does not start a tool when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { tool, receivedInputs } = makeProbeTool(async () => "ran");
    const result = await runToolCall({ id: "toolu_1", name: "Probe", input: { count: 1 } }, [tool], makeContext(controller.signal));
    expect(result.code).toBe("aborted");
    expect(receivedInputs).toEqual([]);
  });

  it("redacts secrets from the model's content and the consumer details, and logs the count", async () => {
    const warnings: string[] = [];
    const tool = defineTool({
      name: "Leaky",
      description: "Test tool.",
      inputSchema: z.object({}).strict(),
      kind: "read",
      async execute() {
        return {
          content: "token ghp_0123456789abcdefghijABCDEFGHIJ0123456789 ok",
          isError: false,
          details: { stdout: "AWS AKIAIOSFODNN7EXAMPLE", nested: [{ key: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz" }] },
        };
      },
    });
    const result = await runToolCall({ id: "toolu_1", name: "Leaky", input: {} }, [tool], {
      ...makeContext(),
      log: { warn: (message) => warnings.push(message) },
    });
    expect(result.content).toBe("token [REDACTED:github_token] ok");
    expect(result.details).toEqual({ stdout: "AWS [REDACTED:aws_access_key_id]", nested: [{ key: "[REDACTED:anthropic_api_key]" }] });
    expect(warnings).toEqual([
      "Redacted 3 secret(s) (github_token, aws_access_key_id, anthropic_api_key) from the Leaky result before it reached the model.",
    ]);
  });
});
