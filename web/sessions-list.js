/**
 * The session list in the drawer: stored and live sessions, newest first, filtered by the
 * search box (the server searches; typing waits 200 ms before asking).
 */
import { h } from "./view.js";

export function createSessionList(list, search, { load, onOpen, onError }) {
  let activeId;
  let sessions = [];
  let timer;
  let asked = 0;

  function draw() {
    list.replaceChildren(
      ...(sessions.length === 0
        ? [h("li", { class: "dim empty-list", text: search.value ? "No session matches." : "No sessions yet." })]
        : []),
      ...sessions.map((session) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: `session${session.id === activeId ? " active" : ""}`,
              "data-session": session.id,
              "aria-current": session.id === activeId ? "true" : undefined,
              onclick: () => onOpen(session),
            },
            h("span", { class: "first-prompt", text: session.firstPrompt || "(no prompt yet)" }),
            h(
              "span",
              { class: "meta" },
              session.running ? h("span", { class: "badge", text: "live" }) : undefined,
              h("span", { text: formatDate(session.updated) }),
              h("span", { text: `${session.turns} turn${session.turns === 1 ? "" : "s"}` }),
              typeof session.costUsd === "number" ? h("span", { text: `$${session.costUsd.toFixed(4)}` }) : undefined,
            ),
            h("span", { class: "cwd dim", text: session.cwd }),
          ),
        ),
      ),
    );
  }

  async function refresh() {
    // Answers can overtake each other while typing: only the newest question's answer is drawn.
    const ticket = ++asked;
    try {
      const found = await load(search.value.trim());
      if (ticket !== asked) return;
      sessions = found;
      draw();
    } catch (error) {
      onError(error);
    }
  }

  /** One refresh for a burst of reasons (typing, a reattached session replaying its results). */
  function refreshSoon() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 200);
  }

  search.addEventListener("input", refreshSoon);

  return {
    refresh,
    refreshSoon,
    find: (id) => sessions.find((session) => session.id === id),
    setActive(id) {
      activeId = id;
      draw();
    },
  };
}

function formatDate(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso ?? "");
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString([], { month: "short", day: "numeric" });
}
