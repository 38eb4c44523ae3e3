import { describe, expect, it } from "vitest";
import { randomUUID } from "../../src/text/random-uuid.js";

const VERSION_4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomUUID()", () => {
  it("makes version 4 UUIDs, all different, also past the bytes read ahead", () => {
    const ids = Array.from({ length: 500 }, () => randomUUID());
    for (const id of ids) expect(id).toMatch(VERSION_4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("spreads its random bits: each of the 122 is set in about half of many UUIDs", () => {
    const ids = Array.from({ length: 2000 }, () => randomUUID().replaceAll("-", ""));
    const setCounts = new Array<number>(128).fill(0);
    for (const id of ids) {
      const bits = [...id].flatMap((digit) => Number.parseInt(digit, 16).toString(2).padStart(4, "0").split(""));
      bits.forEach((bit, index) => (setCounts[index]! += bit === "1" ? 1 : 0));
    }
    // Bits 48-51 hold the version, 64-65 the variant: fixed. The rest: 1000 ± 6 standard deviations.
    const fixed = new Set([48, 49, 50, 51, 64, 65]);
    const random = setCounts.filter((_, index) => !fixed.has(index));
    expect(random.every((count) => count > 866 && count < 1134)).toBe(true);
  });
});
