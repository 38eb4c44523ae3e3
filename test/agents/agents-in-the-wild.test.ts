import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAgentDefinitions } from "../../src/agents/load-agent-definitions.js";
import { ROOT } from "../helpers/agentwire.js";

// Real subagent files from public collections (fixtures/agents-in-the-wild/README.md says where
// each comes from); expected.json says what each author meant.
const DIRECTORY = join(ROOT, "fixtures", "agents-in-the-wild");

interface Expected {
  name: string;
  description: string;
  tools?: string[];
  model?: string;
  quoted?: string[];
}

const expected = JSON.parse(readFileSync(join(DIRECTORY, "expected.json"), "utf8")) as Record<string, Expected>;
const files = readdirSync(DIRECTORY).filter((name) => name.endsWith(".md") && name !== "README.md");
const home = mkdtempSync(join(tmpdir(), "agents-wild-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("agent definition files from public collections", () => {
  it("is a realistic set: ten or more files from several collections, some not strictly valid YAML", () => {
    expect(Object.keys(expected).sort()).toEqual([...files].sort());
    expect(files.length).toBeGreaterThanOrEqual(10);
    expect(new Set(files.map((file) => file.split("-")[0])).size).toBeGreaterThanOrEqual(3);
    expect(Object.values(expected).filter((entry) => entry.quoted).length).toBeGreaterThanOrEqual(3);
  });

  it("loads each one as a user definition with the name, description, tools and model its author meant", async () => {
    cpSync(DIRECTORY, join(home, ".claude", "agents"), { recursive: true });
    const { definitions, problems } = await loadAgentDefinitions({ cwd: home, project: undefined, home, agentwireHome: join(home, "aw") });
    for (const [file, want] of Object.entries(expected)) {
      const definition = definitions.find((entry) => entry.name === want.name);
      expect(definition, file).toBeDefined();
      expect(definition!.source).toBe("user");
      expect(definition!.file).toBe(join(home, ".claude", "agents", file));
      expect(definition!.description.startsWith(want.description), file).toBe(true);
      expect(definition!.tools, file).toEqual(want.tools);
      expect(definition!.model, file).toEqual(want.model);
      // The body is the prompt: what follows the frontmatter, trimmed.
      const text = readFileSync(join(DIRECTORY, file), "utf8");
      expect(text.trimEnd().endsWith(definition!.prompt), file).toBe(true);
      const fixed = problems.filter((problem) => problem.path === definition!.file);
      expect(
        fixed.map((problem) => problem.code),
        file,
      ).toEqual(want.quoted ? ["agent_fixed"] : []);
      for (const key of want.quoted ?? []) expect(fixed[0]!.message).toContain(`\`${key}\``);
    }
    // The README and the licences are not definitions, and nothing else was reported.
    expect(problems.filter((problem) => problem.code !== "agent_fixed").map((problem) => problem.message)).toEqual([
      expect.stringContaining("README.md was not loaded: it has no frontmatter"),
    ]);
  });
});
