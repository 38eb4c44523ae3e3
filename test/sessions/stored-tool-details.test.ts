import { describe, expect, it } from "vitest";
import { storedToolDetails } from "../../src/sessions/stored-tool-details.js";

describe("storedToolDetails", () => {
  it("drops the whole-file copies (Edit's originalFile, Read's file.content) and keeps the rest", () => {
    expect(storedToolDetails({ filePath: "/a", originalFile: "big", structuredPatch: [{ lines: ["-a", "+b"] }] })).toEqual({
      filePath: "/a",
      structuredPatch: [{ lines: ["-a", "+b"] }],
    });
    expect(storedToolDetails({ type: "text", file: { filePath: "/a", content: "big", numLines: 3 } })).toEqual({
      type: "text",
      file: { filePath: "/a", numLines: 3 },
    });
    expect(storedToolDetails({ stdout: "x", stderr: "", interrupted: false })).toEqual({ stdout: "x", stderr: "", interrupted: false });
    expect(storedToolDetails("plain")).toBe("plain");
  });
});
