import { describe, expect, it } from "vitest";
import { LineEditor, type EditorAction, type Key } from "../../src/chat/line-editor.js";
import { completeCommand, matchingCommands } from "../../src/chat/slash-commands.js";
import { Screen } from "../../src/chat/screen.js";

/** Feeds characters (and named keys in braces, e.g. {up}, {ctrl-a}) to the editor; returns the last action. */
function type(editor: LineEditor, input: string): EditorAction {
  let last: EditorAction = { type: "none" };
  for (const token of input.match(/\{[a-z-]+\}|[\s\S]/g) ?? []) {
    if (token.startsWith("{") && token.length > 1) {
      const name = token.slice(1, -1);
      const key: Key = name.startsWith("ctrl-")
        ? { name: name.slice(5), ctrl: true }
        : name.startsWith("meta-")
          ? { name: name.slice(5), meta: true }
          : { name };
      last = editor.handle(undefined, key);
    } else last = editor.handle(token, { name: token.toLowerCase(), sequence: token });
  }
  return last;
}

describe("the chat's line editor", () => {
  it("edits: insert, move, delete, Emacs keys, word deletion", () => {
    const editor = new LineEditor();
    type(editor, "hello world{left}{left}{left}{left}{left}big {end}!");
    expect(editor.text).toBe("hello big world!");
    type(editor, "{ctrl-a}{delete}H{ctrl-e}{backspace}");
    expect(editor.text).toBe("Hello big world");
    type(editor, "{ctrl-w}");
    expect(editor.text).toBe("Hello big ");
    type(editor, "{ctrl-a}{right}{ctrl-k}");
    expect(editor.text).toBe("H");
    expect(type(editor, "{return}")).toEqual({ type: "submit", text: "H", shown: "H" });
    expect(editor.text).toBe("");
  });

  it("makes new lines with a trailing backslash, Alt+Enter and Ctrl+J, and moves between them with Up/Down", () => {
    const editor = new LineEditor(["older entry"]);
    type(editor, "one\\{return}two{meta-return}three{ctrl-j}four");
    expect(editor.text).toBe("one\ntwo\nthree\nfour");
    type(editor, "{up}{up}X");
    expect(editor.text).toBe("one\ntwoX\nthree\nfour");
    expect(type(editor, "{return}")).toMatchObject({ type: "submit", text: "one\ntwoX\nthree\nfour" });
  });

  it("walks the history with Up/Down and keeps the draft", () => {
    const editor = new LineEditor(["first", "second"]);
    type(editor, "draft{up}");
    expect(editor.text).toBe("second");
    type(editor, "{up}{up}");
    expect(editor.text).toBe("first");
    type(editor, "{down}{down}");
    expect(editor.text).toBe("draft");
    editor.remember("third");
    type(editor, "{ctrl-u}{up}");
    expect(editor.text).toBe("third");
  });

  it("turns a large bracketed paste into a placeholder and sends it whole; a small one is inserted; a paste never submits", () => {
    const editor = new LineEditor();
    const big = Array.from({ length: 200 }, (_, index) => `line ${index}`).join("\r");
    type(editor, "see: ");
    editor.handle(undefined, { name: "paste-start" });
    for (const character of big) editor.handle(character, character === "\r" ? { name: "return" } : { name: character });
    editor.handle(undefined, { name: "paste-end" });
    expect(editor.text).toBe("see: [Pasted text #1 +200 lines]");
    editor.handle(undefined, { name: "paste-start" });
    for (const character of "a\rb") editor.handle(character, character === "\r" ? { name: "return" } : { name: character });
    editor.handle(undefined, { name: "paste-end" });
    expect(editor.text).toBe("see: [Pasted text #1 +200 lines]a\nb");
    const sent = type(editor, "{return}");
    expect(sent).toEqual({ type: "submit", text: `see: ${big.replace(/\r/g, "\n")}a\nb`, shown: "see: [Pasted text #1 +200 lines]a\nb" });
  });

  it("reports Esc, Ctrl+C and Ctrl+D (only on an empty line)", () => {
    const editor = new LineEditor();
    expect(type(editor, "{escape}")).toEqual({ type: "interrupt" });
    expect(type(editor, "{ctrl-c}")).toEqual({ type: "cancel" });
    expect(type(editor, "{ctrl-d}")).toEqual({ type: "eof" });
    expect(type(editor, "ab{left}{ctrl-d}")).toEqual({ type: "none" });
    expect(editor.text).toBe("a");
  });

  it("completes slash commands with Tab, including the session's skills", () => {
    expect(matchingCommands("/co")).toEqual(["/compact", "/cost"]);
    expect(matchingCommands("hello")).toEqual([]);
    expect(completeCommand("/co")).toBeUndefined();
    expect(completeCommand("/cos")).toBe("/cost ");
    expect(completeCommand("/p")).toBe("/permissions ");
    expect(completeCommand("/re", ["repo-map"])).toBeUndefined();
    expect(completeCommand("/rep", ["repo-map"])).toBe("/repo-map ");
    const editor = new LineEditor([], () => ["repo-map"]);
    type(editor, "/res{tab}");
    expect(editor.text).toBe("/resume ");
  });
});

