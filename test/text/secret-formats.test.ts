import { describe, expect, it } from "vitest";
import { containsKnownSecret, mayHoldSecret, SECRET_FORMATS } from "../../src/text/secret-formats.js";

// A sample of each format, and text that merely looks close. The samples are fakes of the right shape.
const SECRETS = [
  "sk-ant-api03-AbCdEf0123456789_-AbCdEf0123456789",
  "sk-proj-AbCdEf0123456789AbCdEf0123456789",
  "sk-AbCdEf0123456789AbCdEf0123456789AbCd",
  "ghp_0123456789abcdefghijABCDEFGHIJ012345",
  "gho_0123456789abcdefghijABCDEFGHIJ012345",
  "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv",
  "AKIAIOSFODNN7EXAMPLE",
  "ASIAIOSFODNN7EXAMPLE",
  "xoxb-1234567890-abcdefghij",
  "AIzaSyA-0123456789abcdefghijklmnopqrstu",
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.SflKxwRJSMeKKF2QT4fwpM",
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----",
];

describe("the quick scan for secret markers", () => {
  it("every format's marker is a fixed part of its pattern, so text without it cannot match", () => {
    for (const { kind, marker, pattern } of SECRET_FORMATS) {
      expect(pattern.source, kind).toContain(marker.source);
      // Not inside an alternative or an optional group: the pattern's top level holds it.
      const before = pattern.source.slice(0, pattern.source.indexOf(marker.source));
      expect(before, kind).toMatch(/^(?:\\b)?$/);
    }
  });

  it.each(SECRETS)("lets a secret through to the full scan: %s", (secret) => {
    const text = `token here: ${secret} (end)`;
    expect(mayHoldSecret(text)).toBe(true);
    expect(containsKnownSecret(text)).toBe(true);
  });

  it.each([
    "const password = input.password;\nexport function main() { return 0; }",
    "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f",
    "/usr/local/bin:/usr/bin:/bin",
    "en_US.UTF-8",
  ])("rules out ordinary text at once: %s", (text) => {
    expect(mayHoldSecret(text)).toBe(false);
    expect(containsKnownSecret(text)).toBe(false);
  });
});
