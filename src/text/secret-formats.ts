/**
 * Well-known credential formats. Each pattern needs a vendor prefix or a structure no ordinary
 * text has, so that source code, hashes and UUIDs pass untouched: a false positive corrupts what
 * the model reads (and then edits), a false negative only misses a chance to help.
 * Generic `password=…` assignments are deliberately not matched: code and tests are full of them
 * (`password = input.password`), and redacting those would break the model's edits.
 * Order matters: more specific prefixes (sk-ant-) come before their generic relatives (sk-).
 * Shared by the redaction of tool results and the filter of children's environments, so both
 * agree on what a secret looks like.
 */
export const SECRET_FORMATS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
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

/** Whether `text` holds a secret of a well-known format. Pure (`search` ignores the patterns' lastIndex). */
export function containsKnownSecret(text: string): boolean {
  return SECRET_FORMATS.some(({ pattern }) => text.search(pattern) !== -1);
}
