/**
 * Folds stream-json events (live from the session's SSE stream, or stored history) into the
 * chat's view model: an ordered list of items — prompts, answer text, thinking, tool cards,
 * permission questions, notices and per-turn results. Streamed deltas build an item as they
 * arrive and the complete `assistant` line then replaces its content, so what stays on screen is
 * always the final text. Pure: no DOM, no fetch; the page renders the items (view.js).
 *
 * Every item has a stable `key` and a `rev` that grows whenever it changes, so the view redraws
 * only what changed. A dropped item (the output of an abandoned attempt before a retry) gets
 * `removed: true`.
 *
 * A subagent's events (those with `parent_tool_use_id`) are not items of their own: they go into
 * the `subagent` of the Agent call's tool item (its calls and text as `steps`, its progress, its
 * summary once done), so the page shows them folded under that call whatever they interleave with.
 */
import {
  backgroundTaskEnded,
  backgroundTaskFailed,
  backgroundTaskStarted,
  clip,
  describeResult,
  describeSubagent,
  formatCount,
  isAgentTool,
  isAsyncLaunch,
  keyArgument,
  plural,
} from "../src/render/present/index.ts";

/** The widest a one-line result may be in a tool card's summary. */
const SUMMARY_WIDTH = 120;

/**
 * One thing on screen. `kind` is prompt | text | thinking | tool | permission | notice | result;
 * the other fields depend on it (see where each kind is added below).
 * @typedef {{ key: string, rev: number, kind: string, removed?: boolean, [field: string]: any }} Item
 */

export function createConversation() {
  return {
    items: /** @type {Item[]} */ ([]),
    /** A turn is under way: from sending a prompt (or a `system/init`) until its `result`. */
    running: false,
    cwd: undefined,
    model: undefined,
    provider: undefined,
    /** The session's cumulative cost at the last result, to show what each turn cost. */
    lastTotalCostUsd: undefined,
    nextKey: 1,
    /** Streamed blocks not yet replaced by their complete `assistant` line, per API message id. */
    openBlocks: /** @type {Map<string, Item[]>} */ (new Map()),
    /** Streamed blocks by `${messageId}:${index}`. */
    streamed: /** @type {Map<string, Item>} */ (new Map()),
    tools: /** @type {Map<string, Item>} */ (new Map()),
    /** Ids of tasks started in the background (system/task_started with is_backgrounded). */
    backgroundTasks: /** @type {Set<string>} */ (new Set()),
    permissions: /** @type {Map<string, Item>} */ (new Map()),
  };
}

/** Every event in order into a new conversation (tests, and a session's stored history). */
export function foldEvents(events, conversation = createConversation()) {
  for (const event of events) applyEvent(conversation, event);
  return conversation;
}

function add(conversation, item) {
  const added = { key: `i${conversation.nextKey++}`, rev: 1, ...item };
  conversation.items.push(added);
  return added;
}

function touch(item, changes) {
  Object.assign(item, changes);
  item.rev += 1;
}

/** The user's own prompt, shown at once; the turn counts as running until its result. */
export function addPrompt(conversation, text) {
  conversation.running = true;
  return add(conversation, { kind: "prompt", text, local: true });
}

/** A message of the page itself (a failed request), in the conversation where it happened. */
export function addNotice(conversation, level, text) {
  return add(conversation, { kind: "notice", level, text });
}

/**
 * The user answered a permission question: shown at once, since the turn may end before the
 * answer's request returns. `state` "open" asks again (the answer could not be delivered), unless
 * the question has gone meanwhile.
 */
export function answerPermission(conversation, requestId, state) {
  const item = conversation.permissions.get(requestId);
  if (!item || item.state === "cancelled" || item.state === state) return;
  if (state === "open" || item.state === "open") touch(item, { state });
}

export function openPermissions(conversation) {
  return [...conversation.permissions.values()].filter((item) => item.state === "open");
}

export function applyEvent(conversation, event) {
  if (!event || typeof event !== "object") return;
  switch (event.type) {
    case "system":
      return system(conversation, event);
    case "stream_event":
      return streamEvent(conversation, event);
    case "assistant":
      return assistant(conversation, event);
    case "user":
      return user(conversation, event);
    case "control_request":
      return controlRequest(conversation, event);
    case "control_cancel_request": {
      const item = conversation.permissions.get(event.request_id);
      if (item && item.state === "open") touch(item, { state: "cancelled" });
      return;
    }
    case "tool_progress": {
      const tool = conversation.tools.get(event.tool_use_id);
      if (tool && typeof event.elapsed_time_seconds === "number") touch(tool, { elapsedSeconds: event.elapsed_time_seconds });
      // A subagent's step is drawn inside its Agent call's card.
      if (tool?.parentCall) touch(tool.parentCall, {});
      return;
    }
    case "result":
      return result(conversation, event);
    // Answers to the host's own requests and keep-alives carry nothing to show.
    case "control_response":
    case "keep_alive":
      return;
    default:
      add(conversation, { kind: "notice", level: "info", text: `Unknown event: ${clip(JSON.stringify(event), 200)}` });
  }
}

