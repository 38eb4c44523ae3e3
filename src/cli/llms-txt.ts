import { readFileSync } from "node:fs";
import { SkillCatalog } from "../skills/catalog.js";
import { createAgentTool } from "../session/subagent/agent-tool.js";
import { GENERAL_PURPOSE_SPEC } from "../session/subagent/subagent-spec.js";
import { createSkillTool } from "../skills/skill-tool.js";
import { splitFrontmatter } from "../skills/skill-md.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { builtinTools, toolInputJsonSchema } from "../tools/registry.js";
import { shiftHeadings } from "../text/markdown-headings.js";
import { AGENTWIRE_VERSION } from "../version.js";

/**
 * `--llms-txt`: agentwire's documentation for language models and people in one markdown
 * document, assembled from what the program itself uses — the `--help` text, the tool
 * definitions sent to models, the protocol reference and the bundled guide to writing skills —
 * so it cannot drift from them. `packageRoot` is where `protocol/` and `skills/` are installed.
 */
export function llmsTxt(helpText: string, packageRoot: URL): string {
  const protocol = readFileSync(new URL("protocol/README.md", packageRoot), "utf8");
  const guide = readFileSync(new URL("skills/writing-skills/SKILL.md", packageRoot), "utf8");
  const tools: ToolDefinition[] = [
    createAgentTool([GENERAL_PURPOSE_SPEC]) as ToolDefinition,
    ...builtinTools(),
    createSkillTool(SkillCatalog.empty()) as ToolDefinition,
  ];
  return [
    `# agentwire ${AGENTWIRE_VERSION}`,
    "",
    "> A headless agent process: it reads commands on stdin and writes Claude Code-compatible stream-json (one JSON object per line) on stdout, while it runs a think-act-observe loop against Anthropic, OpenAI, Gemini or a local OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio). It runs its own tools and learns new capabilities from SKILL.md skills.",
    "",
    "## Command line",
    "",
    "```text",
    helpText.trimEnd(),
    "```",
    "",
    "## Tools",
    "",
    "Every tool the model can call, with the exact description and input schema the model receives.",
    "",
    ...tools.flatMap((tool) => [
      `### ${tool.name}`,
      "",
      tool.description.trim(),
      "",
      "```json",
      JSON.stringify(toolInputJsonSchema(tool), null, 2),
      "```",
      "",
    ]),
    "## Skills",
    "",
    "A skill is a folder with a `SKILL.md` (YAML frontmatter with `name` and `description`, then instructions) and optional scripts and files. agentwire finds skills in the project's `.agentwire/skills/`, `.agents/skills/` and `.claude/skills/` (from the working directory up to the repository root), in each `--add-dir` directory's skill folders, in each `--skills-dir`, then in `$AGENTWIRE_HOME/skills/`, `~/.agents/skills/` and `~/.claude/skills/`; the first skill of a name wins. The model sees a listing of names and descriptions before each prompt (ranked against the prompt with BM25 when it does not fit its budget), loads a skill's instructions with the Skill tool, and then reads the skill's files or runs its scripts with the ordinary tools. A user runs a skill directly with a `/name args` message. `--list-skills` shows what a run would use; `--no-skills` turns skills off.",
    "",
    "### Writing a skill",
    "",
    // The guide's own title repeats this section's heading; its sections go one level below.
    shiftHeadings(
      guide
        .slice(splitFrontmatter(guide).bodyStart)
        .trim()
        .replace(/^# .*\n+/, ""),
      2,
    ),
    "",
    "## The stream-json protocol",
    "",
    shiftHeadings(protocol.trim(), 1),
    "",
  ].join("\n");
}
