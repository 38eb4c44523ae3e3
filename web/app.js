/**
 * The page: wires the API (api.js), the event folding (render-events.js), the conversation view
 * (view.js) and the session list together. One session is shown at a time; its id is kept in
 * the URL hash so a reload comes back to it, and its live events come over SSE.
 */
import { api, hasToken } from "./api.js";
import { addNotice, addPrompt, answerPermission, applyEvent, createConversation, foldEvents } from "./render-events.js";
import { createSessionList } from "./sessions-list.js";
import { setUpTheme } from "./theme.js";
import { createConversationView, h } from "./view.js";

const $ = (id) => document.getElementById(id);
const elements = {
  conversation: $("conversation"),
  empty: $("empty"),
  prompt: /** @type {HTMLTextAreaElement} */ ($("prompt")),
  composer: $("composer"),
  send: $("send"),
  stop: $("stop"),
  model: /** @type {HTMLSelectElement} */ ($("model")),
  cwd: /** @type {HTMLSelectElement} */ ($("cwd")),
  facts: $("session-facts"),
  error: $("error"),
  errorText: $("error-text"),
  menu: $("menu"),
  scrim: $("scrim"),
};

const state = {
  info: undefined,
  /** The session on screen; undefined until the first prompt of a new one. */
  sessionId: undefined,
  /** Its live event stream, once it is live (created, resumed, or found running). */
  stream: undefined,
  conversation: createConversation(),
  /** The event stream dropped and EventSource is trying again. */
  reconnecting: false,
};

const view = createConversationView(elements.conversation, { onAnswer: answer });
const sessionList = createSessionList($("sessions"), $("search"), {
  load: (query) => api.sessions(query),
  onOpen: (session) => openSession(session.id).then(closeDrawer),
  onError: showError,
});

function showError(error) {
  console.error(error);
  elements.errorText.textContent = error instanceof Error ? error.message : String(error);
  elements.error.hidden = false;
}

let frame = 0;
/** Many events can arrive per frame while a turn streams: draw once per frame. */
function render() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    const { conversation } = state;
    view.update(conversation);
    elements.empty.hidden = conversation.items.length > 0;
    elements.stop.hidden = !conversation.running;
    elements.facts.textContent = [
      state.reconnecting ? "reconnecting…" : undefined,
      conversation.model,
      conversation.provider,
      conversation.cwd,
    ]
      .filter(Boolean)
      .join(" · ");
  });
}

function detach() {
  state.stream?.close();
  state.stream = undefined;
  state.reconnecting = false;
}

function showSession(id) {
  detach();
  state.sessionId = id;
  state.conversation = createConversation();
  view.clear();
  // The token in the address is kept in this tab's storage (api.js): keep it out of history.
  history.replaceState(null, "", id ? `${location.pathname}#session=${encodeURIComponent(id)}` : location.pathname);
  sessionList.setActive(id);
  render();
}

/** Follows the live session's events. The server replays its log from the start on a fresh connection. */
function attach(id) {
  const stream = api.events(id);
  state.stream = stream;
  stream.onmessage = (message) => {
    if (state.stream !== stream) return;
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      addNotice(state.conversation, "error", `The server sent an event that is not JSON: ${message.data.slice(0, 200)}`);
      render();
      return;
    }
    applyEvent(state.conversation, event);
    if (event.type === "result") sessionList.refreshSoon();
    render();
  };
  stream.onopen = () => {
    state.reconnecting = false;
    render();
  };
  stream.onerror = () => {
    if (state.stream !== stream) return;
    // EventSource retries by itself (with Last-Event-ID) unless the server refused the stream.
    if (stream.readyState === EventSource.CLOSED)
      showError(new Error("The session's event stream was closed by the server; reopen the session from the list."));
    else state.reconnecting = true;
    render();
  };
}

/** Shows a session from the list: its stored turns, then (when it runs) its live events. */
async function openSession(id) {
  showSession(id);
  const summary = sessionList.find(id);
  if (summary?.cwd) state.conversation.cwd = summary.cwd;
  try {
    const events = await api.history(id);
    if (state.sessionId !== id) return;
    foldEvents(events, state.conversation);
    // History ends between turns; only the live stream says a turn is running.
    state.conversation.running = false;
  } catch (error) {
    showError(error);
  }
  if (summary?.running && state.sessionId === id) attach(id);
  render();
}

