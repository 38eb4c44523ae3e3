import { loadScenario } from "./scenario.js";
import { startMockServer } from "./server.js";

export interface MockServerCommandOptions {
  /** 0 picks a free port; the chosen one is announced on stdout. */
  port: number;
  /** Path of the scenario JSON file. */
  scenario: string;
  host?: string;
  /** JSONL file that receives every recorded request. */
  record?: string;
}

/** Passed in (rather than reached for) so the command can be driven from tests. */
export interface MockServerCommandStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A mistake of the person starting the server (a missing or invalid scenario, a port in use): not a bug. */
export class MockServerSetupError extends Error {}

/**
 * `agentwire mock-server`: serves a scenario until SIGINT/SIGTERM.
 *
 * Contract: stdout gets exactly one JSON line, `{"type":"mock_server","url":…,"port":…}`, once
 * the server listens, so scripts can read the port; everything else goes to stderr. Resolves
 * after a signal once the server has closed (the caller then exits 0); rejects with a
 * MockServerSetupError when the scenario is missing or invalid or the port cannot be bound.
 */
export async function runMockServerCommand(options: MockServerCommandOptions, streams: MockServerCommandStreams = process): Promise<void> {
  const log = (message: string) => {
    streams.stderr.write(`[mock-server] ${message}\n`);
  };
  const scenario = await loadScenario(options.scenario).catch((error: unknown) => {
    throw new MockServerSetupError((error as Error).message);
  });
  const server = await startMockServer({
    scenario,
    scenarioName: options.scenario,
    port: options.port,
    host: options.host,
    recordFile: options.record,
    log,
  }).catch((error: unknown) => {
    // A system error (EADDRINUSE, EACCES) is about the port asked for; anything else is a bug.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string")
      throw new MockServerSetupError(`cannot listen on ${options.host ?? "127.0.0.1"}:${options.port}: ${(error as Error).message}`);
    throw error;
  });
  log(`scenario ${options.scenario}: ${scenario.turns.length} turn(s)`);
  streams.stdout.write(`${JSON.stringify({ type: "mock_server", url: server.url, port: server.port })}\n`);

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (received: NodeJS.Signals) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolve(received);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
  log(`${signal} received, shutting down`);
  await server.close();
}
