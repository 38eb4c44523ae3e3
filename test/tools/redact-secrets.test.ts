import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/tools/redact-secrets.js";

describe("redactSecrets", () => {
  it.each([
    ["sk-ant-api03-AbCdEf0123456789_-AbCdEf0123456789", "anthropic_api_key"],
    ["sk-proj-AbCdEf0123456789AbCdEf0123456789", "openai_api_key"],
    ["sk-AbCdEf0123456789AbCdEf0123456789AbCd", "openai_api_key"],
    ["ghp_0123456789abcdefghijABCDEFGHIJ012345", "github_token"],
    ["github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "github_token"],
    ["AKIAIOSFODNN7EXAMPLE", "aws_access_key_id"],
    ["xoxb-1234567890-abcdefghij", "slack_token"],
    ["AIzaSyA-0123456789abcdefghijklmnopqrstu", "google_api_key"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.SflKxwRJSMeKKF2QT4fwpM", "jwt"],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----", "private_key"],
  ])("redacts %s as %s", (secret, kind) => {
    const redaction = redactSecrets(`before ${secret} after`);
    expect(redaction).toEqual({ text: `before [REDACTED:${kind}] after`, secrets: [secret], count: 1, kinds: [kind] });
  });

  it.each([
    "const password = input.password;",
    "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f",
    "id 123e4567-e89b-12d3-a456-426614174000",
    "task-ant-colony and sk-short",
    "AKIA is a prefix but AKIAshort is not a key",
  ])("leaves ordinary text alone: %s", (text) => {
    expect(redactSecrets(text)).toEqual({ text, secrets: [], count: 0, kinds: [] });
  });

  it("counts a secret shown twice once", () => {
    expect(redactSecrets("AKIAIOSFODNN7EXAMPLE and AKIAIOSFODNN7EXAMPLE").count).toBe(1);
  });
});
