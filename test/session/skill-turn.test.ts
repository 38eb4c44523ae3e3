import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { skillPrompt, type SkillTurnInput } from "../../src/session/skill-turn.js";
import { type Skill, SkillCatalog } from "../../src/skills/catalog.js";
import { GRANT_ALL } from "../../src/skills/skill-grants.js";
import { SessionState } from "../../src/tools/session-state.js";

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "agentwire-skill-turn-"));
  for (const [name, description] of [
    ["release-notes", "Writes release notes from the commits since the last tag"],
    ["pdf-forms", "Fills in PDF forms from a JSON file of field values"],
  ] as const) {
    mkdirSync(join(directory, name));
    writeFileSync(join(directory, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n\nInstructions.\n`);
  }
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

const prompt = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });

async function listingFor(catalog: SkillCatalog, text: string, budgetChars: number, rerank?: SkillTurnInput["rerank"]): Promise<string> {
  const message = await skillPrompt({
    catalog,
    prompt: prompt(text),
    history: [],
    sessionState: new SessionState(),
    budgetChars,
    ...(rerank ? { rerank } : {}),
  });
  const first = message.content[0];
  return first?.type === "text" ? first.text : "";
}

describe("the skill listing before a prompt", () => {
  it("lists every skill in discovery order without ranking them when the whole listing fits", async () => {
    const catalog = SkillCatalog.discover([{ directory, source: "skills-dir" }], GRANT_ALL);
    const rank = vi.spyOn(catalog, "rank");
    const listing = await listingFor(catalog, "fill in this pdf form", 10_000);
    expect(rank).not.toHaveBeenCalled();
    expect(listing.indexOf("- pdf-forms:")).toBeGreaterThan(0);
    expect(listing.indexOf("- pdf-forms:")).toBeLessThan(listing.indexOf("- release-notes:"));
  });

  it("ranks against the prompt when it does not fit: the matching skill keeps its description", async () => {
    const catalog = SkillCatalog.discover([{ directory, source: "skills-dir" }], GRANT_ALL);
    const rank = vi.spyOn(catalog, "rank");
    const listing = await listingFor(catalog, "write the release notes", 80);
    expect(rank).toHaveBeenCalledOnce();
    expect(listing).toContain("- release-notes: Writes release notes");
    expect(listing).not.toContain("Fills in PDF forms");
    expect(listing).toMatch(/More skills.*pdf-forms/);
  });

  it("asks the model to re-order (--skill-ranking llm) only a listing that does not fit", async () => {
    const catalog = SkillCatalog.discover([{ directory, source: "skills-dir" }], GRANT_ALL);
    const rerank = vi.fn(async (_text: string, candidates: Skill[]) => [...candidates].reverse());
    await listingFor(catalog, "write the release notes", 10_000, rerank);
    expect(rerank).not.toHaveBeenCalled();
    const listing = await listingFor(catalog, "write the release notes", 80, rerank);
    expect(rerank).toHaveBeenCalledOnce();
    expect(rerank.mock.calls[0]![1].map((skill) => skill.name)).toEqual(["release-notes", "pdf-forms"]);
    // The model's order wins: the first it names is described.
    expect(listing).toContain("- pdf-forms: Fills in PDF forms");
  });
});
