import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent, UserEvent } from "../../protocol/events.js";
import { BUILTIN_TOOL_TRAITS } from "../../src/tools/builtin-tool-traits.js";
import { createWorkspace, expectWellFormedRun, ROOT, runAgentwire, type ProviderUnderTest, type Workspace } from "../helpers/agentwire.js";

/**
 * ToolSearch and deferred tools through the binary: an MCP server big enough to be deferred
 * (fixtures/mcp/test-server.mjs with filler tools), the replay server as the model, per wire format.
 */
const SERVER = join(ROOT, "fixtures", "mcp", "test-server.mjs");
/** 30 filler tools of about 1.3 KB each: well past the deferral threshold. */
const BIG = { big: { command: process.execPath, args: [SERVER], env: { MCP_TEST_BULK_TOOLS: "30" } } };
const LISTING = "The tools below are deferred";
const ECHO = "mcp__big__echo";
/** The test server's 7 tools and the 30 fillers. */
const BIG_TOOLS = 37;
/** The built-ins deferred as in Claude Code; a default run offers them all. */
const DEFERRED_BUILTINS = Object.entries(BUILTIN_TOOL_TRAITS)
  .filter(([, traits]) => "deferred" in traits && traits.deferred)
  .map(([name]) => name);
const TOTAL_DEFERRED = BIG_TOOLS + DEFERRED_BUILTINS.length;
let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

function run(args: string[], provider: ProviderUnderTest = "anthropic") {
  return runAgentwire(["-p", "go", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", ...args], {
    workspace: workspace!,
    provider,
  });
}

