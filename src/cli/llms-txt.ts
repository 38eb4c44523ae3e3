import { readFileSync } from "node:fs";
import { BUILT_IN_AGENTS } from "../agents/built-in-agents.js";
import { winners } from "../agents/load-agent-definitions.js";
import { SkillCatalog } from "../skills/catalog.js";
import { createAgentTool } from "../session/subagent/agent-tool.js";
import { createSkillTool } from "../skills/skill-tool.js";
import { splitFrontmatter } from "../text/frontmatter.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { builtinTools } from "../tools/registry.js";
import { toolInputJsonSchema } from "../tools/tool-json-schema.js";
import { createToolSearchTool } from "../tools/tool-search.js";
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
    createAgentTool(winners(BUILT_IN_AGENTS)) as ToolDefinition,
    ...builtinTools(),
    createSkillTool(SkillCatalog.empty()) as ToolDefinition,
    createToolSearchTool(() => []),
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
    "## Agent definitions",
    "",
    "An agent definition is a kind of subagent the Agent tool can start (its `subagent_type`), in Claude Code's format: a markdown file whose frontmatter has `name`, `description` and optionally `tools` (`Read, Grep` or a YAML list; absent: all of the parent's tools), `disallowedTools`, `model` (`inherit`, an alias or a model id), `effort`, `maxTurns`, `permissionMode`, `background`, `skills`, and whose body is the subagent's system prompt. agentwire reads them from the project's `.agents/agents/` and `.claude/agents/` (from the working directory up to the repository root; only in a trusted project, see `agentwire trust`), then `$AGENTWIRE_HOME/agents/` and `~/.claude/agents/`; `--agents JSON` and the Agent SDK's `agents` give the same fields as data (`{\"name\": {\"description\": …, \"prompt\": …}}`). When names collide the SDK's win over `--agents`, those over the project's, those over the user's, and those over the built-ins. `system/init.agents` names them all; `--list-agents` shows what a run would offer. The Agent tool's description (under Tools) lists the built-in ones as the model sees them; a run's own definitions are listed there too.",
    "",
    "## The stream-json protocol",
    "",
    shiftHeadings(protocol.trim(), 1),
    "",
  ].join("\n");
}
