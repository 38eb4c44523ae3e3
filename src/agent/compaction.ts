import type { Message, ToolResultBlock, UserContentBlock } from "../conversation/messages.js";
import { userWords } from "../conversation/reminders.js";
import { ResponseAccumulator } from "../providers/response-accumulator.js";
import type { Provider, ToolSpec, Usage } from "../providers/types.js";

/**
 * Keeping a conversation inside the model's context window, in two phases. First the outputs of
 * old tool calls are replaced by a stub that says what they were (the session file keeps them);
 * when that is not enough, the same model writes a structured summary and the conversation
 * continues from it, the most recent user messages and any extra context (loaded skills). A tool
 * call is never separated from its result: phase one keeps every block and changes only result
 * text; phase two keeps the last call/result exchange whole or not at all.
 */

/** Characters per token, as every estimate in agentwire counts before the server does. */
const CHARS_PER_TOKEN = 4;
/** Tool results in this many of the last messages are kept whole by phase one. */
const RECENT_MESSAGES_KEPT = 4;
/** A tool output shorter than this is not worth stubbing. */
const STUB_MIN_CHARS = 400;
/** Room in the summary request for the conversation, as a share of the model's window. */
const TRANSCRIPT_SHARE = 0.6;
/** Room after compaction for the user's recent messages, verbatim. */
const RECENT_USER_TOKENS = 4_000;
const SUMMARY_MAX_OUTPUT_TOKENS = 4_096;

const sizes = new WeakMap<Message, number>();

/**
 * Characters of one tool definition as a request carries it. Every turn estimates the request
 * again with freshly listed specs, but each tool's schema object is converted once and kept
 * (tools/registry.ts): the size is remembered per schema, for as long as name and description
 * stay the same.
 */
const specSizes = new WeakMap<object, { name: string; description: string; size: number }>();

function specSize(spec: ToolSpec): number {
  const known = specSizes.get(spec.inputSchema);
  if (known && known.name === spec.name && known.description === spec.description) return known.size;
  const size = JSON.stringify(spec).length;
  specSizes.set(spec.inputSchema, { name: spec.name, description: spec.description, size });
  return size;
}

