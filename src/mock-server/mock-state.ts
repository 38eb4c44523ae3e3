import { appendFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isErrorTurn, type ErrorTurn, type ResponseTurn, type Scenario, type ScenarioTurn } from "./scenario.js";

export interface MockServerOptions {
  scenario: Scenario;
  /** Where the scenario came from (its file), named when the turns run out. */
  scenarioName?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default "127.0.0.1": the server is for loopback use only. */
  host?: string;
  /** Appends every recorded request to this file as one JSON line. */
  recordFile?: string;
  /** Human-readable progress lines; silent when absent. */
  log?: (message: string) => void;
}

export interface RecordedRequest {
  /** Index of the scenario turn that answered, or null when none did (turns ran out, bad body). */
  turn: number | null;
  method: string;
  /** Path including the query string, e.g. "/v1/messages?beta=true". */
  path: string;
  /** Lowercased names; credential values are replaced by "[redacted]". */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** ISO-8601 arrival time. */
  time: string;
}

const redactedHeaderNames = new Set(["x-api-key", "x-goog-api-key", "authorization", "proxy-authorization"]);

/** What every endpoint of one mock server shares: the script's position, the ids handed out, the requests recorded. */
export interface MockState {
  readonly options: MockServerOptions;
  /** Live list: grows as requests arrive. */
  readonly requests: RecordedRequest[];
  /** `prefix_mock_0001`, `prefix_mock_0002`…: a counter per prefix, so ids are the same on every run. */
  readonly nextId: (prefix: string) => string;
  /** The next scenario turn, or undefined when the script has ended. */
  readonly takeTurn: () => { index: number; turn: ScenarioTurn } | undefined;
  readonly log: (message: string) => void;
}

export function createMockState(options: MockServerOptions): MockState {
  return {
    options,
    requests: [],
    nextId: createIdSequence(),
    takeTurn: createTurnCursor(options.scenario.turns),
    log: options.log ?? (() => {}),
  };
}

/** A vendor's error shapes: for a request that cannot be served, and for a scripted error turn. */
export interface VendorErrors {
  body(status: number, message: string): unknown;
  turn(turn: ErrorTurn): unknown;
}

/** A turn to encode, with the request it answers. */
export interface TakenTurn {
  turn: ResponseTurn;
  body: Record<string, unknown>;
  bodyText: string;
}

/**
 * What every wire format shares: read and record the request, take the next turn, and answer
 * a body that is not a JSON object, an exhausted scenario, or an error turn in the vendor's
 * own error shape. Resolves with the turn to encode, or undefined when already answered.
 */
export async function takeResponseTurn(
  state: MockState,
  request: IncomingMessage,
  response: ServerResponse,
  errors: VendorErrors,
): Promise<TakenTurn | undefined> {
  const { options, requests, log } = state;
  const bodyText = await readBodyText(request);
  const body = parseJsonOrKeepText(bodyText);
  const isJsonObject = typeof body === "object" && body !== null;
  const taken = isJsonObject ? state.takeTurn() : undefined;
  await record(state, {
    turn: taken?.index ?? null,
    method: request.method ?? "POST",
    path: request.url ?? "",
    headers: recordableHeaders(request),
    body,
    time: new Date().toISOString(),
  });
  if (!taken) {
    // 400, not 5xx: a client must not retry a script that has ended, it must stop and say so.
    const turns = options.scenario.turns.length;
    const problem = isJsonObject
      ? `Replay scenario ${options.scenarioName ?? "(given inline)"} is exhausted: request ${requests.length} arrived, but it scripts ${turns} turn${turns === 1 ? "" : "s"}, all already served.`
      : "Request body is not a JSON object";
    const status = 400;
    log(problem);
    sendJson(response, status, errors.body(status, problem));
    return undefined;
  }
  log(`request ${requests.length}: serving turn ${taken.index}`);
  if (isErrorTurn(taken.turn)) {
    if (taken.turn.error.retry_after !== undefined) response.setHeader("retry-after", String(taken.turn.error.retry_after));
    sendJson(response, taken.turn.error.status, errors.turn(taken.turn));
    return undefined;
  }
  return { turn: taken.turn, body: body as Record<string, unknown>, bodyText };
}

export async function record(state: MockState, entry: RecordedRequest): Promise<void> {
  state.requests.push(entry);
  if (state.options.recordFile) await appendFile(state.options.recordFile, `${JSON.stringify(entry)}\n`);
}

/** Serves turns in order; a `repeat` turn answers every remaining request. */
function createTurnCursor(turns: readonly ScenarioTurn[]): () => { index: number; turn: ScenarioTurn } | undefined {
  let nextIndex = 0;
  return () => {
    const turn = turns[nextIndex];
    if (turn === undefined) return undefined;
    const index = nextIndex;
    if (!turn.repeat) nextIndex += 1;
    return { index, turn };
  };
}

function createIdSequence(): (prefix: string) => string {
  const counters = new Map<string, number>();
  return (prefix) => {
    const count = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, count);
    return `${prefix}_mock_${String(count).padStart(4, "0")}`;
  };
}

export function recordableHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name] = redactedHeaderNames.has(name) ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

async function readBodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJsonOrKeepText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