function system(conversation, event) {
  switch (event.subtype) {
    case "task_started":
    case "task_progress":
    case "task_notification":
      return task(conversation, event);
    case "init":
      conversation.running = true;
      conversation.cwd = event.cwd ?? conversation.cwd;
      conversation.model = event.model ?? conversation.model;
      conversation.provider = event.provider ?? conversation.provider;
      return;
    case "api_retry": {
      // The abandoned attempt's partial output is not part of the conversation (protocol/README.md).
      for (const [messageId, blocks] of conversation.openBlocks) {
        for (const item of blocks) if (item.kind !== "tool") touch(item, { removed: true });
        conversation.openBlocks.delete(messageId);
      }
      const cause = `${typeof event.error === "string" ? event.error : "error"}${event.error_status ? `, HTTP ${event.error_status}` : ""}`;
      add(conversation, {
        kind: "notice",
        level: "warning",
        text: `Model API failed (${cause}); retry ${event.attempt ?? "?"} of ${event.max_retries ?? "?"} in ${((event.retry_delay_ms ?? 0) / 1000).toFixed(1)} s`,
      });
      return;
    }
    case "permission_denied": {
      // The call's error result follows with the same reason: show it there when the call is on screen.
      if (event.tool_use_id && conversation.tools.has(event.tool_use_id)) return;
      add(conversation, {
        kind: "notice",
        level: "error",
        text: `${event.tool_name ?? "Tool"} denied${event.message ? `: ${event.message}` : ""}`,
      });
      return;
    }
    case "warning":
      add(conversation, { kind: "notice", level: "warning", text: event.message ?? "warning" });
      return;
    case "input_error":
      add(conversation, { kind: "notice", level: "warning", text: `Bad input: ${event.error?.message ?? event.message ?? ""}` });
      return;
    case "error":
      add(conversation, { kind: "notice", level: "error", text: event.message ?? "error" });
      return;
    case "compact_boundary": {
      const metadata = event.compact_metadata ?? {};
      add(conversation, {
        kind: "notice",
        level: "info",
        text: `Conversation compacted (${metadata.trigger ?? "auto"}): ${formatCount(metadata.pre_tokens ?? 0)} → ${formatCount(metadata.post_tokens ?? 0)} tokens`,
      });
      return;
    }
    default:
      // status, thinking_tokens, session_state_changed, hooks: progress signals for programs.
      return;
  }
}

function streamEvent(conversation, { event, api_message_id: messageId, parent_tool_use_id: parent }) {
  // A subagent's deltas: its complete lines fill its fold.
  if (!event || parent) return;
  const key = `${messageId}:${event.index}`;
  switch (event.type) {
    case "content_block_start": {
      const block = event.content_block ?? {};
      let item;
      if (block.type === "text") item = add(conversation, { kind: "text", text: block.text ?? "", streaming: true });
      else if (block.type === "thinking") item = add(conversation, { kind: "thinking", text: block.thinking ?? "", streaming: true });
      else if (block.type === "tool_use")
        item = addTool(conversation, { id: block.id, name: block.name, input: {}, streaming: true, inputJson: "" });
      else return;
      conversation.streamed.set(key, item);
      const open = conversation.openBlocks.get(messageId) ?? [];
      open.push(item);
      conversation.openBlocks.set(messageId, open);
      return;
    }
    case "content_block_delta": {
      const item = conversation.streamed.get(key);
      const delta = event.delta ?? {};
      if (!item?.streaming) return;
      if (delta.type === "text_delta" && item.kind === "text") touch(item, { text: item.text + delta.text });
      else if (delta.type === "thinking_delta" && item.kind === "thinking") touch(item, { text: item.text + delta.thinking });
      else if (delta.type === "input_json_delta" && item.kind === "tool") {
        const inputJson = item.inputJson + (delta.partial_json ?? "");
        const input = parseOr(inputJson, item.input);
        touch(item, { inputJson, input, summary: keyArgument(item.name, input, conversation.cwd) });
      }
      return;
    }
    case "content_block_stop": {
      const item = conversation.streamed.get(key);
      if (item?.streaming) touch(item, { streaming: false });
      return;
    }
    default:
      return;
  }
}

