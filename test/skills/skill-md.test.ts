import { describe, expect, it, vi } from "vitest";
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
    expect(parsed).toMatchObject({
      ok: true,
      metadata: { name: "real-name" },
      notes: [expect.stringMatching(/"Other_Name" does not match its folder; it is loaded as "real-name"/)],
    });
  });

  it("a description over 1024 characters is cut, with a note", async () => {
    const parsed = await parseSkillMarkdown(skill(`name: x\ndescription: ${"a".repeat(2000)}`), "x");
    expect(parsed.ok && parsed.metadata.description.length).toBe(1024);
    expect(parsed.ok && parsed.notes[0]).toMatch(/2000 characters, over the 1024 allowed/);
  });

  it.each([
    ["no description", skill("name: x"), "x", /no description/],
    ["an empty description", skill("name: x\ndescription: '  '"), "x", /no description/],
    ["YAML that quoting does not fix (a merge-conflict marker)", skill("name: x\n<<<<<<< HEAD\ndescription: d"), "x", /not valid YAML/],
    ["a value that opens a quote it never closes", skill('name: x\ndescription: "unclosed'), "x", /not valid YAML/],
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
    const parsed = await parseSkillMarkdown(
      "# PDF tools\n\n## Description\n\nFill and merge PDF forms.\nUse for any PDF.\n\n## Steps\n\n1. …\n",
      "pdf-tools",
    );
    expect(parsed).toMatchObject({
      ok: true,
      metadata: { name: "pdf-tools", description: "Fill and merge PDF forms.\nUse for any PDF.", modelInvocable: true },
    });
  });

  describe("frontmatter that strict YAML refuses but skill authors write", () => {
    it.each([
      [
        "an unquoted colon",
        "description: Clean CSV files: fix encodings, drop blank rows",
        "Clean CSV files: fix encodings, drop blank rows",
        "description",
      ],
      [
        "a reserved first character",
        "description: @Observable state, view composition",
        "@Observable state, view composition",
        "description",
      ],
      ["a leading comma", "description: , it might predict the next word", ", it might predict the next word", "description"],
      [
        "a colon on a continuation line",
        "description: Verify a release.\n  Steps: build, test, tag.",
        "Verify a release. Steps: build, test, tag.",
        "description",
      ],
    ])("%s: loaded with the value quoted and a note", async (_label, line, description, key) => {
      const parsed = await parseSkillMarkdown(skill(`name: x\n${line}\ndisable-model-invocation: true`), "x");
      expect(parsed).toMatchObject({ ok: true, metadata: { name: "x", description, modelInvocable: false } });
      expect(parsed.ok && parsed.notes).toEqual([
        expect.stringMatching(new RegExp(`^its frontmatter is not valid YAML \\(.+\\); it was read with the value of \`${key}\` quoted$`)),
      ]);
    });

    it("an argument hint in brackets is the text written, whether YAML reads a list or nothing at all", async () => {
      const hint = async (value: string) => {
        const parsed = await parseSkillMarkdown(skill(`name: x\ndescription: d\nargument-hint: ${value}`), "x");
        return parsed.ok ? { hint: parsed.metadata.argumentHint, notes: parsed.notes.length } : parsed.reason;
      };
      // A valid flow list: no repair, no note.
      expect(await hint("[message]")).toEqual({ hint: "[message]", notes: 0 });
      expect(await hint("[file, mode]")).toEqual({ hint: "[file, mode]", notes: 0 });
      // Not valid YAML: quoted, with a note.
      expect(await hint("[date] [duration] [reason]")).toEqual({ hint: "[date] [duration] [reason]", notes: 1 });
      // A block list: its items.
      expect(await hint("\n- what to build")).toEqual({ hint: "what to build", notes: 0 });
    });

    it("a field without a value counts as absent; a list where text belongs is its items", async () => {
      expect(await parseSkillMarkdown(skill("name: x\ndescription:\nargument-hint:"), "x")).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/no description/),
      });
      expect(await parseSkillMarkdown(skill("name: x\ndescription: d\nlicense:\ncompatibility:\n  - linux\n  - macos"), "x")).toMatchObject(
        { ok: true, metadata: { license: undefined, compatibility: "linux macos" } },
      );
    });

    it("the YAML parser's warnings never reach the process (hosts show stderr as errors)", async () => {
      const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      try {
        const parsed = await parseSkillMarkdown(skill("name: x\ndescription: d\n? [touch]\n: key that is a list"), "x");
        expect(parsed.ok).toBe(true);
        expect(warn).not.toHaveBeenCalled();
      } finally {
        warn.mockRestore();
      }
    });
  });
});
