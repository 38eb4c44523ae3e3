import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillCatalog } from "../../src/skills/catalog.js";
import { GRANT_ALL } from "../../src/skills/skill-grants.js";
import { ROOT } from "../helpers/agentwire.js";

interface Fixture {
  skills: Array<{ name: string; description: string; when_to_use: string }>;
  queries: Array<{ query: string; expected: string }>;
}

const fixture = JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "skills", "ranking.json"), "utf8")) as Fixture;
let directory: string;
let catalog: SkillCatalog;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "agentwire-ranking-"));
  for (const skill of fixture.skills) {
    mkdirSync(join(directory, skill.name));
    writeFileSync(
      join(directory, skill.name, "SKILL.md"),
      `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\nwhen_to_use: ${JSON.stringify(skill.when_to_use)}\n---\n\nInstructions.\n`,
    );
  }
  catalog = SkillCatalog.discover([{ directory, source: "skills-dir" }], GRANT_ALL);
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("ranking skills against a prompt (BM25)", () => {
  it(`finds the right skill in the top 3 for at least 90 % of ${fixture.queries.length} labelled requests over ${fixture.skills.length} skills`, async () => {
    expect(fixture.skills.length).toBeGreaterThanOrEqual(50);
    expect(fixture.queries.length).toBeGreaterThanOrEqual(30);
    const misses: string[] = [];
    for (const { query, expected } of fixture.queries) {
      const top3 = (await catalog.rank(query)).slice(0, 3).map(({ skill }) => skill.name);
      if (!top3.includes(expected)) misses.push(`${query} → ${top3.join(", ")} (expected ${expected})`);
    }
    const recall = 1 - misses.length / fixture.queries.length;
    expect(recall, misses.join("\n")).toBeGreaterThanOrEqual(0.9);
  });

  it("a prompt that shares no word with any skill scores every skill 0, in discovery order", async () => {
    const ranked = await catalog.rank("zzz qqq");
    expect(ranked.every(({ score }) => score === 0)).toBe(true);
    expect(ranked.map(({ skill }) => skill.name)).toEqual(catalog.entries.map((entry) => entry.name));
  });
});
