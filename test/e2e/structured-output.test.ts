import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createWorkspace,
  expectWellFormedRun,
  PROVIDERS_UNDER_TEST,
  results,
  runAgentwire,
  type ProviderUnderTest,
  type Workspace,
} from "../helpers/agentwire.js";

const STREAM = ["--output-format", "stream-json", "--verbose"];
const CITY_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, population: { type: "integer", minimum: 0 } },
  required: ["city", "population"],
  additionalProperties: false,
};
const answer = (input: unknown) => ({ tool_calls: [{ name: "StructuredOutput", input }] });

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

/** The tool definitions the model was offered in request `index`, whatever the wire format. */
function offeredToolNames(index: number): string[] {
  const body = JSON.stringify(workspace!.server.requests[index]!.body);
  return [...body.matchAll(/"name":"(StructuredOutput|Read|Bash)"/g)].map((match) => match[1]!);
}

describe("--json-schema", () => {
  for (const provider of Object.keys(PROVIDERS_UNDER_TEST) as ProviderUnderTest[]) {
    it(`${provider}: the answer arrives through the StructuredOutput tool and ends the turn`, async () => {
      workspace = await createWorkspace("text");
      await workspace.useScenario({ turns: [answer({ city: "Paris", population: 2_100_000 }), { text: "never asked" }] });
      const run = await runAgentwire(["-p", "Capital of France?", ...STREAM, "--json-schema", JSON.stringify(CITY_SCHEMA)], {
        workspace,
        provider,
      });
      expectWellFormedRun(run, 1);
      expect(run.code).toBe(0);
      expect(results(run.events)[0]).toMatchObject({
        subtype: "success",
        is_error: false,
        terminal_reason: "completed",
        structured_output: { city: "Paris", population: 2_100_000 },
      });
      // One request: a successful answer is not followed by another model call.
      expect(workspace.server.requests).toHaveLength(1);
      expect(offeredToolNames(0)).toContain("StructuredOutput");
      // The model sees the user's schema as the tool's input schema.
      expect(JSON.stringify(workspace.server.requests[0]!.body)).toContain('"population":{"type":"integer","minimum":0}');
    });
  }

  it("input the schema rejects goes back to the model with every violation; the corrected answer ends the turn", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [answer({ city: 7, population: -1, mayor: "x" }), answer({ city: "Paris", population: 2_100_000 })],
    });
    const run = await runAgentwire(["-p", "Capital of France?", ...STREAM, "--json-schema", JSON.stringify(CITY_SCHEMA)], { workspace });
    expectWellFormedRun(run, 1);
    const toolResults = run.events.filter((event) => event.type === "user");
    const rejection = JSON.stringify(toolResults[0]);
    expect(rejection).toContain("InputValidationError");
    expect(rejection).toContain("city: must be string");
    expect(rejection).toContain("population: must be >= 0");
    expect(rejection).toContain("must NOT have additional properties: mayor");
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", structured_output: { city: "Paris", population: 2_100_000 } });
    expect(workspace.server.requests).toHaveLength(2);
  });

  it("a model that answers in prose is reminded to use the tool", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [{ text: "Paris, about two million people." }, answer({ city: "Paris", population: 2_100_000 })],
    });
    const run = await runAgentwire(["-p", "Capital of France?", ...STREAM, "--json-schema", JSON.stringify(CITY_SCHEMA)], { workspace });
    expectWellFormedRun(run, 1);
    const secondRequest = JSON.stringify(workspace.server.requests[1]!.body);
    expect(secondRequest).toContain("call the StructuredOutput tool");
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", num_turns: 3, structured_output: { city: "Paris" } });
  });

  it("a model that never gives a valid answer ends the turn after 6 attempts with error_max_structured_output_retries", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { text: "prose" },
        answer({ city: 1 }),
        { text: "prose again" },
        answer({}),
        answer({ city: "x" }),
        answer({ population: 1 }),
        { text: "never asked" },
      ],
    });
    const run = await runAgentwire(["-p", "Capital of France?", ...STREAM, "--json-schema", JSON.stringify(CITY_SCHEMA)], { workspace });
    expectWellFormedRun(run, 1);
    expect(run.code).toBe(1);
    expect(results(run.events)[0]).toMatchObject({
      subtype: "error_max_structured_output_retries",
      is_error: true,
      terminal_reason: "structured_output_retry_exhausted",
      errors: ["The model did not give a valid answer with the StructuredOutput tool after 6 attempts"],
    });
    expect(results(run.events)[0]!.structured_output).toBeUndefined();
    expect(workspace.server.requests).toHaveLength(6);
  });

  it("other tools run first; text mode prints the answer as one JSON line", async () => {
    workspace = await createWorkspace("text");
    await writeFile(join(workspace.cwd, "city.txt"), "Lyon\n");
    await workspace.useScenario({
      turns: [{ tool_calls: [{ name: "Read", input: { file_path: "city.txt" } }] }, answer({ city: "Lyon", population: 520_000 })],
    });
    const run = await runAgentwire(["-p", "Which city is in city.txt?", "--json-schema", JSON.stringify(CITY_SCHEMA)], { workspace });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ city: "Lyon", population: 520_000 });
    expect(run.stdout.split("\n")).toHaveLength(2);
  });

  it("takes a schema file, a 2020-12 schema as zod writes it, and a non-object root (wrapped as {output})", async () => {
    workspace = await createWorkspace("text");
    const zodSchema = z.toJSONSchema(z.array(z.object({ name: z.string(), stars: z.number().int() })));
    expect(zodSchema.$schema).toContain("2020-12");
    await writeFile(join(workspace.cwd, "schema.json"), JSON.stringify(zodSchema));
    await workspace.useScenario({
      turns: [answer({ output: [{ name: "agentwire", stars: "many" }] }), answer({ output: [{ name: "agentwire", stars: 5 }] })],
    });
    const run = await runAgentwire(["-p", "List repos", ...STREAM, "--json-schema", "schema.json"], { workspace });
    expectWellFormedRun(run, 1);
    expect(JSON.stringify(run.events.find((event) => event.type === "user"))).toContain("output.0.stars: must be integer");
    expect(results(run.events)[0]!.structured_output).toEqual([{ name: "agentwire", stars: 5 }]);
    const tools = (workspace.server.requests[0]!.body as { tools: Array<{ name: string; input_schema: Record<string, unknown> }> }).tools;
    const tool = tools.find((candidate) => candidate.name === "StructuredOutput")!;
    expect(tool.input_schema).toMatchObject({ type: "object", required: ["output"], properties: { output: { type: "array" } } });
    expect(tool.input_schema.$schema).toBeUndefined();
  });

  it("a schema that is not JSON, not a file, or not valid JSON Schema fails before any request", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "never asked" }] });
    const notJson = await runAgentwire(["-p", "x", ...STREAM, "--json-schema", "{type: object}"], { workspace });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain("--json-schema is not valid JSON");
    const missing = await runAgentwire(["-p", "x", "--json-schema", "missing.json"], { workspace });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("not inline JSON, and not a readable file");
    const invalid = await runAgentwire(["-p", "x", ...STREAM, "--json-schema", '{"type":"object","properties":{"a":{"type":"strin"}}}'], {
      workspace,
    });
    expect(invalid.code).toBe(1);
    expect(results(invalid.events)[0]).toMatchObject({ is_error: true, terminal_reason: "invalid_arguments" });
    expect(invalid.stderr).toContain("--json-schema is not a valid JSON Schema");
    expect(workspace.server.requests).toHaveLength(0);
  });

  it("stream-json hosts set it with initialize.jsonSchema (the Agent SDK's outputFormat); a broken one is a control error", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [answer({ city: "Paris", population: 1 })] });
    const control = (id: string, jsonSchema: unknown) =>
      JSON.stringify({ type: "control_request", request_id: id, request: { subtype: "initialize", jsonSchema } });
    const stdin = `${[
      control("bad", { type: 5 }),
      control("good", CITY_SCHEMA),
      JSON.stringify({ type: "user", message: { role: "user", content: "Capital?" } }),
    ].join("\n")}\n`;
    const run = await runAgentwire(["--input-format", "stream-json", ...STREAM], { workspace, stdin });
    expectWellFormedRun(run, 1);
    const answers = run.events.filter((event) => event.type === "control_response").map((event) => event.response);
    expect(answers[0]).toMatchObject({ subtype: "error", request_id: "bad" });
    expect(JSON.stringify(answers[0])).toContain("jsonSchema is not a valid JSON Schema");
    expect(answers[1]).toMatchObject({ subtype: "success", request_id: "good" });
    expect(results(run.events)[0]).toMatchObject({ subtype: "success", structured_output: { city: "Paris", population: 1 } });
  });
});
