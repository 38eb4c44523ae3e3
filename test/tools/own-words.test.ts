import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpToolDefinition } from "../../src/mcp/mcp-tools.js";
import { SkillCatalog } from "../../src/skills/catalog.js";
import { createSkillTool } from "../../src/skills/skill-tool.js";
import { compactTool } from "../../src/tools/compact-profile.js";
import type { ToolDefinition } from "../../src/tools/define-tool.js";
import { builtinTools } from "../../src/tools/registry.js";
import { toolInputJsonSchema } from "../../src/tools/tool-json-schema.js";
import { createStructuredOutputTool } from "../../src/tools/structured-output.js";
import { ROOT } from "../helpers/agentwire.js";
import { descriptionsIn, PHRASE_WORDS, phraseFingerprint, phrases } from "../helpers/shared-phrases.js";

// Tool descriptions are prompt text, and like all of agentwire's text they are its own words;
// only the schemas (names, types, required fields) match Claude Code's. This compares every
// description agentwire sends a model with Claude Code 2.1.330's recorded ones (the shared
// reference, api/tools-*.json), by fingerprints of their 8-word runs: the repository keeps the
// fingerprints, not Claude Code's text. With the reference at hand (../shared, as on every
// developer machine and in CI) the fingerprints are checked against it;
// AGENTWIRE_RECORD_PHRASES=1 writes them afresh after a new reference is recorded.
const REFERENCE = join(ROOT, "..", "shared", "reference", "claude-code", "api");
const FINGERPRINTS = join(ROOT, "test", "fixtures", "claude-code", "tool-description-phrases.txt");
const HEADER = `# Fingerprints (sha256, first 16 hex digits) of every ${PHRASE_WORDS}-word run in Claude Code 2.1.330's tool and parameter descriptions (test/tools/own-words.test.ts).`;

function referenceFingerprints(): string[] {
  const files = readdirSync(REFERENCE).filter((file) => /^tools-.*\.json$/.test(file));
  const texts = files.flatMap((file) => descriptionsIn(JSON.parse(readFileSync(join(REFERENCE, file), "utf8"))));
  return [...new Set(texts.flatMap(phrases).map(phraseFingerprint))].sort();
}

/** Every tool agentwire can offer a model, in each of its forms. */
async function everyTool(): Promise<ToolDefinition[]> {
  const builtins = builtinTools();
  const skills = SkillCatalog.empty();
  return [
    ...builtins,
    ...builtins.filter((tool) => ["Bash", "Read", "Write"].includes(tool.name)).map(compactTool),
    createSkillTool(skills),
    createSkillTool(skills, { compact: true }),
    await createStructuredOutputTool({ type: "object", properties: { answer: { type: "string" } } }),
    // A server's tool without a description of its own gets agentwire's.
    mcpToolDefinition("server", { name: "lookup" }, async () => ({ content: [] })),
  ];
}

describe("tool descriptions in agentwire's own words", () => {
  it.skipIf(!existsSync(REFERENCE))("the fingerprints are those of the recorded Claude Code reference", () => {
    const fresh = referenceFingerprints();
    if (process.env.AGENTWIRE_RECORD_PHRASES === "1") writeFileSync(FINGERPRINTS, `${HEADER}\n${fresh.join("\n")}\n`);
    expect(
      readFileSync(FINGERPRINTS, "utf8")
        .split("\n")
        .filter((line) => line !== "" && !line.startsWith("#")),
    ).toEqual(fresh);
  });

  it(`no description agentwire sends shares a run of ${PHRASE_WORDS} words with Claude Code's`, async () => {
    const known = new Set(
      readFileSync(FINGERPRINTS, "utf8")
        .split("\n")
        .filter((line) => line !== "" && !line.startsWith("#")),
    );
    expect(known.size).toBeGreaterThan(1000);
    const shared: string[] = [];
    for (const tool of await everyTool()) {
      for (const text of [tool.description, ...descriptionsIn(toolInputJsonSchema(tool))]) {
        for (const phrase of phrases(text)) if (known.has(phraseFingerprint(phrase))) shared.push(`${tool.name}: "${phrase}"`);
      }
    }
    expect(shared.join("\n")).toBe("");
  });

  it.skipIf(!existsSync(REFERENCE))("finds a copied run however it is re-cased or re-punctuated (the check can fail)", () => {
    const known = new Set(referenceFingerprints());
    const [reference] = descriptionsIn(JSON.parse(readFileSync(join(REFERENCE, "tools-default-2.1.330.json"), "utf8")));
    const disguised = reference!.toUpperCase().replace(/ /g, " — ").replace(/\./g, "!");
    expect(phrases(disguised).filter((phrase) => known.has(phraseFingerprint(phrase))).length).toBeGreaterThan(10);
  });
});
