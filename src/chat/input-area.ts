import type { Style } from "../render/style.js";
import type { BottomView } from "./screen.js";
import { matchingCommands, SLASH_COMMANDS } from "./slash-commands.js";

export const PROMPT = "> ";
const MENU_ROWS = 10;

/**
 * The input area between turns: the text being typed (continuation lines indented under the
 * prompt), the commands a partly typed `/word` could become, and where the cursor goes.
 */
export function inputArea(text: string, cursor: number, skills: readonly string[], style: Style): BottomView {
  const textLines = text.split("\n");
  const before = text.slice(0, cursor).split("\n");
  const menu = matchingCommands(text, skills)
    .slice(0, MENU_ROWS)
    .map((name) => style.dim(`  ${name.padEnd(14)} ${SLASH_COMMANDS.find((command) => command.name === name)?.description ?? "skill"}`));
  return {
    kind: "input",
    lines: [
      ...textLines.map((line, index) => `${index === 0 ? PROMPT : "  "}${line}`),
      ...(menu.length === 1 && `${textLines[0]} ` === menu[0] ? [] : menu),
    ],
    cursorRow: before.length - 1,
    cursorColumn: PROMPT.length + before.at(-1)!.length,
  };
}

/** An open permission question in place of the input area, the cursor after its last line. */
export function questionArea(lines: string[], width: number): BottomView {
  return { kind: "input", lines, cursorRow: lines.length - 1, cursorColumn: Math.min(lines.at(-1)!.length, width - 1) };
}
