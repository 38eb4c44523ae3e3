import { createHash } from "node:crypto";

/** Runs of this many words shared with another text count as copied. */
export const PHRASE_WORDS = 8;

/**
 * A text's words, compared loosely: case, punctuation, markdown, apostrophes and Unicode forms
 * do not matter, so a copy with other quotes or backticks still matches.
 */
export function comparableWords(text: string): string[] {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** Every run of PHRASE_WORDS consecutive words of a text, as written between single spaces. */
export function phrases(text: string): string[] {
  const words = comparableWords(text);
  return Array.from({ length: Math.max(0, words.length - PHRASE_WORDS + 1) }, (_, start) =>
    words.slice(start, start + PHRASE_WORDS).join(" "),
  );
}

/**
 * A phrase's fingerprint: enough to tell whether two texts share it, without keeping the text
 * (another project's wording stays out of this repository). 64 bits: no collision is likely
 * among a few thousand phrases.
 */
export function phraseFingerprint(phrase: string): string {
  return createHash("sha256").update(phrase).digest("hex").slice(0, 16);
}

/** Every `description` string inside a JSON value (a tool's, its parameters', nested ones'). */
export function descriptionsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(descriptionsIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "description" && typeof inner === "string" ? [inner] : descriptionsIn(inner),
  );
}