describe("the chat's screen (one writer)", () => {
  const recorder = () => {
    const writes: string[] = [];
    return { writes, out: { columns: 40, write: (text: string) => writes.push(text) } };
  };

  it("writes lines above the bottom view in one write: erase, the lines, the view again", () => {
    const { writes, out } = recorder();
    const screen = new Screen(out, true);
    screen.setBottom({ kind: "input", lines: ["> draft"], cursorRow: 0, cursorColumn: 7 });
    expect(writes.at(-1)).toBe("> draft\u001b[8G");
    screen.print(["an event"]);
    expect(writes.at(-1)).toBe("\r\u001b[Jan event\n> draft\u001b[8G");
    screen.close();
  });

  it("shows the unfinished streamed line as a preview above the status line, replaced in one write", () => {
    const { writes, out } = recorder();
    const screen = new Screen(out, true);
    screen.setBottom({ kind: "status", text: "Working…", startedAt: Date.now() });
    expect(writes.at(-1)).toMatch(/^. Working… \(0 s · esc to interrupt\)\r$/);
    screen.preview(["Hel"]);
    expect(writes.at(-1)).toMatch(/^\r\u001b\[JHel\n. Working…/);
    screen.preview(["Hello world, a line that wraps"]);
    // Erasing starts one row up, at the preview's row.
    expect(writes.at(-1)).toMatch(/^\u001b\[1A\r\u001b\[JHello world, a line that wraps\n. Working…/);
    screen.preview([]);
    screen.print(["Hello world, a line that wraps"]);
    expect(writes.at(-1)).toMatch(/^\r\u001b\[JHello world, a line that wraps\n. Working…/);
    screen.close();
  });

  it("puts the cursor inside a multi-line input that wraps", () => {
    const { writes, out } = recorder();
    const screen = new Screen(out, true);
    // 45 characters on 40 columns: two rows; then a second line; the cursor at the end of the first.
    screen.setBottom({ kind: "input", lines: [`> ${"x".repeat(43)}`, "  second"], cursorRow: 0, cursorColumn: 45 });
    expect(writes.at(-1)).toBe(`> ${"x".repeat(43)}\n  second\u001b[1A\u001b[6G`);
    screen.print(["above"]);
    // Erasing starts from the cursor's row (row 1 of 3): one row up.
    expect(writes.at(-1)!.startsWith("\u001b[1A\r\u001b[Jabove\n")).toBe(true);
    screen.close();
  });

  it("without cursor control prints lines as they come and draws nothing", () => {
    const { writes, out } = recorder();
    const screen = new Screen(out, false);
    screen.setBottom({ kind: "status", text: "Working…", startedAt: Date.now() });
    screen.print(["line"]);
    screen.preview(["partial"]);
    screen.print(["text"]);
    expect(writes.join("")).toBe("line\ntext\n");
  });
});
