import type { Message, UserContentBlock } from "../conversation/messages.js";
import { systemReminder } from "../conversation/reminders.js";
import type { ToolResult } from "../conversation/tool-result.js";
import type { Provider, ProviderRequest, ToolSpec } from "../providers/types.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { TOOL_SEARCH } from "../tools/builtin-tool-traits.js";
import { deferredToolNames } from "../tools/deferral.js";
import { toolInputJsonSchema } from "../tools/tool-json-schema.js";

/** The tools one request carries, and the names of those it offers by name only (none: no deferral). */
export interface ToolOffer {
  tools: ToolSpec[];
  deferred: string[];
}

/**
 * What the next request offers: with ToolSearch among `tools`, the deferred tools (see
 * `deferredToolNames`) go by name only, except those the conversation loaded (`loadedTools`);
 * those come with their schemas, marked `deferLoading` when a tool reference loaded them (on
 * Anthropic's API the reference is what shows the schema of a `defer_loading` tool; one loaded
 * by a direct call has none, so it goes as a plain tool). Loaded tools are read from the
 * conversation, so they stay loaded after a `--resume` without anything else stored. With
 * nothing to defer, ToolSearch itself is left out: it would have nothing to find. Pure.
 */
export function toolOffer(tools: readonly ToolDefinition[], history: readonly Message[]): ToolOffer {
  if (!tools.some((tool) => tool.name === TOOL_SEARCH)) return { tools: tools.map(toolSpec), deferred: [] };
  const deferred = deferredToolNames(tools);
  if (deferred.size === 0) return { tools: tools.filter((tool) => tool.name !== TOOL_SEARCH).map(toolSpec), deferred: [] };
  const loaded = loadedTools(history);
  return {
    tools: tools
      .filter((tool) => !deferred.has(tool.name) || loaded.referenced.has(tool.name) || loaded.called.has(tool.name))
      .map((tool) =>
        deferred.has(tool.name) && loaded.referenced.has(tool.name) ? { ...toolSpec(tool), deferLoading: true as const } : toolSpec(tool),
      ),
    deferred: tools.filter((tool) => deferred.has(tool.name)).map((tool) => tool.name),
  };
}

function toolSpec(tool: ToolDefinition): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) };
}

/** How the conversation loaded tools: by a tool reference, or by a call that ran. */
export interface LoadedTools {
  /** Named by a `tool_reference` in a tool result (a ToolSearch answer). */
  referenced: Set<string>;
  /** Called with a result that is not an error: the model knew the schema without loading it. */
  called: Set<string>;
}

/** The tools `history` loaded, either way (see `LoadedTools`). Pure. */
export function loadedTools(history: readonly Message[]): LoadedTools {
  const referenced = new Set<string>();
  const succeeded = new Set<string>();
  for (const message of history) {
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      if (!block.isError) succeeded.add(block.toolUseId);
      if (typeof block.content === "string") continue;
      for (const part of block.content) if (part.type === "tool_reference") referenced.add(part.toolName);
    }
  }
  const called = new Set<string>();
  for (const message of history) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "tool_use" && succeeded.has(block.id)) called.add(block.name);
  }
  return { referenced, called };
}

/**
 * `rejected` (the malformed-call check's answer for a call of `name`) with a hint added when
 * the call's input failed its schema and the tool is deferred and not loaded: the model guessed
 * the schema, and loading it with `select:` shows the real one. A deferred tool called with
 * valid input is not refused: a model that knows its schema saves the loading request.
 */
