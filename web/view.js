/**
 * Draws the conversation's items (render-events.js) into the page. Items are keyed: an item is
 * rebuilt only when its `rev` changed, so a streaming answer redraws one element per frame, not
 * the whole chat. Text is set with textContent; only markdown.js output (escaped by
 * construction) goes through innerHTML.
 */
import { renderMarkdown } from "./markdown.js";

/** A small element builder: h("div", { class: "x", text: "y" }, child, …). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === "text") element.textContent = value;
    else if (name === "html") element.innerHTML = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) element.append(child);
  return element;
}

/**
 * Keeps `container` in step with a conversation. `onAnswer(requestId, behavior, always)` is
 * called when a permission button is pressed.
 */
export function createConversationView(container, { onAnswer }) {
  /** key → { rev, element } */
  const drawn = new Map();
  /** Cards the user opened or closed by hand keep that state across redraws. */
  const toggled = new Map();

  function draw(item) {
    switch (item.kind) {
      case "prompt":
        return h("div", { class: "msg prompt" }, h("div", { class: "bubble", text: item.text }));
      case "text":
        return h(
          "div",
          { class: `msg answer markdown${item.streaming ? " streaming" : ""}`, html: renderMarkdown(item.text) },
          item.aborted ? h("span", { class: "dim", text: " (interrupted)" }) : undefined,
        );
      case "thinking":
        return foldable(
          item,
          false,
          "thinking",
          h("summary", { text: item.streaming ? "Thinking…" : item.text.trim() === "" ? "Thought" : "Thinking" }),
          h("div", { class: "markdown dim", html: renderMarkdown(item.text) }),
        );
      case "tool":
        return item.subagent ? subagentCard(item) : toolCard(item);
      case "permission":
        return permission(item);
      case "result":
        return h(
          "div",
          { class: `turn-result ${item.failed ? "failed" : "ok"}` },
          h("span", { class: "outcome", text: `${item.failed ? "✗" : "✓"} ${item.outcome}` }),
          item.facts.map((fact) => h("span", { class: "fact", text: fact })),
          item.denials.map((denial) => h("div", { class: "denial", text: `denied: ${denial}` })),
        );
      case "notice":
        return h("div", { class: `notice ${item.level}`, role: item.level === "error" ? "alert" : undefined, text: item.text });
      default:
        return h("div", { class: "notice info", text: item.kind });
    }
  }

  function foldable(item, openByDefault, className, summary, ...body) {
    const details = h("details", { class: className, open: toggled.get(item.key) ?? openByDefault }, summary, ...body);
    details.addEventListener("toggle", () => toggled.set(item.key, details.open));
    return details;
  }

  function toolCard(item) {
    const result = item.result;
    const status = result
      ? result.summary
      : item.streaming
        ? "…"
        : item.elapsedSeconds
          ? `running ${Math.round(item.elapsedSeconds)} s`
          : "running";
    const state = cardState(result);
    const summary = cardSummary(item, status);
    const body = [];
    if (result?.diff) body.push(diffTable(result.diff));
    else if (result?.links) body.push(linkList(result.links));
    if (result?.output && !result.diff && !result.links)
      body.push(h("pre", { class: `output${result.failed ? " error-text" : ""}`, text: result.output }));
    body.push(h("details", { class: "input" }, h("summary", { text: "input" }), h("pre", { text: JSON.stringify(item.input, null, 2) })));
    // Errors and diffs are worth seeing without a click; plain output waits for one.
    return foldable(
      item,
      Boolean(result && (result.failed || result.diff)),
      `tool ${state}`,
      summary,
      h("div", { class: "tool-body" }, body),
    );
  }

  /** How a call card's result left it: done, failed, or still running. */
  function cardState(result) {
    return result ? (result.failed ? "failed" : "done") : "running";
  }

  /** A call card's one line: the tool, its key argument, its status. */
  function cardSummary(item, status) {
    return h(
      "summary",
      {},
      h("span", { class: "tool-name", text: item.name }),
      h("span", { class: "tool-arg", text: item.summary ?? "" }),
      h("span", { class: "tool-status", text: status }),
    );
  }

  /**
   * An Agent call with its subagent's work folded inside: the summary line says what it is and,
   * once it is done, how it ended and what it used; opened, its calls, its cost line and its report.
   */
  function subagentCard(item) {
    const fold = item.subagent;
    const result = item.result;
    const status = result ? result.summary : fold.inBackground ? "running in the background" : (fold.progress ?? "running");
    const state = cardState(result);
    const summary = cardSummary(item, status);
    const done = fold.summary;
    const body = [
      h(
        "div",
        { class: "subagent-steps" },
        fold.steps.map((step) =>
          step.kind === "tool" ? toolCard(step) : h("div", { class: "markdown dim", html: renderMarkdown(step.text) }),
        ),
      ),
      done
        ? h("div", {
            class: `subagent-cost ${done.failed ? "failed" : "ok"}`,
            text: [`${done.failed ? "✗" : "✓"} ${done.status}`, ...done.facts].join(" · "),
          })
        : undefined,
      done?.report
        ? h("div", { class: `subagent-report markdown${done.failed ? " error-text" : ""}`, html: renderMarkdown(done.report) })
        : undefined,
      h("details", { class: "input" }, h("summary", { text: "input" }), h("pre", { text: JSON.stringify(item.input, null, 2) })),
    ];
    return foldable(item, Boolean(result?.failed), `tool subagent ${state}`, summary, h("div", { class: "tool-body" }, body));
  }

  /** A web search's results. Only http(s) addresses become links: a result is text from the web. */
  function linkList(links) {
    return h(
      "ul",
      { class: "links" },
      links.map((link) =>
        h(
          "li",
          {},
          /^https?:\/\//i.test(link.url)
            ? h("a", { href: link.url, target: "_blank", rel: "noopener noreferrer", text: link.title })
            : h("span", { text: link.title }),
          h("span", { class: "link-url", text: ` ${link.url}` }),
        ),
      ),
    );
  }

  function diffTable(rows) {
    return h(
      "div",
      { class: "diff", role: "table", "aria-label": "changes" },
      rows.map((row) => h("div", { class: `diff-row ${row.kind}`, role: "row", text: row.text })),
    );
  }

  function permission(item) {
    const open = item.state === "open";
    const answered = { allowed: "Allowed", always: "Always allowed", denied: "Denied", cancelled: "No longer asked" }[item.state];
    const button = (label, className, behavior, always) =>
      h(
        "button",
        {
          type: "button",
          class: className,
          "data-answer": always ? "always" : behavior,
          onclick: () => onAnswer(item.requestId, behavior, always),
        },
        label,
      );
    const preview = item.input.command ?? item.input.content ?? item.input.new_string;
    return h(
      "div",
      {
        class: `permission ${item.state}`,
        role: open ? "alertdialog" : undefined,
        "aria-label": open ? `Allow ${item.toolName}?` : undefined,
      },
      h(
        "div",
        { class: "question" },
        h("strong", { text: open ? `Allow ${item.toolName}?` : item.toolName }),
        " ",
        h("span", { class: "tool-arg", text: item.summary }),
        open ? undefined : h("span", { class: "answered dim", text: ` · ${answered}` }),
      ),
      // Once answered, the question shrinks to one line: the tool card above shows what happened.
      open && item.reason ? h("div", { class: "reason", text: item.reason }) : undefined,
      open && typeof preview === "string" ? h("pre", { class: "preview", text: preview }) : undefined,
      open
        ? h(
            "div",
            { class: "actions" },
            button("Allow", "primary", "allow", false),
            button("Always allow", "", "allow", true),
            button("Deny", "danger", "deny", false),
          )
        : undefined,
    );
  }

  return {
    /** Brings the DOM up to date; keeps the view pinned to the bottom when it was there. */
    update(conversation) {
      const pinned = container.scrollHeight - container.scrollTop - container.clientHeight < 80;
      for (const item of conversation.items) {
        const known = drawn.get(item.key);
        if (item.removed) {
          known?.element.remove();
          drawn.delete(item.key);
          continue;
        }
        if (known && known.rev === item.rev) continue;
        const element = draw(item);
        element.dataset.key = item.key;
        if (known) known.element.replaceWith(element);
        else container.append(element);
        drawn.set(item.key, { rev: item.rev, element });
      }
      if (pinned) container.scrollTop = container.scrollHeight;
    },
    clear() {
      for (const { element } of drawn.values()) element.remove();
      drawn.clear();
      toggled.clear();
    },
  };
}
