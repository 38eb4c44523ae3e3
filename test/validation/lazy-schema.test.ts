import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { lazySchema } from "../../src/validation/lazy-schema.js";

describe("lazySchema", () => {
  it("builds nothing until the schema is first asked for, then builds it once", () => {
    const build = vi.fn(() => z.object({ path: z.string() }).strict());
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    const first = schema();
    expect(schema()).toBe(first);
    expect(build).toHaveBeenCalledOnce();
    expect(first.safeParse({ path: "a" }).success).toBe(true);
  });
});
