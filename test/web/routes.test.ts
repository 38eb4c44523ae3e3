import { describe, expect, it } from "vitest";
import { matchPath } from "../../src/web/routes.js";

const segmentsOf = (pathname: string) => pathname.split("/").filter(Boolean);
const match = (pattern: string, pathname: string) => matchPath(pattern, pathname, segmentsOf(pathname));

describe("the web server's route patterns", () => {
  it("a fixed path matches only itself, exactly", () => {
    expect(match("/api/info", "/api/info")).toEqual({ params: {}, rest: [] });
    expect(match("/api/info", "/api/info/")).toBeUndefined();
    expect(match("/api/info", "/api//info")).toBeUndefined();
  });

  it("named segments are taken one each; the count must agree", () => {
    expect(match("/api/sessions/:session/permissions/:question", "/api/sessions/abc/permissions/q1")).toEqual({
      params: { session: "abc", question: "q1" },
      rest: [],
    });
    expect(match("/api/sessions/:session", "/api/sessions/abc/events")).toBeUndefined();
    expect(match("/api/sessions/:session/events", "/api/sessions/abc/history")).toBeUndefined();
  });

  it("a final * takes one segment or more", () => {
    expect(match("/assets/*", "/assets/app/main.js")).toEqual({ params: {}, rest: ["app", "main.js"] });
    expect(match("/assets/*", "/assets")).toBeUndefined();
  });
});
