import { describe, expect, it } from "vitest";
import { shiftHeadings } from "../../src/text/markdown-headings.js";
import { runAgentwire, createWorkspace } from "../helpers/agentwire.js";

describe("shiftHeadings", () => {
  it("moves headings deeper, not lines inside fenced code, and stops at six", () => {
    const text = [
      "# Title",
      "text",
      "````md",
      "# a comment",
      "```",
      "# still code",
      "````",
      "## Part",
      "~~~",
      "# tilde code",
      "~~~",
      "###### Deep",
      "#no-space",
    ].join("\n");
    expect(shiftHeadings(text, 2).split("\n")).toEqual([
      "### Title",
      "text",
      "````md",
      "# a comment",
      "```",
      "# still code",
      "````",
      "#### Part",
      "~~~",
      "# tilde code",
      "~~~",
      "###### Deep",
      "#no-space",
    ]);
  });
});

describe("--llms-txt", () => {
  it("keeps code examples as written and repeats no heading", async () => {
    const workspace = await createWorkspace("text");
    try {
      const run = await runAgentwire(["--llms-txt"], { workspace });
      expect(run.code).toBe(0);
      // The skill-writing guide's example SKILL.md starts its body with a level-1 heading.
      expect(run.stdout).toMatch(/```[a-z]*\n(?:[^`]*\n)?# Release notes\n/);
      const headings = run.stdout
        .replace(/^(```|~~~)[\s\S]*?^\1/gm, "")
        .split("\n")
        .filter((line) => /^#{1,6} /.test(line));
      expect(headings.filter((heading, index) => headings.indexOf(heading) !== index)).toEqual([]);
      // The agent types, as the parent model reads them.
      expect(headings).toContain("## Agent definitions");
      expect(run.stdout).toMatch(
        /^Available agent types for the Agent tool:\n- Explore: .*\n- fork: .*\n- general-purpose: .* \(Tools: \*\)\n- Plan: /m,
      );
    } finally {
      await workspace.cleanup();
    }
  });
});
