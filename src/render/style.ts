/**
 * Terminal styling for the renderer: ANSI SGR codes when colour is on, the plain text when it is
 * off (not a TTY, NO_COLOR, a dumb terminal). One object per renderer, so the pure rendering
 * functions never look at the environment.
 */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => (text === "" ? text : `\u001b[${open}m${text}\u001b[${close}m`);

export function createStyle(color: boolean): Style {
  if (!color) {
    const plain = (text: string) => text;
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    magenta: sgr(35, 39),
  };
}

/** Whether a stream should get colour: a TTY, no non-empty NO_COLOR (no-color.org), not TERM=dumb; FORCE_COLOR overrides the TTY test. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** The visible width of a string: ANSI codes take no room. */
export function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, "").length;
}

/** Columns to wrap to: the terminal's, else $COLUMNS, else 100 (a pipe or a file). */
export function outputWidth(stream: { columns?: number }, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number.parseInt(env.COLUMNS ?? "", 10);
  return stream.columns && stream.columns > 0 ? stream.columns : Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 100;
}
