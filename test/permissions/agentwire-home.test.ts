import { describe, expect, it } from "vitest";
import { assessRisk } from "../../src/permissions/risk-sentinel.js";
import { traitsOf } from "../helpers/tool-traits.js";

const roots = ["/work/project"];
/**
 * AGENTWIRE_HOME put where no name marks it, inside the workspace (outside it, any write already
 * asks): its settings, skills and cached code decide what agentwire runs.
 */
const HOME = "/work/project/aw";
const risk = (command: string, home?: string) => assessRisk({ input: { command }, traits: traitsOf("Bash") }, roots, home);

describe("a shell command that changes a custom agentwire home", () => {
  it.each([
    "echo '{}' > /work/project/aw/settings.json",
    "cp evil.json /work/project/aw/settings.json",
    "tee -a /work/project/aw/settings.json",
    "mv payload /work/project/aw/cache/code/x/cli.cjs.v8cache",
    "ln -s /tmp/x /work/project/aw/skills/evil",
    "cd sub/.. && echo x > aw/settings.json",
  ])("%s asks, naming the home", (command) => {
    expect(risk(command, HOME)).toMatch(/agentwire's home \(\/work\/project\/aw\)/);
  });

  it("with the home elsewhere, the folder is an ordinary one of the workspace", () => {
    expect(risk("echo '{}' > /work/project/aw/settings.json", "/home/u/.agentwire")).toBeUndefined();
    expect(risk("cp evil.json /work/project/aw/settings.json")).toBeUndefined();
  });
});
