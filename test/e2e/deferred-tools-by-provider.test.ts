import { copyFile, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import {
  createWorkspace,
  expectWellFormedRun,
  PRINT_ARGS,
  PROVIDERS_UNDER_TEST,
  ROOT,
  runAgentwire,
  toolOutcomes,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

// The deferred built-ins NotebookEdit and WebFetch (page only, no side request) driven through
// each wire format the replay server speaks: ToolSearch loads them, they run, and their results
// reach the model in that vendor's own shape. web-fetch.test.ts covers WebFetch's prompt per family.

const NOTEBOOK = join(ROOT, "fixtures", "notebooks", "test4.5.ipynb");
const PAGE = "<html><head><title>Tide Table</title></head><body><h1>High water</h1><p>At 06:12.</p></body></html>";
let workspace: Workspace | undefined;
let closeSite: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeSite?.();
  await workspace?.cleanup();
  workspace = closeSite = undefined;
});

async function startSite(): Promise<string> {
  const server = createServer((_, response) => response.writeHead(200, { "content-type": "text/html" }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closeSite = () => new Promise((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface WireTool {
  name: string;
  schema: unknown;
}

/** The tools a request offered with their input schemas, whatever the wire format. */
function wireTools(provider: ProviderUnderTest, body: unknown): WireTool[] {
  const tools = ((body as { tools?: unknown[] }).tools ?? []) as Array<Record<string, unknown>>;
  if (provider === "gemini")
    return tools.flatMap((tool) =>
      ((tool.functionDeclarations ?? []) as Array<Record<string, unknown>>).map((declaration) => ({
        name: declaration.name as string,
        schema: declaration.parametersJsonSchema ?? declaration.parameters,
      })),
    );
  if (provider === "openai-chat" || provider === "ollama")
    return tools.map((tool) => {
      const fn = tool.function as { name: string; parameters: unknown };
      return { name: fn.name, schema: fn.parameters };
    });
  if (provider === "openai-responses") return tools.map((tool) => ({ name: tool.name as string, schema: tool.parameters }));
  return tools.map((tool) => ({ name: tool.name as string, schema: tool.input_schema }));
}

/** The tool results a request carried, by call id, each as JSON text of what the vendor's result field held. */
function wireToolResults(provider: ProviderUnderTest, body: unknown): Map<string, string> {
  const found = new Map<string, string>();
  if (provider === "anthropic") {
    for (const message of (body as { messages: Array<{ content: Array<Record<string, unknown>> | string }> }).messages)
      for (const block of Array.isArray(message.content) ? message.content : [])
        if (block.type === "tool_result") found.set(block.tool_use_id as string, JSON.stringify(block.content));
  } else if (provider === "gemini") {
    for (const content of (body as { contents: Array<{ parts: Array<Record<string, unknown>> }> }).contents)
      for (const part of content.parts) {
        const response = part.functionResponse as { id: string; response: unknown } | undefined;
        if (response) found.set(response.id, JSON.stringify(response.response));
      }
  } else if (provider === "openai-responses") {
    for (const item of (body as { input: Array<Record<string, unknown>> }).input)
      if (item.type === "function_call_output") found.set(item.call_id as string, JSON.stringify(item.output));
  } else {
    for (const message of (body as { messages: Array<Record<string, unknown>> }).messages)
      if (message.role === "tool") found.set(message.tool_call_id as string, JSON.stringify(message.content));
  }
  return found;
}

function toolUseIds(events: OutputEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === "assistant" ? event.message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])) : [],
  );
}

describe("NotebookEdit and WebFetch loaded by ToolSearch, per wire format", () => {
  it.each(Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[])("%s", async (provider) => {
    const site = await startSite();
    workspace = await createWorkspace("text");
    const notebook = join(workspace.cwd, "demo.ipynb");
    await copyFile(NOTEBOOK, notebook);
    await workspace.useScenario({
      turns: [
        { tool_calls: [{ name: "ToolSearch", input: { query: "select:NotebookEdit,WebFetch" } }] },
        { tool_calls: [{ name: "Read", input: { file_path: "demo.ipynb", limit: 4 } }] },
        { tool_calls: [{ name: "NotebookEdit", input: { notebook_path: notebook, cell_id: "38f37a24", new_source: "print('tide')\n" } }] },
        { tool_calls: [{ name: "WebFetch", input: { url: `${site}/tides.html` } }] },
        { text: "Done." },
      ],
    });
    const run = await runAgentwire([...PRINT_ARGS, "--permission-mode", "acceptEdits", "--allowedTools", "WebFetch(domain:127.0.0.1)"], {
      workspace,
      provider,
    });
    expectWellFormedRun(run, 1);
    const [search, read, edit, fetched] = toolOutcomes(run.events);
    expect(search!.details).toMatchObject({ matches: ["NotebookEdit", "WebFetch"], query: "select:NotebookEdit,WebFetch" });
    const [cells] = JSON.parse(read!.content) as Array<{ type: string; text: string }>;
    expect(cells!.text).toContain('print("hello")</cell id="38f37a24">');
    expect(edit).toMatchObject({ isError: false, content: "Updated cell 38f37a24 with print('tide')\n" });
    expect(edit!.details).toMatchObject({
      cell_id: "38f37a24",
      edit_mode: "replace",
      new_source: "print('tide')\n",
      notebook_path: notebook,
    });
    expect(JSON.parse(await readFile(notebook, "utf8")).cells[3].source).toEqual(["print('tide')\n"]);
    expect(fetched).toMatchObject({ isError: false, details: { code: 200, url: `${site}/tides.html` } });
    expect(fetched!.content).toContain("High water");

    // Five model requests: no side request, since WebFetch had no prompt.
    const bodies = workspace.server.requests.map((request) => request.body);
    expect(bodies).toHaveLength(5);
    const names = bodies.map((body) => wireTools(provider, body).map((tool) => tool.name));
    expect(names[0]).toContain("ToolSearch");
    expect(names[0]).not.toContain("NotebookEdit");
    expect(names[0]).not.toContain("WebFetch");
    // The request after the ToolSearch carries both schemas, as the vendor spells a tool.
    const loaded = wireTools(provider, bodies[1]);
    expect(loaded.find((tool) => tool.name === "NotebookEdit")!.schema).toMatchObject({
      properties: { notebook_path: {}, cell_id: {}, new_source: {}, cell_type: {}, edit_mode: {} },
    });
    expect(loaded.find((tool) => tool.name === "WebFetch")!.schema).toMatchObject({ properties: { url: {} } });

    // Each result went back under its call's id in the vendor's own tool-result shape.
    const ids = toolUseIds(run.events);
    expect(ids).toHaveLength(4);
    const onWire = wireToolResults(provider, bodies[4]);
    expect([...onWire.keys()]).toEqual(ids);
    expect(onWire.get(ids[1]!)).toContain("38f37a24");
    expect(onWire.get(ids[2]!)).toContain("Updated cell 38f37a24 with print('tide')");
    expect(onWire.get(ids[3]!)).toContain("High water");
  });
});
