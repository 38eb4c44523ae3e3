import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_TOOL_TRAITS } from "../../../src/tools/builtin-tool-traits.js";
import { createWebFetchTool } from "../../../src/tools/web-fetch.js";
import { toolInputJsonSchema } from "../../../src/tools/tool-json-schema.js";
import { ROOT } from "../../helpers/agentwire.js";

const REFERENCE = join(ROOT, "..", "shared", "reference", "claude-code", "api", "tools-deferred-2.1.330.json");

describe("WebFetch's schema against Claude Code 2.1.330's", () => {
  it.skipIf(!existsSync(REFERENCE))("has the same fields, types and bounds; only `prompt` is optional (protocol/README.md)", () => {
    const reference = (JSON.parse(readFileSync(REFERENCE, "utf8")) as Array<{ name: string; input_schema: Record<string, unknown> }>).find(
      (tool) => tool.name === "WebFetch",
    )!.input_schema;
    const ours = toolInputJsonSchema(createWebFetchTool());
    const shape = (schema: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(schema.properties as Record<string, Record<string, unknown>>).map(([name, field]) => {
          const { description: _, ...rest } = field;
          return [name, rest];
        }),
      );
    expect(shape(ours)).toEqual(shape(reference));
    expect(ours.additionalProperties).toBe(false);
    expect(reference.required).toEqual(["url", "prompt"]);
    expect(ours.required).toEqual(["url"]);
  });

  it("is deferred, reads only, and names its URL field for domain rules", () => {
    expect(BUILTIN_TOOL_TRAITS.WebFetch).toEqual({ kind: "read", urlField: "url", deferred: true });
  });
});
