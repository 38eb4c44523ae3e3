import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GRANT_ALL } from "../../src/skills/skill-grants.js";
import { SkillCatalog } from "../../src/skills/catalog.js";
import { ROOT } from "../helpers/agentwire.js";

// Real SKILL.md files from public repositories (fixtures/skills-in-the-wild/README.md says where
// each comes from); expected.json says what each author meant.
const DIRECTORY = join(ROOT, "fixtures", "skills-in-the-wild");

interface Expected {
  source: string;
  name?: string;
  description?: string;
  argumentHint?: string;
  /** Values agentwire has to quote to read the frontmatter. */
  quoted?: string[];
  /** The frontmatter's own name, when it differs from the folder's. */
  declaredName?: string;
  skipped?: { why: string; reason: string };
}

const expected = JSON.parse(readFileSync(join(DIRECTORY, "expected.json"), "utf8")) as Record<string, Expected>;
const folders = readdirSync(DIRECTORY, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "licenses")
  .map((entry) => entry.name);

describe("SKILL.md files from public skill collections", () => {
  it("is a realistic set: over thirty skills from several collections, a good share of them not strictly valid YAML", () => {
    expect(Object.keys(expected).sort()).toEqual([...folders].sort());
    const entries = Object.values(expected);
    expect(entries.length).toBeGreaterThanOrEqual(30);
    expect(new Set(entries.map((entry) => entry.source)).size).toBeGreaterThanOrEqual(4);
    expect(entries.filter((entry) => entry.quoted).length).toBeGreaterThanOrEqual(12);
  });

  it("loads every one with the name and description its author meant, or skips it for its stated reason", async () => {
    const catalog = SkillCatalog.discover([{ directory: DIRECTORY, source: "skills-dir" }], GRANT_ALL);
    const { skills, problems } = await catalog.load();
    const loaded = Object.fromEntries(skills.map((skill) => [skill.name, skill]));
    for (const [folder, want] of Object.entries(expected)) {
      const mine = problems.filter((problem) => problem.path === join(DIRECTORY, folder, "SKILL.md"));
      if (want.skipped) {
        expect(loaded[folder], folder).toBeUndefined();
        expect(mine, folder).toEqual([
          { code: "skill_skipped", path: join(DIRECTORY, folder, "SKILL.md"), reason: expect.stringContaining(want.skipped.reason) },
        ]);
        continue;
      }
      expect(loaded[folder], folder).toMatchObject({ name: want.name, description: want.description, argumentHint: want.argumentHint });
      const fixes = mine.map((problem) => ({ code: problem.code, reason: problem.reason }));
      const quotedNote = want.quoted && `it was read with the value of ${want.quoted.map((key) => `\`${key}\``).join(", ")} quoted`;
      expect(fixes, folder).toEqual([
        ...(quotedNote ? [{ code: "skill_fixed", reason: expect.stringContaining(quotedNote) }] : []),
        ...(want.declaredName
          ? [{ code: "skill_fixed", reason: expect.stringContaining(`its name "${want.declaredName}" does not match its folder`) }]
          : []),
      ]);
    }
    expect(skills.map((skill) => skill.name)).toEqual(folders.filter((folder) => !expected[folder]!.skipped).sort());
  });
});