function assistant(conversation, event) {
  if (event.parent_tool_use_id) return subagentAssistant(conversation, event);
  const message = event.message ?? {};
  const open = conversation.openBlocks.get(message.id) ?? [];
  for (const block of message.content ?? []) {
    if (event.error && block.type === "text") {
      add(conversation, { kind: "notice", level: "error", text: block.text });
      continue;
    }
    const kind = block.type === "tool_use" ? "tool" : block.type;
    if (kind !== "text" && kind !== "thinking" && kind !== "tool") continue;
    // The streamed item this complete block finishes: the first open one of its kind.
    const index = open.findIndex((item) => item.kind === kind);
    const streamed = index >= 0 ? open.splice(index, 1)[0] : undefined;
    if (kind === "tool") {
      const changes = {
        id: block.id,
        name: block.name,
        input: block.input ?? {},
        summary: keyArgument(block.name, block.input ?? {}, conversation.cwd),
        streaming: false,
      };
      if (streamed) {
        conversation.tools.set(block.id, streamed);
        touch(streamed, changes);
      } else {
        addTool(conversation, changes);
      }
      continue;
    }
    const text = kind === "text" ? block.text : block.thinking;
    const changes = { text: text ?? "", streaming: false, aborted: event.aborted === true };
    if (streamed) touch(streamed, changes);
    else add(conversation, { kind, ...changes });
  }
  if (open.length === 0) conversation.openBlocks.delete(message.id);
}

function addTool(conversation, fields) {
  const item = add(conversation, {
    kind: "tool",
    summary: keyArgument(fields.name, fields.input, conversation.cwd),
    result: undefined,
    ...fields,
  });
  if (fields.id) conversation.tools.set(fields.id, item);
  return item;
}

/** The fold of an Agent call, made when its subagent's first event comes. */
function subagentOf(conversation, callId) {
  const call = conversation.tools.get(callId) ?? addTool(conversation, { id: callId, name: "Agent", input: {} });
  call.subagent ??= newFold();
  return call;
}

function newFold() {
  return { steps: [], progress: undefined, notification: undefined, inBackground: false, summary: undefined };
}

/** A subagent's calls and text, as steps of its fold (its prompt, on the user line, is the call's input). */
function subagentAssistant(conversation, event) {
  const call = subagentOf(conversation, event.parent_tool_use_id);
  for (const block of event.message?.content ?? []) {
    const key = `i${conversation.nextKey++}`;
    if (block.type === "tool_use") {
      const input = block.input ?? {};
      const step = { key, rev: 1, kind: "tool", id: block.id, name: block.name, input, result: undefined, parentCall: call };
      step.summary = keyArgument(block.name, input, conversation.cwd);
      conversation.tools.set(block.id, step);
      call.subagent.steps.push(step);
    } else if (block.type === "text" && block.text) {
      call.subagent.steps.push({ key, rev: 1, kind: "text", text: block.text });
    }
  }
  touch(call, {});
}

/** A finished subagent: its summary, and the card's result line (how it ended, what it used, its report). */
function finishSubagent(call, result) {
  const summary = describeSubagent(call.input, call.subagent?.notification, result);
  call.subagent ??= newFold();
  call.subagent.summary = summary;
  touch(call, {
    streaming: false,
    result: {
      kind: summary.failed ? "error" : "done",
      failed: summary.failed,
      summary: [summary.status, ...summary.facts].join(" · "),
      output: summary.report,
    },
  });
}

/** system/task_*: a subagent's progress and end go to its fold; background tasks also get a notice each way. */
function task(conversation, event) {
  const call = event.tool_use_id ? conversation.tools.get(event.tool_use_id) : undefined;
  const agent = call && isAgentTool(call.name) ? subagentOf(conversation, event.tool_use_id) : undefined;
  if (event.subtype === "task_started") {
    if (!event.is_backgrounded) return;
    conversation.backgroundTasks.add(event.task_id);
    add(conversation, { kind: "notice", level: "info", text: backgroundTaskStarted(event) });
    return;
  }
  if (event.subtype === "task_progress") {
    if (agent && typeof event.description === "string") {
      agent.subagent.progress = event.description;
      touch(agent, {});
    }
    return;
  }
  if (agent) agent.subagent.notification = event;
  const background = conversation.backgroundTasks.has(event.task_id) || agent?.subagent.inBackground;
  if (!background) return;
  add(conversation, { kind: "notice", level: backgroundTaskFailed(event) ? "error" : "info", text: backgroundTaskEnded(event) });
  if (agent) finishSubagent(agent, undefined);
}

