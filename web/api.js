/**
 * The server's JSON API (src/web) as functions. Each request carries the access token: from the
 * link agentwire web printed (`?token=`), kept in this tab's sessionStorage so a reload keeps it
 * (not in a cookie: cookies are shared with every other server on 127.0.0.1). A failed request
 * throws an Error carrying the server's `{ error }` message, for the page to show.
 */

const TOKEN_KEY = "agentwire-token";
const linked = new URLSearchParams(location.search).get("token");
if (linked) sessionStorage.setItem(TOKEN_KEY, linked);
const token = sessionStorage.getItem(TOKEN_KEY) ?? "";

/** Whether the page has a token at all (opened from the printed link, in this tab). */
export const hasToken = token !== "";

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "omit",
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
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
  /** The session's live events; EventSource reconnects by itself, sending Last-Event-ID. It cannot send headers: the token goes in the query. */
  events: (id) => new EventSource(`${session(id)}/events?token=${encodeURIComponent(token)}`),
};
