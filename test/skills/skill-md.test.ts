import { describe, expect, it } from "vitest";
import { parseSkillMarkdown } from "../../src/skills/skill-md.js";

const skill = (frontmatter: string, body = "# Steps\n\n1. Do it.\n") => `---\n${frontmatter}\n---\n\n${body}`;

describe("SKILL.md", () => {
  it("reads the specification's fields and Claude Code's", async () => {
    const parsed = await parseSkillMarkdown(
      skill(
        [
          "name: release-notes",
          "description: Drafts release notes from git history.",
          "license: MIT",
          "compatibility: needs git",
          "metadata:",
          "  author: someone",
          "allowed-tools: Bash(git log:*) Read",
          "when_to_use: changelog, release",
          "disable-model-invocation: true",
          "argument-hint: '[version]'",
        ].join("\n"),
      ),
      "release-notes",
    );
    expect(parsed).toEqual({
      ok: true,
      notes: [],
      metadata: {
        name: "release-notes",
        description: "Drafts release notes from git history.",
        whenToUse: "changelog, release",
        allowedTools: ["Bash(git log:*)", "Read"],
        modelInvocable: false,
        userInvocable: true,
        argumentHint: "[version]",
        license: "MIT",
        compatibility: "needs git",
      },
    });
  });

  it.each([
    ["Bash(git log:*), Read", ["Bash(git log:*)", "Read"]],
    ["[Read, 'Bash(npm test:*)']", ["Read", "Bash(npm test:*)"]],
  ])("allowed-tools %s", async (value, rules) => {
    const parsed = await parseSkillMarkdown(skill(`name: x\ndescription: d\nallowed-tools: ${value}`), "x");
    expect(parsed.ok && parsed.metadata.allowedTools).toEqual(rules);
  });

  it("a name that differs from the folder is loaded under the folder's name, with a note", async () => {
    const parsed = await parseSkillMarkdown(skill("name: Other_Name\ndescription: d"), "real-name");
    expect(parsed).toMatchObject({ ok: true, metadata: { name: "real-name" }, notes: [expect.stringMatching(/"Other_Name" does not match its folder; it is loaded as "real-name"/)] });
  });

  it("a description over 1024 characters is cut, with a note", async () => {
    const parsed = await parseSkillMarkdown(skill(`name: x\ndescription: ${"a".repeat(2000)}`), "x");
    expect(parsed.ok && parsed.metadata.description.length).toBe(1024);
    expect(parsed.ok && parsed.notes[0]).toMatch(/2000 characters, over the 1024 allowed/);
  });

  it.each([
    ["no description", skill("name: x"), "x", /no description/],
    ["an empty description", skill("name: x\ndescription: '  '"), "x", /no description/],
    ["bad YAML", skill("name: x\ndescription: [unclosed"), "x", /not valid YAML/],
    ["a wrongly typed field", skill("name: x\ndescription: d\ndisable-model-invocation: sometimes"), "x", /disable-model-invocation/],
    ["an invalid folder name", skill("name: Bad_Name\ndescription: d"), "Bad_Name", /not a valid skill name/],
    ["a binary file", "---\nname: x\u0000\n---", "x", /binary/],
    ["plain markdown without a Description section", "# Title\n\nSome text.\n", "x", /neither frontmatter nor a `## Description` section/],
  ])("%s makes the skill unusable, with the reason", async (_label, text, folder, reason) => {
    const parsed = await parseSkillMarkdown(text, folder);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });

  it("the plain-markdown form: the description is the ## Description section", async () => {
    const parsed = await parseSkillMarkdown("# PDF tools\n\n## Description\n\nFill and merge PDF forms.\nUse for any PDF.\n\n## Steps\n\n1. …\n", "pdf-tools");
    expect(parsed).toMatchObject({ ok: true, metadata: { name: "pdf-tools", description: "Fill and merge PDF forms.\nUse for any PDF.", modelInvocable: true } });
  });
});
