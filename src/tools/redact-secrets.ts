import type { ToolResult } from "../conversation/tool-result.js";
import { mayHoldSecret, SECRET_FORMATS } from "../text/secret-formats.js";

/** The text that replaces a secret. Write and Edit refuse new text that contains it. */
export const REDACTION_MARKER_PREFIX = "[REDACTED:";

export interface Redaction {
  /** Number of distinct secrets replaced (a key shown twice counts once). */
  count: number;
  /** Their kinds, once each. */
  kinds: string[];
}

/** Replaces every well-known secret in `text` with `[REDACTED:<kind>]`. Pure. */
export function redactSecrets(text: string): { text: string; secrets: string[] } & Redaction {
  if (!mayHoldSecret(text)) return { text, secrets: [], count: 0, kinds: [] };
  let redacted = text;
  const secrets = new Set<string>();
  const kinds = new Set<string>();
  for (const { kind, pattern } of SECRET_FORMATS) {
    redacted = redacted.replace(pattern, (secret) => {
      secrets.add(secret);
      kinds.add(kind);
      return `${REDACTION_MARKER_PREFIX}${kind}]`;
    });
  }
  return { text: redacted, secrets: [...secrets], count: secrets.size, kinds: [...kinds] };
}

/**
 * Redacts a tool result everywhere it can reach a reader: the model's content (strings and text
 * blocks) and the consumer details (every string, at any depth). Images pass through.
 *
 * Contract: pure, never throws; returns the same object when nothing was found.
 */
export function redactToolResult(result: ToolResult): { result: ToolResult } & Redaction {
  const secrets = new Set<string>();
  const kinds = new Set<string>();
  const redactString = (text: string): string => {
    const redaction = redactSecrets(text);
    for (const secret of redaction.secrets) secrets.add(secret);
    for (const kind of redaction.kinds) kinds.add(kind);
    return redaction.text;
  };
  const content =
    typeof result.content === "string"
      ? redactString(result.content)
      : result.content.map((block) => (block.type === "text" ? { ...block, text: redactString(block.text) } : block));
  const details = redactValue(result.details, redactString);
  if (secrets.size === 0) return { result, count: 0, kinds: [] };
  return { result: { ...result, content, details }, count: secrets.size, kinds: [...kinds] };
}

function redactValue(value: unknown, redactString: (text: string) => string): unknown {
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactString));
  if (typeof value === "object" && value !== null) {
    // Image bytes (Read's `file.base64`) are not text; a base64 run can look like a key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === "base64" ? item : redactValue(item, redactString)]));
  }
  return value;
}
