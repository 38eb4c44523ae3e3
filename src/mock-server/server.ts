import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicErrorBody } from "./anthropic-sse.js";
import { createMockState, sendJson, type MockServerOptions, type RecordedRequest } from "./mock-state.js";
import { routeMockRequest } from "./vendor-endpoints.js";

/**
 * The replay ("mock") server: serves a scenario's scripted model turns over loopback HTTP, one
 * turn per model request, in the wire format of the route asked — Anthropic Messages
 * (`POST /v1/messages`), OpenAI Chat Completions and Responses, Gemini — and records every request.
 */

export type { MockServerOptions, RecordedRequest } from "./mock-state.js";

export interface MockServer {
  url: string;
  port: number;
  /** Live list: grows as requests arrive. */
  requests: RecordedRequest[];
  /** Stops listening and destroys open connections, so pending streams end at once. */
  close(): Promise<void>;
}

/**
 * Contract: resolves once the server listens; rejects if the port cannot be bound. Ids
 * (`msg_mock_0001`, `toolu_mock_0001`, `req_mock_0001`) are deterministic per instance.
 * Which endpoint answers what is the table in vendor-endpoints.ts; the state they share is mock-state.ts.
 */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const state = createMockState(options);
  const { log } = state;
  const server = createServer((request, response) => {
    routeMockRequest(state, request, response).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (response.headersSent) response.destroy();
      else sendJson(response, 500, anthropicErrorBody("api_error", "Mock server failure", String(response.getHeader("request-id"))));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  log(`listening on http://${urlHost}:${address.port}`);

  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        // The callback also runs (with an error) when already closed; either way we are done.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
