import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputEvent } from "../../protocol/events.js";
import { createWorkspace, runAgentwire, type Workspace, userLine } from "../helpers/agentwire.js";

/**
 * A host typed against the Claude Agent SDK reads fields the SDK declares required without a
 * check. This reads those declarations from the SDK's own `sdk.d.ts` (the TypeScript compiler
 * resolves every alias), runs agentwire through the scenarios that produce each kind of line,
 * and checks every line against the SDK message type with the same `type`/`subtype`, including
 * the nested objects (`message`, `usage`, …) the SDK declares as plain object types.
 */

interface SdkShape {
  type: string;
  subtype?: string;
  tsType: ts.Type;
}

/** agentwire's own lines, documented as extensions in protocol/README.md: no SDK type to meet. */
const EXTENSIONS = new Set(["system/input_error", "system/warning", "system/permission_request"]);

/**
 * Objects checked at their own level only. `assistant.message` is typed as the Messages API's
 * BetaMessage, which has since gained required fields (`container`, `stop_details`,
 * `usage.iterations`, …) that the real Claude Code does not put on its assistant lines either
 * (shared/reference/claude-code/transcripts/*: id, type, role, model, content, stop_reason,
 * stop_sequence, usage, context_management).
 */
const NOT_DESCENDED = new Set(["assistant.message"]);

let checker: ts.TypeChecker;
let shapes: SdkShape[];

function loadSdkShapes(): void {
  const require = createRequire(import.meta.url);
  const sdkDir = dirname(require.resolve("@anthropic-ai/claude-agent-sdk"));
  const program = ts.createProgram([join(sdkDir, "sdk.d.ts")], { strict: true, skipLibCheck: true, noEmit: true });
  checker = program.getTypeChecker();
  const source = program.getSourceFile(join(sdkDir, "sdk.d.ts"))!;
  const alias = source.statements.find(
    (statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === "SDKMessage",
  )!;
  const union = checker.getTypeAtLocation(alias.name);
  shapes = (union.isUnion() ? union.types : [union]).map((member) => ({
    type: literalOf(member, "type")!,
    subtype: literalOf(member, "subtype"),
    tsType: member,
  }));
}

function literalOf(type: ts.Type, property: string): string | undefined {
  const symbol = type.getProperty(property);
  if (!symbol) return undefined;
  const propertyType = checker.getTypeOfSymbol(symbol);
  return propertyType.isStringLiteral() ? propertyType.value : undefined;
}

/** Paths of required properties the value lacks, descending into single object types. */
function missingRequired(type: ts.Type, value: Record<string, unknown>, path: string): string[] {
  return checker.getPropertiesOfType(type).flatMap((symbol) => {
    const name = symbol.getName();
    const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
    if (!(name in value)) return optional ? [] : [`${path}${name}`];
    const nested = value[name];
    const objectType = NOT_DESCENDED.has(`${path}${name}`) ? undefined : singleObjectType(checker.getTypeOfSymbol(symbol));
    if (objectType && nested !== null && typeof nested === "object" && !Array.isArray(nested)) {
      return missingRequired(objectType, nested as Record<string, unknown>, `${path}${name}.`);
    }
    return [];
  });
}

/** The object type of a property typed `T`, `T | null` or `T | undefined`; otherwise undefined. */
function singleObjectType(type: ts.Type): ts.Type | undefined {
  const members = (type.isUnion() ? type.types : [type]).filter((member) => !(member.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
  if (members.length !== 1) return undefined;
  const [member] = members;
  if (!(member!.flags & ts.TypeFlags.Object) || checker.isArrayType(member!) || checker.isTupleType(member!)) return undefined;
  // Records (`{ [model: string]: ModelUsage }`) have no fixed properties to require.
  return checker.getPropertiesOfType(member!).length > 0 ? member : undefined;
}

function kindOf(event: OutputEvent): string {
  return "subtype" in event && typeof event.subtype === "string" ? `${event.type}/${event.subtype}` : event.type;
}

let workspace: Workspace;
const events: OutputEvent[] = [];
const STREAM = ["--output-format", "stream-json", "--verbose", "--include-partial-messages"];

beforeAll(async () => {
  loadSdkShapes();
  const runs: Array<{ scenario: string; args: string[]; stdin?: string }> = [
    { scenario: "read", args: ["-p", "What is in hello.txt?"] },
    { scenario: "thinking", args: ["-p", "What is 17*3?"] },
    { scenario: "api-429", args: ["-p", "Say hello."] },
    { scenario: "api-401", args: ["-p", "Say hello."] },
    { scenario: "max-turns", args: ["-p", "Read every file.", "--max-turns", "1"] },
    { scenario: "write", args: ["-p", "Write a file."] },
    { scenario: "bash", args: ["-p", "Run it.", "--dangerously-skip-permissions"] },
    { scenario: "multi-turn", args: ["--input-format", "stream-json"], stdin: userLine("First?") + userLine("Second?") },
  ];
  for (const run of runs) {
    await workspace?.cleanup();
    workspace = await createWorkspace(run.scenario);
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(workspace.cwd, "hello.txt"), "Hello, world!\n");
    const result = await runAgentwire([...run.args, ...STREAM], { workspace, ...(run.stdin ? { stdin: run.stdin } : {}) });
    events.push(...result.events);
  }
}, 60_000);

afterAll(async () => {
  await workspace?.cleanup();
});

describe("every line meets the Claude Agent SDK's declared required fields", () => {
  it("reads the SDK's message types", () => {
    expect(shapes.length).toBeGreaterThan(10);
    const init = shapes.find((shape) => shape.type === "system" && shape.subtype === "init")!;
    expect(missingRequired(init.tsType, {}, "")).toContain("claude_code_version");
    const assistant = shapes.find((shape) => shape.type === "assistant")!;
    // Descends into nested objects, except where told not to.
    expect(missingRequired(assistant.tsType, { message: {} }, "")).toContain("message.content");
    expect(missingRequired(assistant.tsType, { message: {} }, "assistant.")).not.toContain("assistant.message.content");
  });

  it("the runs produced every kind of line hosts read", () => {
    const kinds = new Set(events.map(kindOf));
    for (const kind of [
      "system/init",
      "assistant",
      "user",
      "stream_event",
      "system/api_retry",
      "result/success",
      "result/error_during_execution",
      "result/error_max_turns",
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it("no line lacks a field its SDK type requires", () => {
    const problems = events.flatMap((event) => {
      const kind = kindOf(event);
      if (EXTENSIONS.has(kind)) return [];
      const candidates = shapes.filter(
        (shape) => shape.type === event.type && (shape.subtype === undefined || shape.subtype === (event as { subtype?: string }).subtype),
      );
      if (candidates.length === 0) return [`${kind}: no SDK message type has this type/subtype`];
      // Several SDK types share a discriminant (user, user replay): meeting one is enough.
      const misses = candidates.map((shape) =>
        missingRequired(shape.tsType, event as unknown as Record<string, unknown>, `${event.type}.`).map((path) =>
          path.slice(event.type.length + 1),
        ),
      );
      const best = misses.reduce((fewest, missing) => (missing.length < fewest.length ? missing : fewest));
      return best.length === 0 ? [] : [`${kind}: missing ${best.join(", ")}`];
    });
    expect([...new Set(problems)]).toEqual([]);
  });
});
