import type { ServerResponse } from "node:http";
import type { ResponseTurn } from "./scenario.js";

/**
 * Writes frames with the turn's pacing. Timers stop when the client goes away,
 * `disconnect_after_chunks` destroys the socket to simulate a dropped stream, and
 * `stall_after_chunks` goes silent with the connection open until the client gives up.
 */
export async function writeSseFrames(
  response: ServerResponse,
  frames: string[],
  turn: ResponseTurn,
  contentType = "text/event-stream; charset=utf-8",
): Promise<void> {
  let clientGone = false;
  response.once("close", () => {
    clientGone = true;
  });
  response.writeHead(200, { "content-type": contentType, "cache-control": "no-cache" });
  response.flushHeaders();

  const frameCount = Math.min(frames.length, turn.stall_after_chunks ?? turn.disconnect_after_chunks ?? frames.length);
  for (let position = 0; position < frameCount; position += 1) {
    if (position > 0 && turn.chunk_delay_ms) await waitUnlessClosed(response, turn.chunk_delay_ms);
    if (clientGone) return;
    const frame = frames[position] ?? "";
    // Waiting for the last frame to be flushed keeps it from being lost to the socket destroy.
    if (position === frameCount - 1 && turn.disconnect_after_chunks !== undefined) {
      await new Promise<void>((resolve) => response.write(frame, () => resolve()));
    } else {
      response.write(frame);
    }
  }
  if (turn.stall_after_chunks !== undefined) {
    if (!clientGone) await new Promise((resolve) => response.once("close", resolve));
    return;
  }
  if (turn.disconnect_after_chunks !== undefined) response.socket?.destroy();
  else response.end();
}

function waitUnlessClosed(response: ServerResponse, milliseconds: number): Promise<void> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      response.off("close", onClose);
      resolve();
    }, milliseconds);
    response.once("close", onClose);
  });
}
