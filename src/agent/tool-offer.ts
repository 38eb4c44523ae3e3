import type { Message, UserContentBlock } from "../conversation/messages.js";
import type { ToolResult } from "../conversation/tool-result.js";
import type { Provider, ProviderRequest, ToolSpec } from "../providers/types.js";
import type { ToolDefinition } from "../tools/define-tool.js";
import { toolError } from "../tools/define-tool.js";
import { deferredToolNames, TOOL_SEARCH } from "../tools/deferral.js";
import { toolInputJsonSchema } from "../tools/registry.js";

/** The tools one request carries, and the names of those it offers by name only (none: no deferral). */
export interface ToolOffer {
  tools: ToolSpec[];
  deferred: string[];
}

/**
 * What the next request offers: with ToolSearch among `tools`, the deferred tools (see
 * `deferredToolNames`) go by name only, except those a ToolSearch result in `history` loaded;
 * those come with their schemas, marked `deferLoading`. Loaded tools are read from the
 * conversation, so they stay loaded after a `--resume` without anything else stored. With
 * nothing to defer, ToolSearch itself is left out: it would have nothing to find. Pure.
 */
export function toolOffer(tools: readonly ToolDefinition[], history: readonly Message[]): ToolOffer {
  if (!tools.some((tool) => tool.name === TOOL_SEARCH)) return { tools: tools.map(toolSpec), deferred: [] };
  const deferred = deferredToolNames(tools);
  if (deferred.size === 0) return { tools: tools.filter((tool) => tool.name !== TOOL_SEARCH).map(toolSpec), deferred: [] };
  const loaded = loadedToolNames(history);
  return {
    tools: tools
      .filter((tool) => !deferred.has(tool.name) || loaded.has(tool.name))
      .map((tool) => (deferred.has(tool.name) ? { ...toolSpec(tool), deferLoading: true as const } : toolSpec(tool))),
    deferred: tools.filter((tool) => deferred.has(tool.name)).map((tool) => tool.name),
  };
}

function toolSpec(tool: ToolDefinition): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) };
}

/** The tools the conversation's ToolSearch results loaded. */
export function loadedToolNames(history: readonly Message[]): Set<string> {
  const loaded = new Set<string>();
  for (const message of history) {
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (block.type !== "tool_result" || typeof block.content === "string") continue;
      for (const part of block.content) if (part.type === "tool_reference") loaded.add(part.toolName);
    }
  }
  return loaded;
}

/**
 * The error for a call of a deferred tool the conversation has not loaded, or undefined: its
 * schema never reached the model, so its input is a guess. The message says how to load it.
 */
export function unloadedToolError(name: string, tools: readonly ToolDefinition[], history: readonly Message[]): ToolResult | undefined {
  if (!tools.some((tool) => tool.name === TOOL_SEARCH) || !deferredToolNames(tools).has(name)) return undefined;
  if (loadedToolNames(history).has(name)) return undefined;
  return toolError(
    "invalid_input",
    `<tool_use_error>${name} is a deferred tool and its schema is not loaded yet. Call ${TOOL_SEARCH} with {"query": "select:${name}"} first, then call ${name} with the parameters it describes.</tool_use_error>`,
  );
}

/** The system prompt's addition naming the deferred tools (Claude Code sends it as a system message). */
export function deferredToolsListing(names: readonly string[]): string {
  return `The tools below are deferred: only their names are known, and a call to one fails until it is loaded. Load them with ${TOOL_SEARCH}, using the query "select:<name>[,<name>...]" (or keywords when unsure which one fits):\n${names.join("\n")}`;
}

/**
 * `request` with the offer applied for `provider`: the deferred tools named at the end of the
 * system prompt, and either the API's own deferred loading (`deferredToolLoading`, tool
 * references kept) or, for a provider without it, the references as text and the loaded tools
 * as plain tools. Pure.
 */
export function withToolOffer(request: Omit<ProviderRequest, "tools">, offer: ToolOffer, provider: Provider): ProviderRequest {
  const native = offer.deferred.length > 0 && provider.capabilities?.toolReferences === true;
  const system = offer.deferred.length > 0 ? joinText(request.system, deferredToolsListing(offer.deferred)) : request.system;
  // The API refuses a reference to a tool the request lacks (one whose server has gone since).
  if (native) {
    const offered = new Set(offer.tools.map((tool) => tool.name));
    return { ...request, system, messages: referencesAsText(request.messages, offered), tools: offer.tools, deferredToolLoading: true };
  }
  return {
    ...request,
    system,
    messages: referencesAsText(request.messages, new Set()),
    tools: offer.tools.map(({ deferLoading: _loaded, ...tool }) => tool),
  };
}

function joinText(first: string, second: string): string {
  return first === "" ? second : `${first}\n\n${second}`;
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
