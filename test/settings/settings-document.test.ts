import { describe, expect, it } from "vitest";
import { parseSettingsDocument } from "../../src/settings/settings-document.js";

const parse = (value: unknown) => {
  const parsed = parseSettingsDocument(typeof value === "string" ? value : JSON.stringify(value));
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
};

describe("a settings document", () => {
  it("takes the fields agentwire acts on and ignores Claude Code's others", () => {
    const { document, problems } = parse({
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      model: "sonnet",
      cleanupPeriodDays: 20,
      statusLine: { type: "command", command: "x" },
      permissions: {
        allow: ["Bash(npm test)"],
        deny: ["Read(./.env)"],
        ask: ["Bash(git push:*)"],
        defaultMode: "acceptEdits",
        additionalDirectories: ["../lib"],
        disableBypassPermissionsMode: "disable",
      },
      env: { FOO: "1", COUNT: 3, ON: true },
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh", timeout: 5 }] }],
        Stop: [{ hooks: [{ type: "command", command: "notify", async: true, once: true, statusMessage: "Notifying" }] }],
      },
    });
    expect(problems).toEqual([]);
    expect(document).toEqual({
      allow: ["Bash(npm test)"],
      deny: ["Read(./.env)"],
      ask: ["Bash(git push:*)"],
      defaultMode: "acceptEdits",
      additionalDirectories: ["../lib"],
      env: { FOO: "1", COUNT: "3", ON: "true" },
      model: "sonnet",
      hooks: [
        { event: "PreToolUse", matcher: "Bash", command: "guard.sh", timeoutSeconds: 5, background: false, once: false },
        { event: "Stop", matcher: undefined, command: "notify", timeoutSeconds: 60, background: true, once: true },
      ],
      disableAllHooks: false,
    });
  });

  it("leaves out each unusable field with a problem that names it, and keeps the rest", () => {
    const { document, problems } = parse({
      model: 7,
      permissions: { allow: "Bash", deny: ["Bash(rm:*)"], defaultMode: "yolo" },
      env: { GOOD: "yes", BAD: { nested: true } },
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "http", url: "http://x" },
              { type: "command", command: "" },
              { type: "command", command: "ok.sh", timeout: -1, if: "Bash(git *)" },
              { type: "command", command: "/bin/echo", args: ["hi"] },
              { type: "command", command: "Get-Date", shell: "powershell" },
            ],
          },
          { matcher: 3, hooks: [{ type: "command", command: "never" }] },
        ],
        PermissionRequest: [{ hooks: [{ type: "command", command: "x" }] }],
        Stop: "not a list",
      },
    });
    expect(document.model).toBeUndefined();
    expect(document.allow).toEqual([]);
    expect(document.deny).toEqual(["Bash(rm:*)"]);
    expect(document.defaultMode).toBeUndefined();
    expect(document.env).toEqual({ GOOD: "yes" });
    expect(document.hooks).toEqual([
      { event: "PreToolUse", matcher: "Bash", command: "ok.sh", timeoutSeconds: 60, background: false, once: false },
    ]);
    expect(problems).toEqual([
      "permissions.allow: Invalid input: expected array, received string; ignored",
      expect.stringMatching(/^permissions\.defaultMode: must be one of default, acceptEdits, .*; ignored$/),
      "env.BAD: must be a string; ignored",
      expect.stringMatching(/^model: /),
      'hooks.PreToolUse[0].hooks[0]: hooks of type "http" are not supported by agentwire (only "command"); ignored',
      "hooks.PreToolUse[0].hooks[1].command: must be a non-empty string; ignored",
      "hooks.PreToolUse[0].hooks[2].if: not supported by agentwire; the hook runs for every call its matcher matches",
      "hooks.PreToolUse[0].hooks[2].timeout: must be a positive number of seconds; 60 is used",
      "hooks.PreToolUse[0].hooks[3]: args (exec form) is not supported by agentwire; ignored",
      'hooks.PreToolUse[0].hooks[4]: shell "powershell" is not supported by agentwire; ignored',
      "hooks.PreToolUse[1].matcher: must be a string; the group is ignored",
      expect.stringMatching(/^hooks\.PermissionRequest: agentwire does not raise this event/),
      "hooks.Stop: must be a list of matchers; ignored",
    ]);
  });

  it("reads `manual` as default, null as absent, and refuses only text that is not a JSON object", () => {
    expect(
      parse({
        permissions: { defaultMode: "manual" },
        model: null,
        hooks: { Stop: [{ matcher: null, hooks: [{ type: "command", command: "x", timeout: null }] }] },
      }).document,
    ).toMatchObject({
      defaultMode: "default",
      model: undefined,
      hooks: [{ event: "Stop", matcher: undefined, command: "x", timeoutSeconds: 60, background: false, once: false }],
    });
    expect(parseSettingsDocument("{ not json")).toEqual({ error: expect.stringMatching(/^not valid JSON/) });
    expect(parseSettingsDocument("[1]")).toEqual({ error: "not a JSON object" });
    expect(parse({ disableAllHooks: true }).document.disableAllHooks).toBe(true);
  });
});
