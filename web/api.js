/**
 * The server's JSON API (src/web) as functions. Every request is same-origin, so the cookie the
 * server set when the page was opened with its token authenticates it. A failed request throws
 * an Error carrying the server's `{ error }` message, for the page to show.
 */

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(`${method} ${path} failed: ${error.message} (is agentwire web still running?)`);
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text || response.statusText;
    try {
      message = JSON.parse(text).error ?? message;
    } catch {
      // Not JSON: the body (or status text) is the message.
    }
    throw new Error(`${method} ${path}: ${response.status} ${message}`);
  }
  return text === "" ? undefined : JSON.parse(text);
}

const session = (id) => `/api/sessions/${encodeURIComponent(id)}`;

export const api = {
  info: () => request("GET", "/api/info"),
  sessions: (query) => request("GET", `/api/sessions${query ? `?q=${encodeURIComponent(query)}` : ""}`),
  create: (options) => request("POST", "/api/sessions", options),
  history: (id) => request("GET", `${session(id)}/history`),
  send: (id, text) => request("POST", `${session(id)}/messages`, { text }),
  interrupt: (id) => request("POST", `${session(id)}/interrupt`),
  answer: (id, requestId, answer) => request("POST", `${session(id)}/permissions/${encodeURIComponent(requestId)}`, answer),
  remove: (id) => request("DELETE", session(id)),
  /** The session's live events; EventSource reconnects by itself, sending Last-Event-ID. */
  events: (id) => new EventSource(`${session(id)}/events`),
};
