/**
 * agentwire's own envelope around the data V8 caches for one bundle file. V8 (release builds)
 * checks only its own version, its flags and the LENGTH of the source the data was made from: it
 * has no checksum of the data and does not look at the source's content. A few flipped bits in a
 * cache file made later starts crash, abort, hang or misrun, and since V8 accepts the data it was
 * never rewritten. So each file names the source's length and the data's length and hash, and data
 * that does not match is never handed to V8. The source's content needs no hash: the cache folder
 * is named by a hash of the whole build (code-cache.ts), so another source means another folder.
 *
 * Layout: six little-endian 32-bit words (magic, format, source length, data length, data hash,
 * coverage), then V8's data (8-byte aligned). Coverage says which kinds of run the data has seen
 * compile their code (code-cache.ts: a run of one kind compiles functions another never calls).
 */

/** "AWV8" read as a little-endian word. */
const MAGIC = 0x38565741;
/** Raised when the layout changes: files of an older layout are then rewritten, never misread. */
const FORMAT = 3;
const HEADER_WORDS = 6;
const HEADER_BYTES = HEADER_WORDS * 4;

/** V8's `data` for a source of `sourceLength` characters, in its envelope: what a cache file holds. */
export function sealCachedData(sourceLength: number, data: Uint8Array, coverage: number): Buffer {
  const sealed = Buffer.allocUnsafe(HEADER_BYTES + data.byteLength);
  const header = [MAGIC, FORMAT, sourceLength, data.byteLength, hashBytes(data), coverage];
  for (const [index, word] of header.entries()) sealed.writeUInt32LE(word, index * 4);
  sealed.set(data, HEADER_BYTES);
  return sealed;
}

/**
 * The V8 data in a cache file's content and its coverage, when it was made from a source of
 * `sourceLength` characters and the data is whole; undefined for anything else (damaged,
 * truncated, another layout).
 */
export function openCachedData(file: Buffer, sourceLength: number): { data: Buffer; coverage: number } | undefined {
  if (file.byteLength < HEADER_BYTES) return undefined;
  const word = (index: number): number => file.readUInt32LE(index * 4);
  const data = file.subarray(HEADER_BYTES);
  const matches =
    word(0) === MAGIC && word(1) === FORMAT && word(2) === sourceLength && word(3) === data.byteLength && word(4) === hashBytes(data);
  return matches ? { data, coverage: word(5) } : undefined;
}

/**
 * A 32-bit hash of `bytes`, FNV-1a's step taken a 32-bit word at a time: at start-up it runs
 * before V8 has optimised anything, and this is ~4 times fewer steps than byte-wise FNV-1a
 * (~1.4 ms for the 0.9 MB of data a single answer checks, measured alone;
 * node:crypto costs ~4 ms just to load). Each
 * step is a bijection of the state, so one changed word always changes the hash. Not meant to
 * stand up to someone crafting data: the file checks keep others' files out (code-cache-files.ts).
 */
export function hashBytes(bytes: Uint8Array): number {
  const words = bytes.byteLength >>> 2;
  // A typed array over the words needs a 4-byte aligned start: small Buffers share a pool and may not have one.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const view = new Int32Array(aligned.buffer, aligned.byteOffset, words);
  let hash = 0x811c9dc5 ^ bytes.byteLength;
  for (let index = 0; index < words; index++) hash = Math.imul(hash ^ view[index]!, 0x01000193);
  for (let index = words * 4; index < bytes.byteLength; index++) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  return hash >>> 0;
}
