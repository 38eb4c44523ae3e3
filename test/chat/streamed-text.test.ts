import { describe, expect, it } from "vitest";
import { StreamedText } from "../../src/chat/streamed-text.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { createStyle } from "../../src/render/style.js";

const plain = createStyle(false);
const ANSWER =
  "**mock** answer\n\n- **one**\n- two\n\n```\n# not a heading\n```\nThe end, with a long line that has to wrap at the edge of the pane without cutting a word.";

/** Feeds `text` in chunks of `size` characters; returns every final line and the last preview. */
function stream(text: string, size: number, width = 30): { final: string[]; previews: string[][] } {
  const streamed = new StreamedText(width, plain);
  const final: string[] = [];
  const previews: string[][] = [];
  for (let index = 0; index < text.length; index += size) {
    const step = streamed.add(text.slice(index, index + size));
    final.push(...step.final);
    previews.push(step.preview);
  }
  final.push(...streamed.finish());
  return { final, previews };
}

describe("a streamed answer in the chat", () => {
  it("ends as exactly what render shows for the whole answer, whatever the chunks", () => {
    const expected = renderMarkdown(ANSWER, 30, plain);
    for (const size of [1, 3, 7, ANSWER.length]) expect(stream(ANSWER, size).final, `chunks of ${size}`).toEqual(expected);
    expect(expected).toContain("mock answer");
    expect(expected).toContain("• one");
    expect(expected.join("\n")).not.toContain("**");
    expect(expected.join("\n")).not.toContain("```");
  });

  it("previews the unfinished line formatted and wrapped at word boundaries, never wider than the pane", () => {
    const { previews } = stream("A first line that is rather long and keeps going", 5, 20);
    for (const preview of previews) for (const line of preview) expect(line.length).toBeLessThanOrEqual(20);
    expect(previews.at(-1)).toEqual(["A first line that is", "rather long and", "keeps going"]);
  });

  it("keeps a line inside an open fence as code in its preview", () => {
    const streamed = new StreamedText(40, plain);
    streamed.add("```\n");
    expect(streamed.add("# code").preview).toEqual(["  # code"]);
  });
});
