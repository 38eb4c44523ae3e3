/**
 * Whether bytes that start like an image are one a model API will accept. A provider that is
 * sent a broken image rejects the request, and since the image stays in the history, every later
 * request of the session too. The header and dimensions are read by `image-size`; the checks
 * below add what a header cannot show: a file cut short (a download or copy interrupted).
 */
export async function imageProblem(bytes: Buffer, mediaType: string): Promise<string | undefined> {
  // Loaded on first image: most runs never read one.
  const { imageSize } = await import("image-size");
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch (error) {
    return `its header cannot be read (${(error as Error).message})`;
  }
  const expected = EXPECTED_TYPES[mediaType];
  if (size.type !== expected) return `its contents are ${size.type ?? "of no known image type"}, not ${expected}`;
  if (!size.width || !size.height) return "it has no width or height";
  return truncation(bytes, mediaType);
}

const EXPECTED_TYPES: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

/** Each format's end marker: PNG's IEND chunk, JPEG's EOI, GIF's trailer, WebP's RIFF length. */
function truncation(bytes: Buffer, mediaType: string): string | undefined {
  const cut = "it is cut short (the end of the image is missing)";
  switch (mediaType) {
    case "image/png":
      return bytes.subarray(-8).equals(PNG_IEND) ? undefined : cut;
    case "image/jpeg":
      // Some writers leave padding after EOI; an EXIF thumbnail's own EOI sits near the start.
      return bytes.lastIndexOf(JPEG_EOI) >= Math.max(2, bytes.length - 1024) ? undefined : cut;
    case "image/gif":
      return bytes.at(-1) === GIF_TRAILER ? undefined : cut;
    case "image/webp":
      return bytes.readUInt32LE(4) + 8 <= bytes.length ? undefined : cut;
    default:
      return undefined;
  }
}

const PNG_IEND = Buffer.from("49454e44ae426082", "hex");
const JPEG_EOI = Buffer.from([0xff, 0xd9]);
const GIF_TRAILER = 0x3b;
