import { describe, expect, it } from "vitest";
import { searchResultText } from "../../src/tools/web-search.js";

describe("WebSearch's text for the model", () => {
  it("heads with the query, gives each search's links as JSON, then the summary and a reminder to cite", () => {
    const text = searchResultText("tide times", {
      results: [{ toolUseId: "s1", links: [{ title: "Tides", url: "https://tides.example.org/" }] }, "  High water at 06:12.\n"],
      searchCount: 1,
    });
    expect(text).toBe(
      'Web search results for query: "tide times"\n\nLinks: [{"title":"Tides","url":"https://tides.example.org/"}]\n\nHigh water at 06:12.\n\n\nREMINDER: Cite the sources above in your reply to the user, as markdown links.',
    );
  });

  it("says so when the search found nothing", () => {
    expect(searchResultText("x", { results: [], searchCount: 0 })).toContain("\n\nThe search found nothing.\n\n\nREMINDER:");
  });
});
