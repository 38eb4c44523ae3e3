/** Characters of page text one WebFetch call reads, as Claude Code pages a long page. */
export const PAGE_CHARACTERS = 100_000;

/** One window of a page's text, and the note that tells the model how to read on. Pure. */
export interface PageWindow {
  text: string;
  /** Set when the page goes on past the window (appended to the result). */
  note: string | undefined;
  /** Set when the window starts inside the page (said before the text in the extraction request). */
  preface: string | undefined;
}

export function pageWindow(page: string, offset: number): PageWindow {
  const end = Math.min(page.length, offset + PAGE_CHARACTERS);
  const rest = page.length - end;
  return {
    text: page.slice(offset, end),
    note:
      rest > 0
        ? `[WebFetch note: the page's text is ${page.length} characters long and this covers characters ${offset} to ${end}; ${rest} more were not read. To read on, call WebFetch again with the same url and offset: ${end}.]`
        : undefined,
    preface:
      offset > 0 ? `This text is a part of a longer page: it begins ${offset} characters into the page's ${page.length}.` : undefined,
  };
}
