import { describe, expect, it } from "vitest";
import { domainRuleMatches, urlHost } from "../../src/permissions/domain-rules.js";
import { decidePermission, type PermissionMode, type PermissionRules } from "../../src/permissions/policy.js";
import { parseRuleList } from "../../src/permissions/rule-syntax.js";
import { rulesNameHost } from "../../src/permissions/rules.js";
import { traitsOf } from "../helpers/tool-traits.js";

const rules = (allow: string[] = [], deny: string[] = [], ask: string[] = []): PermissionRules => ({
  allow: parseRuleList(allow),
  deny: parseRuleList(deny),
  ask: parseRuleList(ask),
});

function decide(url: string, mode: PermissionMode, given: PermissionRules) {
  return decidePermission({
    toolName: "WebFetch",
    input: { url, prompt: "x" },
    traits: traitsOf("WebFetch"),
    mode,
    rules: given,
    roots: ["/work"],
  });
}

describe("domain rules", () => {
  it("match the named host exactly, on any port, whatever the letter case", () => {
    expect(domainRuleMatches("domain:example.com", "example.com")).toBe(true);
    expect(domainRuleMatches("domain:Example.COM", "example.com")).toBe(true);
    expect(domainRuleMatches("domain:example.com", "api.example.com")).toBe(false);
    expect(domainRuleMatches("domain:example.com", "example.com.evil.test")).toBe(false);
    expect(domainRuleMatches("example.com", "example.com")).toBe(false);
    expect(domainRuleMatches("domain:[::1]", "::1")).toBe(true);
    expect(urlHost("https://EXAMPLE.com:8443/x")).toBe("example.com");
    expect(urlHost("http://[::1]:80/")).toBe("::1");
    expect(urlHost("not a url")).toBeUndefined();
  });

  it("a rule for the whole tool names no host (it cannot open private addresses)", () => {
    const tool = { toolName: "WebFetch", traits: traitsOf("WebFetch") };
    expect(rulesNameHost(parseRuleList(["WebFetch"]), tool, "127.0.0.1")).toBe(false);
    expect(rulesNameHost(parseRuleList(["WebFetch(domain:127.0.0.1)"]), tool, "127.0.0.1")).toBe(true);
    expect(rulesNameHost(parseRuleList(["Bash(domain:127.0.0.1)"]), tool, "127.0.0.1")).toBe(false);
  });
});

describe("WebFetch permissions", () => {
  it("default mode asks for a host no rule names and allows one a rule names", () => {
    expect(decide("https://example.com/a", "default", rules())).toMatchObject({ behavior: "ask", reasonType: "mode" });
    expect(decide("https://example.com/a", "default", rules(["WebFetch(domain:example.com)"])).behavior).toBe("allow");
    expect(decide("https://example.com/a", "default", rules(["WebFetch"])).behavior).toBe("allow");
    expect(decide("https://other.org/a", "default", rules(["WebFetch(domain:example.com)"])).behavior).toBe("ask");
  });

  it("deny and ask rules by domain win over allow rules", () => {
    expect(decide("https://example.com/a", "default", rules(["WebFetch"], ["WebFetch(domain:example.com)"])).behavior).toBe("deny");
    expect(decide("https://example.com/a", "default", rules(["WebFetch"], [], ["WebFetch(domain:example.com)"]))).toMatchObject({
      behavior: "ask",
      reasonType: "rule",
    });
  });

  it("plan mode treats a fetch as reading (a rule still decides the host); dontAsk refuses; auto and bypass allow", () => {
    expect(decide("https://example.com/a", "plan", rules(["WebFetch(domain:example.com)"])).behavior).toBe("allow");
    expect(decide("https://example.com/a", "plan", rules())).toMatchObject({ behavior: "ask" });
    expect(decide("https://example.com/a", "dontAsk", rules()).behavior).toBe("deny");
    expect(decide("https://example.com/a", "auto", rules()).behavior).toBe("allow");
    expect(decide("https://example.com/a", "bypassPermissions", rules()).behavior).toBe("allow");
  });
});
