import { describe, expect, it } from "vitest";
import { fetchTarget, sameSite } from "../../../src/tools/web/fetch-target.js";
import { PAGE_CHARACTERS, pageWindow } from "../../../src/tools/web/page-window.js";

const noRules = () => false;
const naming =
  (...hosts: string[]) =>
  (host: string) =>
    hosts.includes(host);
const urlOf = (target: ReturnType<typeof fetchTarget>) => ("url" in target ? target.url.href : target.refusal);

describe("fetchTarget", () => {
  it("upgrades http to https unless a rule names the host (a local plain-HTTP server)", () => {
    expect(urlOf(fetchTarget("http://example.com/a?b=1#frag", noRules))).toBe("https://example.com/a?b=1");
    expect(urlOf(fetchTarget("http://127.0.0.1:8080/x", naming("127.0.0.1")))).toBe("http://127.0.0.1:8080/x");
    expect(urlOf(fetchTarget("http://[::1]:8080/x", naming("::1")))).toBe("http://[::1]:8080/x");
  });

  it("refuses dotless host names unless a rule names them; IP addresses are no dotless names", () => {
    expect(urlOf(fetchTarget("https://localhost/", noRules))).toContain("host names without a dot");
    expect(urlOf(fetchTarget("https://intranet:81/", noRules))).toContain("WebFetch(domain:intranet)");
    expect(urlOf(fetchTarget("http://localhost:3000/", naming("localhost")))).toBe("http://localhost:3000/");
    expect(urlOf(fetchTarget("https://[::1]/", noRules))).toBe("https://[::1]/");
  });

  it("refuses other schemes, credentials in the URL and what is no URL", () => {
    expect(urlOf(fetchTarget("file:///etc/passwd", noRules))).toContain("not file URLs");
    expect(urlOf(fetchTarget("ftp://example.com/x", noRules))).toContain("not ftp URLs");
    expect(urlOf(fetchTarget("https://user:secret@example.com/", noRules))).toContain("credentials");
    expect(urlOf(fetchTarget("example.com/page", noRules))).toContain("not a valid URL");
  });
});

describe("sameSite", () => {
  const site = (from: string, to: string) => sameSite(new URL(from), new URL(to));
  it("follows the same host (any port or scheme) and its www. form, nothing else", () => {
    expect(site("https://example.com/a", "https://example.com/b")).toBe(true);
    expect(site("https://example.com/a", "http://example.com:8443/b")).toBe(true);
    expect(site("https://example.com/a", "https://www.example.com/b")).toBe(true);
    expect(site("https://www.example.com/a", "https://example.com/b")).toBe(true);
    expect(site("https://example.com/a", "https://api.example.com/b")).toBe(false);
    expect(site("https://127.0.0.1/a", "https://127.0.0.2/b")).toBe(false);
    expect(site("https://example.com/a", "https://example.com.evil.test/b")).toBe(false);
  });
});

describe("pageWindow", () => {
  const page = "x".repeat(250_000);
  it("gives the first window with a note naming the next offset", () => {
    const window = pageWindow(page, 0);
    expect(window.text).toHaveLength(PAGE_CHARACTERS);
    expect(window.note).toContain("250000 characters long and this covers characters 0 to 100000; 150000 more");
    expect(window.note).toContain("offset: 100000");
    expect(window.preface).toBeUndefined();
  });

  it("tells where a later window starts, and has no note at the end", () => {
    const middle = pageWindow(page, 100_000);
    expect(middle.preface).toContain("begins 100000 characters into the page's 250000");
    expect(middle.note).toContain("offset: 200000");
    const last = pageWindow(page, 200_000);
    expect(last.text).toHaveLength(50_000);
    expect(last.note).toBeUndefined();
  });

  it("a short page is one window without notes", () => {
    expect(pageWindow("short", 0)).toEqual({ text: "short", note: undefined, preface: undefined });
  });
});
