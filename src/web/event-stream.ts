import type { IncomingMessage, ServerResponse } from "node:http";
import type { EventLog, LoggedEvent } from "./event-log.js";

/** A reader this far behind is cut off; its browser reconnects with Last-Event-ID and catches up from the log. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const KEEPALIVE_MS = 15_000;

/**
 * A session's events as Server-Sent Events: each one `id: N` and `data: <the stream-json
 * event>`. A reconnecting browser sends Last-Event-ID and gets what came
 * after; without one it gets the whole log. A slow or vanished reader never holds the session up.
 */
export function streamEvents(request: IncomingMessage, response: ServerResponse, log: EventLog): void {
  const lastId = Number(request.headers["last-event-id"] ?? 0) || 0;
  response.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", Connection: "keep-alive", "X-Accel-Buffering": "no" });
  response.write("retry: 1000\n\n");
  let unsubscribe = (): void => undefined;
  let keepalive: NodeJS.Timeout | undefined;
  const stop = (): void => {
    unsubscribe();
    clearInterval(keepalive);
  };
  const send = (logged: LoggedEvent): void => {
    if (response.writableLength > MAX_BUFFERED_BYTES) {
      stop();
      response.end();
      return;
    }
    response.write(`id: ${logged.id}\ndata: ${logged.data}\n\n`);
  };
  for (const logged of log.since(lastId)) {
    if (response.writableEnded) return;
    send(logged);
  }
  unsubscribe = log.subscribe(send);
  keepalive = setInterval(() => response.write(": keep-alive\n\n"), KEEPALIVE_MS);
  response.on("close", stop);
}
