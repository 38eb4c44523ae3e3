import { describe, expect, it } from "vitest";
import { compileGlob, globMatches } from "../../src/permissions/path-glob.js";
import { pathRuleMatches } from "../../src/permissions/path-rules.js";

/** The regular expression path rules were matched with before: the meaning the matcher keeps. */
function expressionOf(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index]!;
    if (character === "/" && glob.slice(index, index + 3) === "/**" && index + 3 === glob.length) {
      source += "(/.*)?";
      break;
    }
    if (character === "*" && glob[index + 1] === "*") {
      source += ".*";
      index++;
      if (glob[index + 1] === "/") index++;
    } else if (character === "*") source += "[^/]*";
    else if (character === "?") source += "[^/]";
    else source += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** A small deterministic generator, so a failure names its case and reproduces. */
function* cases(count: number): Generator<[string, string]> {
  let seed = 24;
  const next = (limit: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % limit;
  };
  const globParts = ["/", "a", "b", ".", "*", "**", "?", "/**", "\n", "("];
  const pathParts = ["/", "a", "b", ".", "\n", "("];
  for (let index = 0; index < count; index++) {
    const glob = Array.from({ length: 1 + next(7) }, () => globParts[next(globParts.length)]).join("");
    const text = Array.from({ length: next(9) }, () => pathParts[next(pathParts.length)]).join("");
    yield [glob, text];
  }
}

describe("path rule globs", () => {
  it("match exactly what their regular expression matched", () => {
    for (const [glob, text] of cases(20_000))
      expect(globMatches(compileGlob(glob), text), `${JSON.stringify(glob)} on ${JSON.stringify(text)}`).toBe(
        expressionOf(glob).test(text),
      );
  });

  it("a repository's deny rule built to backtrack cannot stall a call: linear in the path", () => {
    const hostile = `/**${"a**".repeat(12)}z`;
    const started = performance.now();
    expect(pathRuleMatches(hostile, `/${"a".repeat(4_000)}`, "/", "restrict")).toBe(false);
    // The regular expression took hours here (10 s already at 6 repetitions on 60 characters).
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
