import type { ProviderEvent, ProviderRequest } from "../../src/providers/types.js";
import type { Provider } from "../../src/providers/types.js";

/** Everything a provider yields for one request. */
export async function collect(
  provider: Provider,
  request: ProviderRequest,
  signal: AbortSignal = new AbortController().signal,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request, signal)) events.push(event);
  return events;
}

export const readToolSpec = {
  name: "Read",
  description: "Read a file.",
  inputSchema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
};

export function providerRequest(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: "gpt-4.1",
    system: "Be brief.",
    messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
    tools: [readToolSpec],
    maxOutputTokens: 1024,
    sessionId: "session-1",
    ...overrides,
  };
}

/** Event types in order, deltas collapsed: easier to read in a failing assertion. */
export function shape(events: ProviderEvent[]): string[] {
  return events.map((event) => event.type).filter((type, index, all) => !(type.endsWith("_delta") && all[index - 1] === type));
}

/** The terminal event; a test fails when the stream did not end with exactly one. */
export function terminal(events: ProviderEvent[]): ProviderEvent {
  const terminals = events.filter((event) => event.type === "message_end" || event.type === "error");
  if (terminals.length !== 1 || events.at(-1) !== terminals[0])
    throw new Error(`expected exactly one terminal event, last: ${JSON.stringify(events.map((event) => event.type))}`);
  return terminals[0]!;
}
