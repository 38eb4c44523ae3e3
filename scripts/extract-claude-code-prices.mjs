// Prints the model prices a Claude Code release computes its costs with, as the JSON of
// fixtures/claude-code/model-prices.json: `node scripts/extract-claude-code-prices.mjs PATH_TO_CLAUDE`.
// The native binary (npm @anthropic-ai/claude-code-<platform>, or the Agent SDK's
// @anthropic-ai/claude-agent-sdk-<platform>/claude) carries its model catalog as one object
// literal in its bundled JavaScript; it is found by its `pricing_tiers` key, cut out by brace
// matching, and evaluated as data in an empty context (it is a literal: no calls, no globals).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";

const binary = process.argv[2];
if (!binary) {
  process.stderr.write("usage: node scripts/extract-claude-code-prices.mjs PATH_TO_CLAUDE_BINARY\n");
  process.exit(2);
}
const version = execFileSync(binary, ["--version"], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: process.env.HOME } }).trim();
const text = readFileSync(binary, "latin1");
const catalog = runInNewContext(`(${objectAround(text, text.indexOf("schema_version:1,pricing_tiers"))})`, Object.create(null), {
  timeout: 1_000,
});

const prices = (tier) => {
  const { input, output, cache_write_5m, cache_write_1h, cache_read, long_prompt } = catalog.pricing_tiers[tier];
  return { input, output, cache_write_5m, cache_write_1h, cache_read, ...(long_prompt ? { long_prompt } : {}) };
};
const models = catalog.models.map((model) => ({
  id: model.id,
  ...(model.provider_ids.first_party !== model.id ? { first_party_id: model.provider_ids.first_party } : {}),
  ...prices(model.pricing),
  ...(model.context?.window ? { context_window: model.context.window } : {}),
  max_output_tokens: model.max_output_tokens.upper,
}));
process.stdout.write(
  `${JSON.stringify({ claude_code_version: version.split(" ")[0], unit: "USD per million tokens", models }, null, 2)}\n`,
);

/** The source text of the object literal that encloses `index`, found by matching braces outside strings. */
function objectAround(source, index) {
  if (index < 0) throw new Error("no model catalog (pricing_tiers) in this binary");
  let depth = 0;
  let start = index;
  for (; start >= 0; start--) {
    if (source[start] === "}") depth++;
    else if (source[start] === "{" && depth-- === 0) break;
  }
  let quote;
  depth = 0;
  for (let end = start; end < source.length; end++) {
    const char = source[end];
    if (quote) {
      if (char === "\\") end++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'" || char === "`") quote = char;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return source.slice(start, end + 1);
  }
  throw new Error("the model catalog does not end");
}
