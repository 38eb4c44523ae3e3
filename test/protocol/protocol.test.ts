import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputCommandSchema } from "../../protocol/commands.js";
import { OutputEventSchema } from "../../protocol/events.js";
import { flatJsonSchema, protocolJsonSchema } from "../../protocol/json-schema.js";
import { resolveModelAlias } from "../../src/providers/models.js";
import { ROOT } from "../helpers/agentwire.js";

const examples = join(ROOT, "protocol", "examples");

describe("protocol", () => {
  it("protocol/schema.json is generated from the current zod schemas (run npm run protocol:schema)", () => {
    const committed = JSON.parse(readFileSync(join(ROOT, "protocol", "schema.json"), "utf8")) as unknown;
    expect(committed).toEqual(protocolJsonSchema());
    expect(JSON.parse(readFileSync(join(ROOT, "protocol", "flat-schema.json"), "utf8"))).toEqual(flatJsonSchema());
  });

  it("the model aliases the docs name resolve as the docs say", () => {
    const claims = ["README.md", "protocol/README.md"].flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/`(opus|sonnet|haiku|gemini(?:-\w+)?)`(?: \/ `[\w-]+`)? → `([\w.-]+)`/g)].map(
        (match) => ({ file, alias: match[1]!, id: match[2]! }),
      ),
    );
    expect(claims.length).toBeGreaterThanOrEqual(6);
    for (const claim of claims) expect(resolveModelAlias(claim.alias), `${claim.file}: ${claim.alias}`).toBe(claim.id);
  });

  const files = readdirSync(examples).filter((name) => name.endsWith(".jsonl"));

  it("has the examples protocol/README.md documents", () => {
    const readme = readFileSync(join(ROOT, "protocol", "README.md"), "utf8");
    const documented = [...new Set([...readme.matchAll(/examples\/([\w.-]+\.jsonl)/g)].map((match) => match[1]!))];
    expect(documented.length, "protocol/README.md names its examples").toBeGreaterThan(0);
    expect(documented.filter((name) => !files.includes(name))).toEqual([]);
  });

  it.each(files)("every line of examples/%s validates", (file) => {
    const schema = file.endsWith(".stdin.jsonl") ? null : OutputEventSchema;
    const lines = readFileSync(join(examples, file), "utf8").trimEnd().split("\n");
    for (const [index, line] of lines.entries()) {
      if (!schema && !line.startsWith("{")) continue; // stdin examples include a deliberately invalid line
      const value = JSON.parse(line) as unknown;
      if (schema) {
        const parsed = schema.safeParse(value);
        expect(parsed.success, `${file}:${index + 1} ${parsed.error?.message ?? ""}`).toBe(true);
      } else if (line.startsWith("{")) {
        expect(InputCommandSchema.safeParse(value).success, `${file}:${index + 1}`).toBe(true);
      }
    }
    if (schema) expect((JSON.parse(lines.at(-1)!) as { type: string }).type).toBe("result");
  });

  it("rejects events that drift from the schema (strict objects)", () => {
    const line = JSON.parse(readFileSync(join(examples, "text.jsonl"), "utf8").split("\n")[0]!) as Record<string, unknown>;
    expect(OutputEventSchema.safeParse(line).success).toBe(true);
    expect(OutputEventSchema.safeParse({ ...line, unexpected_field: 1 }).success).toBe(false);
    const { session_id: _sessionId, ...withoutSession } = line;
    expect(OutputEventSchema.safeParse(withoutSession).success).toBe(false);
  });
});
