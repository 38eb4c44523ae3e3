import { describe, expect, it } from "vitest";
import { commandsOf, normalizedWords } from "../../src/permissions/shell/shell-commands.js";
import { mayInjectArguments, parseShell, substitutedCommands } from "../../src/permissions/shell/shell-syntax.js";

function words(source: string): string[][] {
  return parseShell(source).commands.map((command) => command.words.map((word) => word.text));
}

function hazards(source: string): string[] {
  return [...parseShell(source).hazards].sort();
}

describe("parseShell", () => {
  it.each([
    ["ls -la", [["ls", "-la"]]],
    ["a; b && c || d | e & f\ng", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]],
    [
      'echo \\"; touch p; echo \\"',
      [
        ["echo", '"'],
        ["touch", "p"],
        ["echo", '"'],
      ],
    ],
    ["echo 'a;b' \"c|d\" e\\ f", [["echo", "a;b", "c|d", "e f"]]],
    ["ls #'\ntouch p", [["ls"], ["touch", "p"]]],
    ["echo a#b", [["echo", "a#b"]]],
    ["\\rm x", [["rm", "x"]]],
    ["$'\\x72m' -rf x", [["rm", "-rf", "x"]]],
    ["cat <<'EOF' | sh\nrm -rf /\nEOF\nls", [["cat"], ["sh"], ["ls"]]],
  ])("%j → words %j", (source, expected) => expect(words(source)).toEqual(expected));

  it.each([
    ["ls", []],
    ["ls & x", ["background"]],
    ["echo $(x)", ["substitution"]],
    ['echo "`x`"', ["substitution"]],
    ["diff <(a) b", ["substitution"]],
    ["echo ${x@P}", ["expansion"]],
    ["echo $((1+2))", ["expansion", "substitution"]],
    ["echo ${HOME} $HOME $# $?", []],
    ["ls \\\n-la", ["continuation"]],
    ["echo 'open", ["syntax"]],
    ["ls >", ["syntax"]],
    ["(ls)", ["subshell"]],
  ])("%j → hazards %j", (source, expected) => expect(hazards(source)).toEqual(expected));

  it("reads redirections as tokens, with their file descriptors", () => {
    const [command] = parseShell("2>&1 ls >>out 2>/dev/null <in &>all").commands;
    expect(command!.words.map((word) => word.text)).toEqual(["ls"]);
    expect(command!.redirections.map(({ fd, operator, target }) => [fd, operator, target.text])).toEqual([
      ["2", ">&", "1"],
      [undefined, ">>", "out"],
      ["2", ">", "/dev/null"],
      [undefined, "<", "in"],
      [undefined, "&>", "all"],
    ]);
  });

  it("finds the commands inside substitutions, even through quotes, here-documents and ${…} operands", () => {
    const [commit] = parseShell("git commit -m \"$(cat <<'EOF'\nfix: don't (break) it\nEOF\n)\"").commands;
    expect(substitutedCommands(commit!)).toEqual(["cat <<'EOF'\nfix: don't (break) it\nEOF\n"]);
    const [echo] = parseShell('echo "${x:-$(rm y)}"').commands;
    expect(substitutedCommands(echo!)).toEqual(["rm y"]);
  });

  it("marks words the shell may turn into options or several words", () => {
    const inject = (source: string) => parseShell(source).commands[0]!.words.slice(1).map(mayInjectArguments);
    expect(inject('x * a* "$Y" $Y a$Y a"$Y" {-o,f} \'*\'')).toEqual([true, false, true, true, true, false, true, false]);
  });
});

