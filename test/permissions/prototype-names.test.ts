import { describe, expect, it } from "vitest";
import { isReadOnlyCommand } from "../../src/permissions/shell/bash-classifier.js";
import { assessRisk } from "../../src/permissions/risk-sentinel.js";
import { ruleCoversTool } from "../../src/permissions/rule-syntax.js";
import { traitsOf } from "../helpers/tool-traits.js";

const roots = ["/work/project"];
const risk = (command: string) => assessRisk({ input: { command }, traits: traitsOf("Bash") }, roots);

/**
 * A repository can ship a program with any name (`./toString`). The analysis looks programs up in
 * tables of what each one does; a name that is also a member of every object must read as an
 * unknown program, never as a table entry or a crash.
 */
const PROTOTYPE_NAMES = ["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty", "isPrototypeOf"];

describe("programs named like an object's own members", () => {
  it.each(PROTOTYPE_NAMES)("%s is judged as an unknown program would be", (name) => {
    for (const [template, expected] of [
      [`${name} -o ~/.bashrc`, risk("someprogram -o ~/.bashrc")],
      [`${name} > ~/.bashrc`, risk("someprogram > ~/.bashrc")],
      [`git ${name} -o ~/.bashrc`, risk("git someverb -o ~/.bashrc")],
      [`python3 -c 'print(1)'; ${name} x`, risk("python3 -c 'print(1)'; someprogram x")],
    ] as const) {
      expect(() => risk(template), template).not.toThrow();
      expect(risk(template)?.replaceAll(name, "someprogram").replaceAll("someverb", "someprogram") ?? undefined, template).toEqual(
        expected?.replaceAll("someverb", "someprogram"),
      );
    }
    expect(isReadOnlyCommand(name)).toBe(false);
    expect(isReadOnlyCommand(`git ${name}`)).toBe(false);
  });

  it("a rule named like one covers no tool by family", () => {
    for (const name of PROTOTYPE_NAMES) expect(ruleCoversTool(name, { name: "Read", traits: traitsOf("Read") })).toBe(false);
  });
});
