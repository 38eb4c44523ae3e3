import { describe, expect, it } from "vitest";
import * as z from "zod";
import { randomUuid } from "../../src/text/random-uuid.js";

describe("randomUuid", () => {
  it("makes version 4 UUIDs (RFC 9562 variant), different every time", () => {
    const made = Array.from({ length: 1000 }, () => randomUuid());
    for (const uuid of made) expect(z.uuid({ version: "v4" }).safeParse(uuid).success, uuid).toBe(true);
    expect(new Set(made).size).toBe(1000);
  });
});
