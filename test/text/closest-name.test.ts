import { describe, expect, it } from "vitest";
import { closestName, didYouMean } from "../../src/text/closest-name.js";

describe("closestName", () => {
  it("finds a near candidate whatever its case, and nothing for a name far from all", () => {
    expect(closestName("Reed", ["Bash", "Read", "Write"])).toBe("Read");
    expect(closestName("bash", ["Bash", "Read"])).toBe("Bash");
    expect(closestName("Telepathy", ["Bash", "Read"])).toBeUndefined();
    expect(closestName("ab", ["abc"])).toBeUndefined();
  });

  it("words a hint only for the names that have a suggestion", () => {
    expect(didYouMean(["prot", "zzzzzz"], ["port", "host"], (name) => `--${name}`)).toBe(" Did you mean --port?");
    expect(didYouMean(["zzzzzz"], ["port"])).toBe("");
  });
});
