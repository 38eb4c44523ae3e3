import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/agentwire.js";

/**
 * node:crypto's randomUUID is agentwire's one way to make a UUID. A start-up fast path (reading
 * /dev/urandom to keep node:crypto off the path to the first line) was measured and dropped: it
 * saved ~1-2 ms of CPU before the first line, and a run loads node:crypto anyway (the providers'
 * SDKs, Bash), which then cost ~5 ms more CPU by exit than loading it up front.
 */
describe("one way to make a UUID", () => {
  it("every module takes randomUUID from node:crypto; none uses the global crypto or a UUID maker of its own", () => {
    const source = join(ROOT, "src");
    const files = readdirSync(source, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    const makers = files.filter((file) => /\brandomUUID\b/.test(readFileSync(join(source, file), "utf8")));
    expect(makers.length).toBeGreaterThan(10);
    const otherWays = files.filter((file) => {
      const text = readFileSync(join(source, file), "utf8");
      const importsIt = /import \{[^}]*\brandomUUID\b[^}]*\} from "node:crypto"/.test(text);
      return /crypto\.randomUUID|\/dev\/urandom|randomUuid/.test(text) || (/\brandomUUID\b/.test(text) && !importsIt);
    });
    expect(otherWays).toEqual([]);
  });
});