describe("commandsOf", () => {
  const forms = (source: string) =>
    commandsOf(source)
      .filter((found) => !found.possible)
      .flatMap((found) => found.views.map(normalizedWords).map((view) => view.join(" ")));
  it.each([
    ["env -i FOO=1 rm -rf x", ["env -i FOO=1 rm -rf x", "rm -rf x"]],
    ["command rm x", ["command rm x", "rm x"]],
    ["/bin/rm x", ["rm x"]],
    ["sudo -u root nice -n 5 rm x", ["sudo -u root nice -n 5 rm x", "nice -n 5 rm x", "rm x"]],
    ["timeout -s KILL 5 rm x", ["timeout -s KILL 5 rm x", "rm x"]],
    ["find . | xargs -0 -I{} rm {}", ["find .", "xargs -0 -I{} rm {}", "rm {}"]],
    ["if true; then rm x; fi", ["if true", "true", "then rm x", "rm x", "fi"]],
    ["bash -lc 'rm -rf x'", ["bash -lc rm -rf x", "rm -rf x"]],
    ["bash -o pipefail -c 'rm x'", ["bash -o pipefail -c rm x", "rm x"]],
    ['eval "rm x"', ["eval rm x", "rm x"]],
    ["echo $(rm x)", ["echo $(rm x)", "rm x"]],
    ["find . -exec rm {} \\;", ["find . -exec rm {} ;", "rm {}"]],
    ["bash <<EOF\nrm x\nEOF", ["bash", "rm x"]],
    // Runners read with their option grammars (issue 23), and text a shell reads on stdin.
    ["ionice -c 3 rm x", ["ionice -c 3 rm x", "rm x"]],
    ["flock -w 5 lock rm x", ["flock -w 5 lock rm x", "rm x"]],
    ["flock lock -c 'rm x'", ["flock lock -c rm x", "rm x"]],
    ["su nobody -c 'rm x'", ["su nobody -c rm x", "rm x"]],
    ["coproc rm x", ["coproc rm x", "rm x"]],
    ["gdb --args rm x", ["gdb --args rm x", "rm x"]],
    ["echo rm x | sh", ["echo rm x", "sh", "rm x"]],
    ["bash <<< 'rm x'", ["bash", "rm x"]],
  ])("%j runs %j", (source, expected) => expect(forms(source)).toEqual(expected));
});

describe("commandsOf: guesses", () => {
  const guessed = (source: string) =>
    commandsOf(source)
      .filter((found) => found.possible)
      .map((found) => normalizedWords(found.views.at(-1)!).join(" "));
  it("later words of a program that may run them are guessed to be commands; data-only programs give none", () => {
    expect(guessed("mytool -v run rm x")).toEqual(["run rm x", "rm x", "x"]);
    expect(guessed("echo rm x")).toEqual([]);
    expect(guessed("git commit -m 'rm x'")).toEqual([]);
  });
  it("code is read as code: literals and shell escapes become guessed command lines; the form says it runs code", () => {
    const found = commandsOf(`python3 -c "import os; os.system('rm x')"`);
    expect(found[0]!.runsCode).toBe(true);
    expect(guessed(`python3 -c "import os; os.system('rm x')"`)).toContain("rm x");
    expect(commandsOf("cat script.sh | sh").some((forms) => forms.runsCode)).toBe(true);
    // A script file is code too, unseen unless the line wrote it.
    expect(commandsOf("python3 script.py").some((forms) => forms.runsCode)).toBe(true);
    expect(commandsOf("ls -la && git status").some((forms) => forms.runsCode)).toBe(false);
    expect(commandsOf("echo 'rm x' > s.sh; bash s.sh").map((forms) => normalizedWords(forms.views.at(-1)!).join(" "))).toContain("rm x");
  });
});

describe("nesting too deep to follow", () => {
  const deepSubstitution = `echo ${"$(".repeat(40)}rm -rf x${")".repeat(40)}`;
  const deepEval = `${"eval ".repeat(10)}rm -rf x`;

  it("is reported instead of overflowing the stack", () => {
    expect(parseShell(deepSubstitution).hazards.has("depth")).toBe(true);
    expect(commandsOf(deepEval).some((found) => found.unfollowed)).toBe(true);
    expect(() => parseShell("$(".repeat(100_000))).not.toThrow();
  });
});