/** The names of the tools a request carried, whatever the wire format. */
function toolNames(provider: ProviderUnderTest, body: unknown): string[] {
  const tools = (body as { tools?: unknown[] }).tools ?? [];
  if (provider === "gemini")
    return (tools as Array<{ functionDeclarations?: Array<{ name: string }> }>).flatMap((tool) =>
      (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
    );
  if (provider === "openai-chat" || provider === "ollama")
    return (tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
  return (tools as Array<{ name: string }>).map((tool) => tool.name);
}

/** The system prompt and the first user message a request carried, each as JSON text, whatever the wire format. */
function promptParts(provider: ProviderUnderTest, body: unknown): { system: string; firstUser: string } {
  const wire = body as {
    system?: unknown;
    instructions?: unknown;
    systemInstruction?: unknown;
    messages?: Array<{ role: string }>;
    input?: Array<{ role?: string }>;
    contents?: Array<{ role: string }>;
  };
  if (provider === "gemini")
    return {
      system: JSON.stringify(wire.systemInstruction),
      firstUser: JSON.stringify(wire.contents!.find((item) => item.role === "user")),
    };
  if (provider === "openai-responses")
    return { system: JSON.stringify(wire.instructions), firstUser: JSON.stringify(wire.input!.find((item) => item.role === "user")) };
  if (provider === "openai-chat" || provider === "ollama")
    return {
      system: JSON.stringify(wire.messages!.filter((message) => message.role === "system")),
      firstUser: JSON.stringify(wire.messages!.find((message) => message.role === "user")),
    };
  return { system: JSON.stringify(wire.system), firstUser: JSON.stringify(wire.messages!.find((message) => message.role === "user")) };
}

function toolResultLines(events: OutputEvent[]): UserEvent[] {
  return events.flatMap((event) => (event.type === "user" && event.message.content[0]?.type === "tool_result" ? [event] : []));
}

const PROVIDERS: ProviderUnderTest[] = ["anthropic", "openai-chat", "openai-responses", "gemini", "ollama"];

describe("ToolSearch and deferred tools", () => {
  it.each(PROVIDERS)(
    "%s: the first request names the big server's tools only; select: loads a schema into the next request",
    async (provider) => {
      workspace = await createWorkspace("text");
      await workspace.useScenario({
        turns: [
          { tool_calls: [{ name: "ToolSearch", input: { query: `select:${ECHO}`, max_results: 5 } }] },
          { tool_calls: [{ name: ECHO, input: { text: "hi" } }] },
          { text: "done" },
        ],
      });
      const result = await run(["--mcp-config", JSON.stringify({ mcpServers: BIG })], provider);
      expect(result.code, result.stderr).toBe(0);
      expectWellFormedRun(result, 1);

      const init = result.events.find((event) => event.type === "system" && event.subtype === "init");
      expect(init).toMatchObject({ tools: expect.arrayContaining(["Bash", "ToolSearch", ECHO, "mcp__big__bulk_30"]) });

      const [first, second, third] = workspace.server.requests.map((request) => request.body);
      const firstTools = toolNames(provider, first);
      expect(firstTools).toContain("ToolSearch");
      expect(firstTools).toContain("Bash");
      expect(firstTools.filter((name) => name.startsWith("mcp__"))).toEqual([]);
      // The listing is a reminder in the first user message, never in the system prompt.
      for (const body of [first, second, third]) {
        const { system, firstUser } = promptParts(provider, body);
        expect(system).not.toContain(LISTING);
        expect(firstUser).toContain("go");
        expect(firstUser).toContain(`<system-reminder>\\n${LISTING}`);
        expect(firstUser).toContain("mcp__big__bulk_30");
      }

      const secondTools = toolNames(provider, second);
      expect(secondTools).toContain(ECHO);
      expect(secondTools.filter((name) => name.startsWith("mcp__"))).toEqual([ECHO]);
      expect(toolNames(provider, third)).toContain(ECHO);

      const [search, echo] = toolResultLines(result.events);
      expect(search!.message.content).toEqual([
        { type: "tool_result", tool_use_id: expect.any(String), content: [{ type: "tool_reference", tool_name: ECHO }] },
        { type: "text", text: "Tool loaded." },
      ]);
      expect(search!.tool_use_result).toEqual({ matches: [ECHO], query: `select:${ECHO}`, total_deferred_tools: TOTAL_DEFERRED });
      expect(echo!.message.content[0]).toMatchObject({ content: "ECHO: HI" });

      if (provider === "anthropic") {
        const request = workspace.server.requests[1]!;
        expect(request.headers["anthropic-beta"]).toContain("advanced-tool-use-2025-11-20");
        const tools = (second as { tools: Array<{ name: string; defer_loading?: boolean }> }).tools;
        expect(tools.find((tool) => tool.name === ECHO)).toMatchObject({ defer_loading: true, input_schema: { properties: { text: {} } } });
        expect(tools.find((tool) => tool.name === "DeferredToolPlaceholder")).toMatchObject({ defer_loading: true });
        expect(JSON.stringify(second)).toContain(JSON.stringify({ type: "tool_reference", tool_name: ECHO }));
      } else {
        expect(JSON.stringify(second)).not.toContain("tool_reference");
        expect(JSON.stringify(second)).toContain(`Loaded ${ECHO}`);
        expect(JSON.stringify(second)).not.toContain("DeferredToolPlaceholder");
      }
    },
  );

  it.each(["anthropic", "openai-chat"] as const)(
    "%s: a deferred tool called without loading runs when its input fits, and is loaded from then on; a guessed input gets the select: hint",
    async (provider) => {
      workspace = await createWorkspace("text");
      await workspace.useScenario({
        turns: [
          { tool_calls: [{ name: "NotebookEdit", input: { path: "a.ipynb", cell: 0, source: "x" } }] },
          { tool_calls: [{ name: ECHO, input: { text: "direct" } }] },
          { text: "done" },
        ],
      });
      const result = await run(["--mcp-config", JSON.stringify({ mcpServers: BIG })], provider);
      expect(result.code, result.stderr).toBe(0);
      expectWellFormedRun(result, 1);
      const [guessed, direct] = toolResultLines(result.events);
      expect(guessed!.tool_error_code).toBe("invalid_input");
      expect(guessed!.message.content[0]).toMatchObject({
        is_error: true,
        content: expect.stringMatching(/^<tool_use_error>InputValidationError: NotebookEdit failed[\s\S]*"select:NotebookEdit"/),
      });
      expect(direct!.message.content[0]).toMatchObject({ content: "ECHO: DIRECT" });
      expect(direct!.message.content[0]).not.toHaveProperty("is_error", true);

      const [first, second, third] = workspace.server.requests.map((request) => request.body);
      for (const body of [first, second]) {
        expect(toolNames(provider, body)).not.toContain(ECHO);
        expect(toolNames(provider, body)).not.toContain("NotebookEdit");
      }
      // After the call that ran, its schema goes with every request; the refused guess loaded nothing.
      expect(toolNames(provider, third).filter((name) => name.startsWith("mcp__") || DEFERRED_BUILTINS.includes(name))).toEqual([ECHO]);
      expect(promptParts(provider, third).firstUser).toContain(LISTING);
      if (provider === "anthropic") {
        // No tool_reference shows its schema, so it goes as a plain tool, deferred loading still on for the rest.
        const tools = (third as { tools: Array<{ name: string; defer_loading?: boolean }> }).tools;
        const echo = tools.find((tool) => tool.name === ECHO);
        expect(echo).toMatchObject({ input_schema: { properties: { text: {} } } });
        expect(echo).not.toHaveProperty("defer_loading");
        expect(tools.find((tool) => tool.name === "DeferredToolPlaceholder")).toMatchObject({ defer_loading: true });
        expect(workspace.server.requests[2]!.headers["anthropic-beta"]).toContain("advanced-tool-use-2025-11-20");
      } else {
        const tools = (third as { tools: Array<{ type: string; function: { name: string; parameters: unknown } }> }).tools;
        expect(tools.find((tool) => tool.function.name === ECHO)).toMatchObject({
          type: "function",
          function: { parameters: { properties: { text: {} } } },
        });
      }
    },
  );

  it("keywords rank the deferred tools", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "ToolSearch", input: { query: "echo text back upper-cased", max_results: 3 } }] },
        { tool_calls: [{ name: "ToolSearch", input: { query: "zebra quantum" } }] },
        { text: "done" },
      ],
    });
    const result = await run(["--mcp-config", JSON.stringify({ mcpServers: BIG })]);
    expect(result.code, result.stderr).toBe(0);
    const [keywords, nothing] = toolResultLines(result.events);
    const matches = (keywords!.tool_use_result as { matches: string[] }).matches;
    expect(matches[0]).toBe(ECHO);
    expect(matches.length).toBeLessThanOrEqual(3);
    expect(nothing!.message.content[0]).toMatchObject({ content: expect.stringContaining('No deferred tool matches "zebra quantum"') });
    expect(nothing!.tool_use_result).toEqual({ matches: [], query: "zebra quantum", total_deferred_tools: TOTAL_DEFERRED });
  });

  it("permission rules treat a loaded tool as any other; a whole-tool deny rule keeps a tool out of the deferred ones", async () => {
    workspace = await createWorkspace("text");
    const select = "select:mcp__big__echo,mcp__big__picture,mcp__big__fail";
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "ToolSearch", input: { query: select } }] },
        {
          tool_calls: [
            { name: ECHO, input: { text: "ok" } },
            { name: "mcp__big__picture", input: {} },
          ],
        },
        { text: "done" },
      ],
    });
    const result = await runAgentwire(
      [
        "-p",
        "go",
        "--output-format",
        "stream-json",
        "--verbose",
        "--allowedTools",
        ECHO,
        "--disallowedTools",
        "mcp__big__fail",
        "--mcp-config",
        JSON.stringify({ mcpServers: BIG }),
      ],
      { workspace },
    );
    expect(result.code, result.stderr).toBe(0);
    const init = result.events.find((event) => event.type === "system" && event.subtype === "init") as { tools: string[] };
    expect(init.tools).not.toContain("mcp__big__fail");
    expect(JSON.stringify(workspace.server.requests[0]!.body)).not.toContain("mcp__big__fail");
    const [search, echo, picture] = toolResultLines(result.events);
    expect(search!.tool_use_result).toMatchObject({ matches: [ECHO, "mcp__big__picture"], total_deferred_tools: TOTAL_DEFERRED - 1 });
    expect(search!.message.content[1]).toMatchObject({ text: expect.stringContaining("Not among the deferred tools: mcp__big__fail") });
    expect(echo!.message.content[0]).toMatchObject({ content: "ECHO: OK" });
    expect(picture!.message.content[0]).toMatchObject({ is_error: true });
    expect(picture!.tool_error_code).toBe("permission_denied");
  });

  it("a PreToolUse hook matching a deferred tool stops its call once it is loaded", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "ToolSearch", input: { query: `select:${ECHO}` } }] },
        { tool_calls: [{ name: ECHO, input: { text: "blocked" } }] },
        { text: "done" },
      ],
    });
    const hook = { matcher: ECHO, hooks: [{ type: "command", command: "echo the hook refused it >&2; exit 2" }] };
    const result = await run([
      "--settings",
      JSON.stringify({ hooks: { PreToolUse: [hook] } }),
      "--mcp-config",
      JSON.stringify({ mcpServers: BIG }),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [, echo] = toolResultLines(result.events);
    expect(echo!.message.content[0]).toMatchObject({ is_error: true, content: expect.stringContaining("the hook refused it") });
  });

  it("a small server is not deferred; with no deferred built-in chosen either, ToolSearch stays out of the request", async () => {
    workspace = await createWorkspace("text");
    const small = { small: { command: process.execPath, args: [SERVER] } };
    const result = await run(["--tools", "Bash,Read,ToolSearch", "--mcp-config", JSON.stringify({ mcpServers: small })]);
    expect(result.code, result.stderr).toBe(0);
    // Chosen, but with nothing to find it is not sent.
    const init = result.events.find((event) => event.type === "system" && event.subtype === "init") as { tools: string[] };
    expect(init.tools).toContain("ToolSearch");
    const names = toolNames("anthropic", workspace.server.requests[0]!.body);
    expect(names).toEqual(expect.arrayContaining(["Bash", "Read", "mcp__small__echo"]));
    expect(names).not.toContain("ToolSearch");
    expect(JSON.stringify(workspace.server.requests[0]!.body)).not.toContain(LISTING);
    expect(workspace.server.requests[0]!.headers["anthropic-beta"] ?? "").not.toContain("advanced-tool-use");
  });

  it("--tool-profile compact sends no deferral machinery: the big server's tools go whole", async () => {
    workspace = await createWorkspace("text");
    const result = await run(["--tool-profile", "compact", "--mcp-config", JSON.stringify({ mcpServers: BIG })]);
    expect(result.code, result.stderr).toBe(0);
    const names = toolNames("anthropic", workspace.server.requests[0]!.body);
    expect(names).toContain("mcp__big__bulk_30");
    expect(names).not.toContain("ToolSearch");
    expect(JSON.stringify(workspace.server.requests[0]!.body)).not.toContain(LISTING);
  });

  it("a tool loaded before a --resume stays loaded: the next session's first request carries its schema", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "ToolSearch", input: { query: `select:${ECHO}` } }] }, { text: "loaded" }, { text: "still here" }],
    });
    const config = ["--mcp-config", JSON.stringify({ mcpServers: BIG })];
    const first = await run(config);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = (first.events.find((event) => event.type === "result") as { session_id: string }).session_id;
    const resumed = await run([...config, "--resume", sessionId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const names = toolNames("anthropic", workspace.server.requests[2]!.body);
    expect(names.filter((name) => name.startsWith("mcp__"))).toEqual([ECHO]);
    // The listing is added to each request, not stored: the resumed conversation carries it once, in its first message.
    const resumedText = JSON.stringify(workspace.server.requests[2]!.body);
    expect(resumedText.split(LISTING)).toHaveLength(2);
    expect(promptParts("anthropic", workspace.server.requests[2]!.body).firstUser).toContain(LISTING);
    expect(first.stdout + resumed.stdout).not.toContain(LISTING);
  });
});
