import type { ToolResult } from "../conversation/tool-result.js";

/**
 * Well-known credential formats. Each pattern needs a vendor prefix or a structure no ordinary
 * text has, so that source code, hashes and UUIDs pass untouched: a false positive corrupts what
 * the model reads (and then edits), a false negative only misses a chance to help.
 * Generic `password=…` assignments are deliberately not matched: code and tests are full of them
 * (`password = input.password`), and redacting those would break the model's edits.
 * Order matters: more specific prefixes (sk-ant-) come before their generic relatives (sk-).
 */
const SECRET_PATTERNS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: "private_key", pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g },
  { kind: "anthropic_api_key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: "openai_api_key", pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g },
  // Legacy OpenAI keys: "sk-" and 32+ letters and digits with no separators.
  { kind: "openai_api_key", pattern: /\bsk-[A-Za-z0-9]{32,}\b/g },
  { kind: "github_token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
  { kind: "github_token", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g },
  { kind: "aws_access_key_id", pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { kind: "slack_token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: "google_api_key", pattern: /\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g },
  // JWTs: three base64url parts, the first two JSON objects (`eyJ` = base64 of `{"`).
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

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
  let redacted = text;
  const secrets = new Set<string>();
  const kinds = new Set<string>();
  for (const { kind, pattern } of SECRET_PATTERNS) {
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
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === "base64" ? item : redactValue(item, redactString)]),
    );
  }
  return value;
}