/** A session that can take a message: a new one (with the picked model), or the shown one resumed. */
async function ensureLive() {
  if (state.stream) return state.sessionId;
  if (state.sessionId) {
    await api.create({ resume: state.sessionId });
  } else {
    const { id } = await api.create({ ...pickedModel(), ...(elements.cwd.value ? { cwd: elements.cwd.value } : {}) });
    showSession(id);
  }
  attach(state.sessionId);
  return state.sessionId;
}

async function send() {
  const text = elements.prompt.value;
  if (text.trim() === "") return;
  elements.prompt.value = "";
  autosize();
  try {
    const id = await ensureLive();
    addPrompt(state.conversation, text);
    render();
    await api.send(id, text);
    sessionList.refresh();
  } catch (error) {
    state.conversation.running = false;
    addNotice(state.conversation, "error", `Not sent: ${error.message}`);
    if (elements.prompt.value === "") elements.prompt.value = text;
    showError(error);
    render();
  }
}

async function interrupt() {
  if (!state.sessionId || !state.conversation.running) return;
  try {
    await api.interrupt(state.sessionId);
  } catch (error) {
    showError(error);
  }
}

async function answer(requestId, behavior, always) {
  const body = {
    behavior,
    ...(always ? { always: true } : {}),
    ...(behavior === "deny" ? { message: "The user denied this in agentwire web." } : {}),
  };
  answerPermission(state.conversation, requestId, always ? "always" : behavior === "allow" ? "allowed" : "denied");
  render();
  try {
    await api.answer(state.sessionId, requestId, body);
  } catch (error) {
    answerPermission(state.conversation, requestId, "open");
    showError(error);
    render();
  }
}

function pickedModel() {
  const choice = state.info?.models[Number(elements.model.value)] ?? state.info?.defaults;
  return choice ? { provider: choice.provider, model: choice.id ?? choice.model } : {};
}

function fillModelPicker(info) {
  const models = info.models;
  const { provider, model } = info.defaults;
  if (model && !models.some((entry) => entry.provider === provider && entry.id === model))
    models.unshift({ provider, id: model, displayName: model });
  const providers = [...new Set(models.map((entry) => entry.provider))];
  elements.model.replaceChildren(
    ...providers.map((name) =>
      h(
        "optgroup",
        { label: name },
        models.flatMap((entry, index) =>
          entry.provider === name
            ? [
                h(
                  "option",
                  { value: String(index), selected: entry.provider === provider && entry.id === model },
                  entry.displayName || entry.id,
                ),
              ]
            : [],
        ),
      ),
    ),
  );
}

/** Where new sessions work: offered only when the server allows more than one folder (--add-dir). */
function fillFolderPicker(info) {
  const folders = [info.cwd, ...info.roots.filter((root) => root !== info.cwd)];
  elements.cwd.replaceChildren(...folders.map((folder) => h("option", { value: folder }, folder)));
  $("cwd-picker").hidden = folders.length < 2;
}

function autosize() {
  const prompt = elements.prompt;
  prompt.style.height = "auto";
  if (prompt.value === "") return;
  prompt.style.height = `${Math.min(prompt.scrollHeight, Math.round(window.innerHeight * 0.4))}px`;
}

function openDrawer() {
  document.body.classList.add("drawer-open");
  elements.scrim.hidden = false;
  elements.menu.setAttribute("aria-expanded", "true");
}

function closeDrawer() {
  document.body.classList.remove("drawer-open");
  elements.scrim.hidden = true;
  elements.menu.setAttribute("aria-expanded", "false");
}

elements.composer.addEventListener("submit", (event) => {
  event.preventDefault();
  send();
});
elements.prompt.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});
elements.prompt.addEventListener("input", autosize);
elements.stop.addEventListener("click", interrupt);
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (document.body.classList.contains("drawer-open")) closeDrawer();
  else interrupt();
});
$("new-session").addEventListener("click", () => {
  showSession(undefined);
  closeDrawer();
  elements.prompt.focus();
});
$("error-close").addEventListener("click", () => (elements.error.hidden = true));
elements.menu.addEventListener("click", () => (document.body.classList.contains("drawer-open") ? closeDrawer() : openDrawer()));
elements.scrim.addEventListener("click", closeDrawer);
setUpTheme($("theme"));

async function boot() {
  if (!hasToken) showError(new Error("This page needs its access token: open the full URL agentwire web printed (with ?token=…)."));
  try {
    state.info = await api.info();
    fillModelPicker(state.info);
    fillFolderPicker(state.info);
  } catch (error) {
    showError(error);
  }
  await sessionList.refresh();
  const id = new URLSearchParams(location.hash.slice(1)).get("session");
  if (id) await openSession(id);
  elements.prompt.focus();
  document.body.dataset.ready = "true";
}

boot();
