import { quoteUnreadableValues } from "./frontmatter-repair.js";
import { parseSimpleFrontmatter } from "./simple-frontmatter.js";

/**
 * Markdown files with YAML frontmatter between `---` lines (SKILL.md, agent definitions): where
 * the body starts, and the frontmatter read the way other clients read it.
 */

/** Where the body starts, and the frontmatter text, of a markdown file's beginning. */
export function splitFrontmatter(text: string): { frontmatter: string | undefined; bodyStart: number } {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return match ? { frontmatter: match[1]!, bodyStart: match[0].length } : { frontmatter: undefined, bodyStart: 0 };
}

export type ReadFrontmatter = { ok: true; value: unknown; note?: string } | { ok: false; reason: string };

/**
 * The frontmatter's value: the plain `key: text` form directly (simple-frontmatter.ts), anything
 * else through the YAML parser; when that is not valid YAML, read again with its unreadable values
 * quoted (frontmatter-repair.ts), which is noted. Still unreadable: the first reading's error.
 */
export async function readFrontmatter(frontmatter: string): Promise<ReadFrontmatter> {
  const simple = parseSimpleFrontmatter(frontmatter);
  if (simple !== undefined) return { ok: true, value: simple };
  // Loaded on first use: files with simple frontmatter never pay for the YAML parser.
  // `yaml` is CommonJS: the bundle's dynamic import exposes it as `default` only, Node's own
  // import also by name.
  const yaml = (await import("yaml")) as typeof import("yaml") & { default?: typeof import("yaml") };
  const { parse } = yaml.default ?? yaml;
  // Errors only: the parser's warnings would go to the process's stderr, which hosts show as errors.
  const read = (text: string): unknown => parse(text, { logLevel: "error" });
  try {
    return { ok: true, value: read(frontmatter) };
  } catch (error) {
    const problem = firstLine((error as Error).message);
    const quoted = quoteUnreadableValues(frontmatter, (entry) => {
      try {
        read(entry);
        return true;
      } catch {
        return false;
      }
    });
    if (quoted) {
      try {
        const fields = quoted.keys.map((key) => `\`${key}\``).join(", ");
        return {
          ok: true,
          value: read(quoted.text),
          note: `its frontmatter is not valid YAML (${problem}); it was read with the value of ${fields} quoted`,
        };
      } catch {
        // The quoting did not help: report the original problem, which is the author's to fix.
      }
    }
    return { ok: false, reason: `the frontmatter is not valid YAML: ${problem}` };
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}