/** Estimated tokens of a request: system prompt, tool definitions and messages (sizes cached). */
export function estimateTokens(system: string, tools: readonly ToolSpec[], messages: readonly Message[]): number {
  // The length JSON.stringify(tools) would have: brackets, commas, and each spec.
  let chars = system.length + 2 + Math.max(0, tools.length - 1);
  for (const spec of tools) chars += specSize(spec);
  for (const message of messages) {
    let size = sizes.get(message);
    if (size === undefined) {
      size = JSON.stringify(message.content).length;
      sizes.set(message, size);
    }
    chars += size;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Phase one: old tool outputs become stubs. Returns the new messages, or undefined when nothing could be stubbed. */
export function stubOldToolOutputs(messages: readonly Message[]): Message[] | undefined {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role === "assistant") for (const block of message.content) if (block.type === "tool_use") names.set(block.id, block.name);
  }
  let changed = false;
  const result = messages.map((message, index) => {
    if (message.role !== "user" || index >= messages.length - RECENT_MESSAGES_KEPT) return message;
    let touched = false;
    const content = message.content.map((block): UserContentBlock => {
      // A ToolSearch result is small, and stubbing it would unload the tools it loaded.
      if (block.type !== "tool_result" || loadsTools(block)) return block;
      const text = typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      if (text.length < STUB_MIN_CHARS || text.startsWith("[Output of ")) return block;
      touched = true;
      const tool = names.get(block.toolUseId) ?? "the tool";
      return {
        ...block,
        content: `[Output of ${tool} removed to keep the conversation within the context window: ${text.length} characters. The session file still has it; run the call again if you need it.]`,
      };
    });
    if (!touched) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? result : undefined;
}

function loadsTools(block: ToolResultBlock): boolean {
  return typeof block.content !== "string" && block.content.some((part) => part.type === "tool_reference");
}

export interface SummaryRequest {
  provider: Provider;
  model: string;
  sessionId: string;
  contextWindow: number;
  /** `/compact <instructions>`: what the summary should focus on. */
  instructions: string | undefined;
  signal: AbortSignal;
  onUsage: (usage: Usage, model: string) => void;
}

const SUMMARY_SYSTEM = `You summarize a conversation between a user and a coding agent so that the agent can continue the work from your summary alone; the conversation itself will be gone. Write these sections, specific and complete (paths, names, commands, numbers, error messages):
1. User requests: every request the user made, verbatim, in order.
2. Decisions and constraints: what was decided and why; preferences and rules the user gave.
3. Files: each file read, created or changed, and what changed.
4. Errors and fixes: what went wrong and how it was solved, or that it is still open.
5. Current work: what was being done when the conversation was cut.
6. Next step: the very next action, in a sentence.`;

/** Phase two: the model's summary of the conversation, or an error message. */
export async function summarizeConversation(
  messages: readonly Message[],
  request: SummaryRequest,
): Promise<{ summary: string } | { error: string }> {
  const transcript = fitTranscript(renderTranscript(messages), Math.floor(request.contextWindow * TRANSCRIPT_SHARE * CHARS_PER_TOKEN));
  const focus = request.instructions ? `\n\nFocus the summary on: ${request.instructions}` : "";
  const accumulator = new ResponseAccumulator();
  let failure: string | undefined;
  try {
    for await (const event of request.provider.stream(
      {
        model: request.model,
        system: SUMMARY_SYSTEM,
        messages: [
          { role: "user", content: [{ type: "text", text: `The conversation:\n\n${transcript}${focus}\n\nWrite the summary now.` }] },
        ],
        tools: [],
        maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
        sessionId: request.sessionId,
      },
      request.signal,
    )) {
      if (event.type === "error") {
        failure = event.message;
        break;
      }
      accumulator.apply(event);
    }
  } finally {
    if (accumulator.messageId) request.onUsage(accumulator.usage, accumulator.model || request.model);
  }
  if (failure) return { error: `the summary request failed: ${failure}` };
  const summary = accumulator
    .blocks()
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("")
    .trim();
  return summary === "" ? { error: "the model returned an empty summary" } : { summary };
}

/**
 * The conversation after a summary: one user message with the summary, the user's most recent
 * messages verbatim and the extra context; then the last call/result exchange when it is the
 * work in progress and fits.
 */
export function conversationFromSummary(
  messages: readonly Message[],
  summary: string,
  extraContext: readonly string[],
  roomTokens: number,
): Message[] {
  const recent: string[] = [];
  let room = RECENT_USER_TOKENS * CHARS_PER_TOKEN;
  for (let index = messages.length - 1; index >= 0 && room > 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user") continue;
    // The user's words only: a skills listing put before them is not something they said.
    const text = userWords(message.content).trim();
    if (text === "" || text.startsWith("<system-reminder>")) continue;
    if (text.length > room) break;
    recent.unshift(text);
    room -= text.length;
  }
  const parts = [
    "<system-reminder>This conversation was compacted to fit the model's context window: what came before is summarized here. Continue the work from it.</system-reminder>",
    `# Summary\n\n${summary}`,
    ...(recent.length > 0 ? [`# The user's most recent messages, verbatim\n\n${recent.map((text) => `- ${text}`).join("\n")}`] : []),
    ...extraContext,
  ];
  const head: Message = { role: "user", content: [{ type: "text", text: parts.join("\n\n") }] };
  const tail = workInProgress(messages);
  if (tail && estimateTokens("", [], [head, ...tail]) <= roomTokens) return [head, ...tail];
  return [head];
}

/** The last assistant message with tool calls and the user message with their results, when the conversation ends with them. */
function workInProgress(messages: readonly Message[]): Message[] | undefined {
  const [assistant, results] = messages.slice(-2);
  if (assistant?.role !== "assistant" || results?.role !== "user") return undefined;
  const calls = assistant.content.filter((block) => block.type === "tool_use").length;
  const answered = results.content.filter((block) => block.type === "tool_result").length;
  return calls > 0 && calls === answered ? [assistant, results] : undefined;
}

/** The conversation as plain text for the summarizer: long tool outputs and inputs are cut. */
function renderTranscript(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text") lines.push(`${message.role === "user" ? "User" : "Assistant"}: ${block.text}`);
      else if (block.type === "tool_use") lines.push(`Assistant called ${block.name}(${clip(JSON.stringify(block.input), 600)})`);
      else if (block.type === "tool_result")
        lines.push(
          `Result${block.isError ? " (error)" : ""}: ${clip(typeof block.content === "string" ? block.content : JSON.stringify(block.content), 1_500)}`,
        );
      else if (block.type === "image") lines.push(`${message.role === "user" ? "User" : "Assistant"}: [an image]`);
    }
  }
  return lines.join("\n\n");
}

/** Keeps the start and, above all, the end of a transcript that is too long for the summary request. */
function fitTranscript(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.2);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n\n[… ${text.length - maxChars} characters of the middle of the conversation left out …]\n\n${text.slice(-tail)}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}
