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
  /** The next scenario turn for this request body, or undefined when the script has none left for it. */
  readonly takeTurn: (body: unknown) => { index: number; turn: ScenarioTurn } | undefined;
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
  const taken = isJsonObject ? state.takeTurn(body) : undefined;
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

/**
 * Serves the first turn not yet served that fits the request (a turn without `match` fits every
 * request); a `repeat` turn is never used up, so it answers every later request it fits.
 */
function createTurnCursor(turns: readonly ScenarioTurn[]): (body: unknown) => { index: number; turn: ScenarioTurn } | undefined {
  const served = new Set<number>();
  return (body) => {
    let firstUserText: string | undefined;
    const index = turns.findIndex((turn, position) => {
      if (served.has(position)) return false;
      if (turn.match === undefined) return true;
      firstUserText ??= firstUserMessageText(body);
      return firstUserText.includes(turn.match);
    });
    const turn = turns[index];
    if (turn === undefined) return undefined;
    if (!turn.repeat) served.add(index);
    return { index, turn };
  };
}

/**
 * The texts inside the first `role: "user"` object of a request body, joined: the first user
 * message in any of the wire formats (Anthropic and Chat `messages`, Responses `input`, Gemini
 * `contents`), whatever its content's shape.
 */
export function firstUserMessageText(body: unknown): string {
  const found = findFirst(body, (value) => value.role === "user");
  return found === undefined ? "" : stringsIn(found).join("\n");
}

function findFirst(value: unknown, test: (object: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (!Array.isArray(value) && test(value as Record<string, unknown>)) return value as Record<string, unknown>;
  for (const child of Object.values(value)) {
    const found = findFirst(child, test);
    if (found) return found;
  }
  return undefined;
}

/** The texts of a message: string `content` and `text` fields at any depth (not roles, types or ids). */
function stringsIn(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    typeof child === "string" ? (key === "text" || key === "content" ? [child] : []) : stringsIn(child),
  );
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