export function withLoadHint(
  rejected: ToolResult | undefined,
  name: string,
  tools: readonly ToolDefinition[],
  history: readonly Message[],
): ToolResult | undefined {
  if (rejected?.code !== "invalid_input" || typeof rejected.content !== "string") return rejected;
  if (!tools.some((tool) => tool.name === TOOL_SEARCH) || !deferredToolNames(tools).has(name)) return rejected;
  const loaded = loadedTools(history);
  if (loaded.referenced.has(name) || loaded.called.has(name)) return rejected;
  const hint = `${name} is a deferred tool whose schema has not been loaded: call ${TOOL_SEARCH} with {"query": "select:${name}"} to see its parameters, then call ${name} again.`;
  const closing = "</tool_use_error>";
  const content = rejected.content.endsWith(closing)
    ? `${rejected.content.slice(0, -closing.length)}\n${hint}${closing}`
    : `${rejected.content}\n${hint}`;
  return { ...rejected, content };
}

/** The text naming the deferred tools to the model. */
export function deferredToolsListing(names: readonly string[]): string {
  return `The tools below are deferred: you are given their names, not their parameters. Load the ones you need with ${TOOL_SEARCH}, using the query "select:<name>[,<name>...]" (or keywords when unsure which one fits), and their schemas come with the next request. A call made without loading runs only when its input matches the tool's schema:\n${names.join("\n")}`;
}

/**
 * `request` with the offer applied for `provider`: the deferred tools named in a reminder at the
 * end of the first user message, and either the API's own deferred loading
 * (`deferredToolLoading`, tool references kept) or, for a provider without it, the references as
 * text and the loaded tools as plain tools. The system prompt is left as it is: one the user set
 * replaces agentwire's whole prompt. Pure.
 */
export function withToolOffer(request: Omit<ProviderRequest, "tools">, offer: ToolOffer, provider: Provider): ProviderRequest {
  const native = offer.deferred.length > 0 && provider.capabilities?.toolReferences === true;
  const messages = offer.deferred.length > 0 ? withListing(request.messages, deferredToolsListing(offer.deferred)) : request.messages;
  // The API refuses a reference to a tool the request lacks (one whose server has gone since).
  if (native) {
    const offered = new Set(offer.tools.map((tool) => tool.name));
    return { ...request, messages: referencesAsText(messages, offered), tools: offer.tools, deferredToolLoading: true };
  }
  return {
    ...request,
    messages: referencesAsText(messages, new Set()),
    tools: offer.tools.map(({ deferLoading: _loaded, ...tool }) => tool),
  };
}

/**
 * The messages with `listing` added as a reminder after the first user message's content, where
 * Claude Code sends its list of deferred tools. The same place in every request keeps the
 * conversation's start unchanged from one request to the next, so prompt caches still hold. Only
 * the request gets it: the stored conversation and stdout never do.
 */
function withListing(messages: Message[], listing: string): Message[] {
  const first = messages.findIndex((message) => message.role === "user");
  if (first === -1) return messages;
  return messages.map((message, index) =>
    index === first && message.role === "user"
      ? { ...message, content: [...message.content, { type: "text", text: systemReminder(listing) }] }
      : message,
  );
}

/**
 * The messages with each tool reference not to a tool in `kept` turned into a line of text (the
 * same array when there is none).
 */
export function referencesAsText(messages: Message[], kept: ReadonlySet<string>): Message[] {
  const converts = (message: Message): boolean =>
    message.role === "user" &&
    message.content.some(
      (block) =>
        block.type === "tool_result" &&
        typeof block.content !== "string" &&
        block.content.some((part) => part.type === "tool_reference" && !kept.has(part.toolName)),
    );
  if (!messages.some(converts)) return messages;
  return messages.map((message) =>
    message.role === "user" && converts(message)
      ? { ...message, content: message.content.map((block) => withoutReferences(block, kept)) }
      : message,
  );
}

function withoutReferences(block: UserContentBlock, kept: ReadonlySet<string>): UserContentBlock {
  if (block.type !== "tool_result" || typeof block.content === "string") return block;
  return {
    ...block,
    content: block.content.map((part) =>
      part.type === "tool_reference" && !kept.has(part.toolName)
        ? { type: "text", text: `Loaded ${part.toolName}: its schema is now among your tools.` }
        : part,
    ),
  };
}
