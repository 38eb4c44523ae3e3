// Builds fixtures/tool-search/ from two public MCP servers' own published data, so that the
// ToolSearch measurements (test/tools/tool-search-measure.test.ts) run on real tool sets and on
// requests that someone other than agentwire's authors labelled:
//   - microsoft/mcp (Azure MCP server): its tool list (name, description, options) and the
//     prompts its own tool-selection evaluator labels with the expected tool;
//   - github/github-mcp-server: the tools its README documents (name, description, parameters),
//     as distractors.
// Usage: node scripts/build-tool-search-fixture.mjs <microsoft+mcp git dir> <github-mcp-server git dir>
// (bare clones; the commits below are read with `git show`, so the output is the same every time).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const AZURE_COMMIT = "9675685c903a640f3120f5b077a75e50accc95fa";
const GITHUB_COMMIT = "64a49f34d076b6f5917dae1424521d43c7bcae84";
const [azureRepo, githubRepo] = process.argv.slice(2);
if (!azureRepo || !githubRepo) throw new Error("usage: build-tool-search-fixture.mjs <microsoft+mcp git dir> <github-mcp-server git dir>");
const show = (repo, commit, path) =>
  execFileSync("git", ["-C", repo, "show", `${commit}:${path}`], { encoding: "utf8", maxBuffer: 1 << 28 });

// Azure: one tool per command ("acr registry list" → mcp__azure__acr_registry_list), its options as string
// properties (the CLI-style listing gives every option as a string).
const azureTools = JSON.parse(show(azureRepo, AZURE_COMMIT, "eng/tools/ToolDescriptionEvaluator/tools.json")).results.map((tool) => {
  const key = tool.command.trim().replace(/\s+/g, "_");
  const options = tool.option ?? [];
  return {
    name: `mcp__azure__${key}`,
    description: tool.description.replace(/\r\n/g, "\n"),
    input_schema: {
      type: "object",
      properties: Object.fromEntries(
        options.map((option) => [option.name.replace(/^--/, "").replace(/-/g, "_"), { type: "string", description: option.description }]),
      ),
      required: options.filter((option) => option.required === true).map((option) => option.name.replace(/^--/, "").replace(/-/g, "_")),
    },
  };
});
const azureNames = new Set(azureTools.map((tool) => tool.name));
const prompts = JSON.parse(show(azureRepo, AZURE_COMMIT, "eng/tools/ToolDescriptionEvaluator/prompts.json"));
const requests = Object.entries(prompts).flatMap(([key, texts]) => {
  const expected = `mcp__azure__${key}`;
  return azureNames.has(expected) ? texts.map((query) => ({ query, expected })) : [];
});

// GitHub: the README's automated tool section: "- **name** - description", then "  - `param`: text (type, required|optional)".
const readme = show(githubRepo, GITHUB_COMMIT, "README.md");
const section = readme.slice(readme.indexOf("<!-- START AUTOMATED TOOLS -->"), readme.indexOf("<!-- END AUTOMATED TOOLS -->"));
const githubTools = [];
let current;
for (const line of section.split("\n")) {
  const tool = /^- \*\*([a-z0-9_]+)\*\* - (.*)$/.exec(line);
  if (tool) {
    current = {
      name: `mcp__github__${tool[1]}`,
      description: tool[2].trim(),
      input_schema: { type: "object", properties: {}, required: [] },
    };
    githubTools.push(current);
    continue;
  }
  const parameter =
    /^ {2}- `([a-zA-Z0-9_]+)`: (.*?)(?: \((string|number|boolean|object|string\[\]|object\[\]|number\[\]), (required|optional)\))?$/.exec(
      line,
    );
  if (parameter && current) {
    const type = (parameter[3] ?? "string").replace(/\[\]$/, "");
    current.input_schema.properties[parameter[1]] = { type, description: parameter[2].trim() };
    if (parameter[4] === "required") current.input_schema.required.push(parameter[1]);
  }
}
// The same tool can be documented twice (a toolset and the remote-only list): keep the first.
const uniqueGithub = githubTools.filter((tool, index) => githubTools.findIndex((other) => other.name === tool.name) === index);

const out = join(import.meta.dirname, "..", "fixtures", "tool-search");
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "azure-tools.json"), oneLinePerEntry(azureTools));
writeFileSync(join(out, "github-tools.json"), oneLinePerEntry(uniqueGithub));
writeFileSync(join(out, "azure-requests.json"), oneLinePerEntry(requests));
process.stderr.write(`azure tools ${azureTools.length}, github tools ${uniqueGithub.length}, labelled requests ${requests.length}\n`);

/** A JSON array with one compact entry per line: small, and a diff shows which entries changed. */
function oneLinePerEntry(entries) {
  return `[\n${entries.map((entry) => JSON.stringify(entry)).join(",\n")}\n]\n`;
}
