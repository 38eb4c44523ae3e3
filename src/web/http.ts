import type { IncomingMessage, ServerResponse } from "node:http";
import type * as z from "zod";

/** The largest request body the server reads; a larger one is a 413. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** A failure with the HTTP status it is answered with; its message becomes `{ "error": … }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) }).end(text);
}

/** The request's JSON body checked against `schema`; an empty body counts as `{}`. Throws HttpError 400 or 413. */
export async function readBody<Schema extends z.ZodType>(request: IncomingMessage, schema: Schema): Promise<z.infer<Schema>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    throw new HttpError(400, `The request body is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, `Invalid request: ${issue?.path.join(".") || "(body)"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
