import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/agentwire.js";

/**
 * src/text/random-uuid.ts is agentwire's one way to make a UUID: bytes from the kernel's random
 * device, the source node:crypto's randomUUID reads too. It was once dropped because a run loaded
 * node:crypto anyway (the providers' SDKs over Node's fetch, Bash); since requests go over node:http
 * and hashes load node:crypto at the first hash, a single answer loads it no more, and its CPU fell
 * ~5 ms (111 vs 116 ms, medians of 15 interleaved runs; node -e 0: 25 ms).
 */
describe("one way to make a UUID", () => {
  it("every module takes randomUUID from src/text/random-uuid.ts; none uses node:crypto's or a UUID maker of its own", () => {
    const source = join(ROOT, "src");
    const files = readdirSync(source, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    const makers = files.filter(
      (file) => file !== "text/random-uuid.ts" && /\brandomUUID\b/.test(readFileSync(join(source, file), "utf8")),
    );
    expect(makers.length).toBeGreaterThan(10);
    const otherWays = makers.filter((file) => {
      const text = readFileSync(join(source, file), "utf8");
      const importsIt = /import \{[^}]*\brandomUUID\b[^}]*\} from "(\.\.?\/)+text\/random-uuid\.js"/.test(text);
      return /crypto\.randomUUID|\/dev\/urandom|randomUuid/.test(text) || (/\brandomUUID\b/.test(text) && !importsIt);
    });
    expect(otherWays).toEqual([]);
  });
});
