/**
 * Helpers every wire encoder of the replay server shares: how scripted text is cut into
 * streamed pieces and how token counts are estimated.
 */

/** The real APIs stream text in pieces of about 8 characters. */
export const DEFAULT_CHUNK_CHARACTERS = 8;

/** Splits by code points, so a chunk boundary never cuts a surrogate pair in half. */
export function splitIntoChunks(text: string, chunkCharacters: number): string[] {
  const codePoints = Array.from(text);
  const chunks: string[] = [];
  for (let start = 0; start < codePoints.length; start += chunkCharacters) {
    chunks.push(codePoints.slice(start, start + chunkCharacters).join(""));
  }
  return chunks;
}

/** Roughly 4 characters per token, like the reference server's estimate; at least 1. */
export function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}