function user(conversation, event) {
  const content = event.message?.content;
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  for (const block of blocks) {
    if (block.type === "tool_result") {
      const tool = conversation.tools.get(block.tool_use_id) ?? addTool(conversation, { id: block.tool_use_id, name: "Tool", input: {} });
      if (isAgentTool(tool.name) && !tool.parentCall) {
        agentResult(tool, block, event.tool_use_result);
        continue;
      }
      touch(tool, {
        result: describeResult(tool.name, tool.input, block, event.tool_use_result, conversation.cwd, SUMMARY_WIDTH),
        streaming: false,
      });
      // A step of a subagent: its fold is drawn with the Agent call's card.
      if (tool.parentCall) touch(tool.parentCall, {});
    } else if (block.type === "text" && !event.parent_tool_use_id) {
      // Text beside a tool result is the tool's (ToolSearch's "Tool loaded."), not the user's words.
      userText(conversation, block.text ?? "", event.isSynthetic === true || blocks.some((other) => other.type === "tool_result"));
    }
  }
}

/** An Agent call's result: the subagent's end, or only its launch when it goes on in the background. */
function agentResult(call, block, details) {
  if (!isAsyncLaunch(details)) return finishSubagent(call, { block, details });
  call.subagent ??= newFold();
  call.subagent.inBackground = true;
  touch(call, { streaming: false });
}

function userText(conversation, text, synthetic) {
  if (text.startsWith("[Request interrupted")) {
    add(conversation, { kind: "notice", level: "info", text: "Interrupted by the user" });
    return;
  }
  if (synthetic) {
    add(conversation, { kind: "notice", level: "info", text });
    return;
  }
  // A prompt this page already shows (sent from here) is echoed back by the server: keep one.
  const echoed = conversation.items.find((item) => item.kind === "prompt" && item.local && item.text === text);
  if (echoed) {
    touch(echoed, { local: false });
    return;
  }
  add(conversation, { kind: "prompt", text });
}

function controlRequest(conversation, event) {
  const request = event.request ?? {};
  if (request.subtype !== "can_use_tool") return;
  const input = request.input ?? {};
  const item = add(conversation, {
    kind: "permission",
    requestId: event.request_id,
    toolName: request.tool_name,
    input,
    summary: request.description ?? keyArgument(request.tool_name, input, conversation.cwd),
    reason: request.decision_reason ?? "",
    state: "open",
  });
  conversation.permissions.set(event.request_id, item);
}

function result(conversation, event) {
  conversation.running = false;
  for (const item of conversation.permissions.values()) if (item.state === "open") touch(item, { state: "cancelled" });
  for (const blocks of conversation.openBlocks.values()) for (const item of blocks) if (item.streaming) touch(item, { streaming: false });
  conversation.openBlocks.clear();
  const usage = event.usage ?? {};
  const inputTokens = (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  const outputTokens = usage.output_tokens ?? 0;
  const total = typeof event.total_cost_usd === "number" ? event.total_cost_usd : undefined;
  const previous = conversation.lastTotalCostUsd;
  if (total !== undefined) conversation.lastTotalCostUsd = total;
  const failed = event.is_error === true || event.subtype !== "success";
  const facts = [
    typeof event.num_turns === "number" ? plural(event.num_turns, "turn") : undefined,
    event.usage
      ? `${formatCount(inputTokens + outputTokens)} tokens (${formatCount(inputTokens)} in, ${formatCount(outputTokens)} out)`
      : undefined,
    total === undefined
      ? undefined
      : previous === undefined
        ? `$${total.toFixed(4)} session`
        : `$${Math.max(0, total - previous).toFixed(4)} (session $${total.toFixed(4)})`,
    typeof event.duration_ms === "number" ? `${(event.duration_ms / 1000).toFixed(1)} s` : undefined,
  ].filter((fact) => fact !== undefined);
  const reason = event.errors?.length ? event.errors.join("; ") : failed ? event.result : undefined;
  add(conversation, {
    kind: "result",
    failed,
    outcome: failed ? `${event.subtype === "success" ? "error" : event.subtype}${reason ? `: ${reason}` : ""}` : "done",
    facts,
    denials: (event.permission_denials ?? []).map(
      (denial) => `${denial.tool_name} ${keyArgument(denial.tool_name, denial.tool_input ?? {}, conversation.cwd)}`,
    ),
  });
}

function parseOr(json, fallback) {
  try {
    const value = JSON.parse(json);
    return value && typeof value === "object" ? value : fallback;
  } catch {
    return fallback;
  }
}
