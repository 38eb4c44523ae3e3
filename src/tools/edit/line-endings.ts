export type LineEnding = "lf" | "crlf";

/**
 * "crlf" only when every "\n" in the text is preceded by "\r": a file with mixed endings is
 * treated as LF, so converting back never touches the lines that already had a bare "\n".
 */
export function detectLineEnding(text: string): LineEnding {
  const crlfCount = text.split("\r\n").length - 1;
  if (crlfCount === 0) return "lf";
  const lfCount = text.split("\n").length - 1;
  return crlfCount === lfCount ? "crlf" : "lf";
}

/** The text with every "\r\n" turned into "\n". */
export function toLf(text: string): string {
  return text.replaceAll("\r\n", "\n");
}

/** LF text written with `ending`: for "crlf" every "\n" becomes "\r\n" (existing "\r\n" stay). */
export function applyLineEnding(text: string, ending: LineEnding): string {
  return ending === "crlf" ? toLf(text).replaceAll("\n", "\r\n") : text;
}
