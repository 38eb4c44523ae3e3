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

/**
 * `agentwire mock-server`: serves a scenario until SIGINT/SIGTERM.
 *
 * Contract: stdout gets exactly one JSON line, `{"type":"mock_server","url":…,"port":…}`, once
 * the server listens, so scripts can read the port; everything else goes to stderr. Resolves
 * after a signal once the server has closed (the caller then exits 0); rejects when the scenario
 * is invalid or the port cannot be bound.
 */
export async function runMockServerCommand(
  options: MockServerCommandOptions,
  streams: MockServerCommandStreams = process,
): Promise<void> {
  const log = (message: string) => {
    streams.stderr.write(`[mock-server] ${message}\n`);
  };
  const scenario = await loadScenario(options.scenario);
  const server = await startMockServer({
    scenario,
    scenarioName: options.scenario,
    port: options.port,
    host: options.host,
    recordFile: options.record,
    log,
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
