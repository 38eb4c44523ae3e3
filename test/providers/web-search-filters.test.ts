import { describe, expect, it } from "vitest";
import { appendText, filterLinks, hostAllowed, linkAllowed } from "../../src/providers/web-search/web-search.js";

describe("web search domain filters", () => {
  it("an allow-list keeps a domain and its subdomains, nothing that merely ends in the same letters", () => {
    const request = { allowedDomains: ["example.org"] };
    expect(linkAllowed("https://example.org/a", request)).toBe(true);
    expect(linkAllowed("https://docs.example.org/a", request)).toBe(true);
    expect(linkAllowed("https://badexample.org/a", request)).toBe(false);
    expect(linkAllowed("https://example.org.evil.com/a", request)).toBe(false);
    expect(linkAllowed("not a url", request)).toBe(false);
  });

  it("a block-list drops a domain and its subdomains; domains are compared without case, scheme or path", () => {
    const request = { blockedDomains: ["HTTPS://News.Example.com/path"] };
    expect(linkAllowed("https://news.example.com/x", request)).toBe(false);
    expect(linkAllowed("https://eu.news.example.com/x", request)).toBe(false);
    expect(linkAllowed("https://example.com/x", request)).toBe(true);
    expect(hostAllowed(undefined, request)).toBe(true);
  });

  it("no filters keep everything; a filtered list keeps each URL once, with its first title", () => {
    const links = [
      { title: "A", url: "https://a.org/" },
      { title: "A again", url: "https://a.org/" },
      { title: "B", url: "https://b.org/" },
    ];
    expect(filterLinks(links, { query: "q" })).toEqual([links[0], links[2]]);
    expect(filterLinks(links, { query: "q", blockedDomains: ["a.org"] })).toEqual([links[2]]);
  });

  it("consecutive pieces of text become one entry; a search between them starts a new one", () => {
    const results: Array<{ toolUseId: string; links: [] } | string> = [];
    appendText(results, "High ");
    appendText(results, "water.");
    results.push({ toolUseId: "s", links: [] });
    appendText(results, "");
    appendText(results, "More.");
    expect(results).toEqual(["High water.", { toolUseId: "s", links: [] }, "More."]);
  });
});
