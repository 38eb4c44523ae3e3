import type { Content, GenerateContentConfig, Part } from "@google/genai";
import type { AssistantContentBlock, Message, ToolResultBlock, UserContentBlock } from "../conversation/messages.js";
import { thinkingStyle } from "./models.js";
import type { ProviderRequest } from "./types.js";

/**
 * Converts agentwire's neutral request into the pieces of a Gemini `generateContent` call:
 * `contents` (the history) and the parts of `config` that come from the request.
 *
 * Contract: pure; never throws. Thought signatures travel back on the same kind of part they
 * arrived on (thought text, plain text, or function call), unchanged.
 */
export function toGeminiRequest(request: ProviderRequest): { contents: Content[]; config: GenerateContentConfig } {
  return {
    contents: toGeminiContents(request.messages),
    config: {
      maxOutputTokens: request.maxOutputTokens,
      ...(request.system ? { systemInstruction: request.system } : {}),
      ...(request.tools.length > 0
        ? {
            tools: [
              {
                functionDeclarations: request.tools.map((tool) => ({
                  name: tool.name,
                  description: tool.description,
                  parametersJsonSchema: withoutSchemaTag(tool.inputSchema),
                })),
              },
            ],
          }
        : {}),
      ...(request.thinkingBudgetTokens ? { thinkingConfig: thinkingConfig(request.model, request.thinkingBudgetTokens) } : {}),
    },
  };
}

/** The largest budget every Gemini 2.5 model accepts (Flash's cap; Pro's is 32,768): more is HTTP 400. */
const maxThinkingBudget = 24_576;

/**
 * Gemini 2.5 takes a token budget; Gemini 3 models think adaptively (their `thinkingLevel`
 * defaults are tuned per model), so they only get the request to show thought summaries.
 */
function thinkingConfig(model: string, budgetTokens: number): GenerateContentConfig["thinkingConfig"] {
  if (thinkingStyle(model) === "adaptive") return { includeThoughts: true };
  return { includeThoughts: true, thinkingBudget: Math.min(budgetTokens, maxThinkingBudget) };
}

/** The Gemini JSON Schema subset has no `$schema` keyword; the rest of the tool schema fits it. */
function withoutSchemaTag(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _tag, ...rest } = schema;
  return rest;
}

/** Consecutive messages of one role are merged: Gemini expects user/model alternation. */
function toGeminiContents(messages: Message[]): Content[] {
  // A functionResponse must name its function; our tool results only carry the call id.
  const toolNames = new Map<string, string>();
  const contents: Content[] = [];
  for (const message of messages) {
    const parts =
      message.role === "assistant"
        ? message.content.flatMap((block) => modelParts(block, toolNames))
        : message.content.flatMap((block) => userParts(block, toolNames));
    if (parts.length === 0) continue;
    const role = message.role === "assistant" ? "model" : "user";
    const previous = contents.at(-1);
    if (previous?.role === role) previous.parts?.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}

function modelParts(block: AssistantContentBlock, toolNames: Map<string, string>): Part[] {
  switch (block.type) {
    case "text":
      if (block.text === "" && !block.signature) return [];
      return [{ text: block.text, ...signatureOf(block) }];
    case "thinking":
      // Thought summaries carry nothing the model needs; only a signed one must go back.
      return block.signature ? [{ text: block.thinking, thought: true, thoughtSignature: block.signature }] : [];
    case "tool_use":
      toolNames.set(block.id, block.name);
      return [{ functionCall: { id: block.id, name: block.name, args: block.input }, ...signatureOf(block) }];
  }
}

function userParts(block: UserContentBlock, toolNames: Map<string, string>): Part[] {
  switch (block.type) {
    case "text":
      return block.text === "" ? [] : [{ text: block.text }];
    case "image":
      return [{ inlineData: { mimeType: block.mediaType, data: block.data } }];
    case "tool_result":
      return functionResponseParts(block, toolNames.get(block.toolUseId));
  }
}

/**
 * The tool's text goes in `response.output` (or `response.error`), the shape Google's docs
 * use. Images follow as sibling inline parts, which every Gemini generation accepts (nesting
 * them in `functionResponse.parts` needs Gemini 3).
 */
function functionResponseParts(block: ToolResultBlock, name: string | undefined): Part[] {
  const texts =
    typeof block.content === "string" ? [block.content] : block.content.flatMap((part) => (part.type === "text" ? [part.text] : []));
  const images = typeof block.content === "string" ? [] : block.content.flatMap((part) => (part.type === "image" ? [part] : []));
  const text = texts.join("\n");
  return [
    {
      functionResponse: {
        id: block.toolUseId,
        // Every result follows its call in the history; the fallback only keeps a damaged
        // session file from producing a request without a name.
        name: name ?? "unknown_tool",
        response: block.isError ? { error: text } : { output: text },
      },
    },
    ...images.map((image) => ({ inlineData: { mimeType: image.mediaType, data: image.data } })),
  ];
}

function signatureOf(block: { signature?: string | undefined }): { thoughtSignature?: string } {
  return block.signature ? { thoughtSignature: block.signature } : {};
}
