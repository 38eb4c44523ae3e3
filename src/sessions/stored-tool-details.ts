/**
 * A structured tool result as the session file keeps it: without the copies of whole files that
 * only the live event needs (Edit's `originalFile`, Read's `file.content`). The conversation
 * already holds what the model read, and a diff card needs only the patch.
 */
export function storedToolDetails(details: unknown): unknown {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return details;
  const { originalFile: _original, ...rest } = details as Record<string, unknown>;
  const file = rest.file;
  if (typeof file === "object" && file !== null && "content" in file) {
    const { content: _content, ...fileRest } = file as Record<string, unknown>;
    return { ...rest, file: fileRest };
  }
  return rest;
}
