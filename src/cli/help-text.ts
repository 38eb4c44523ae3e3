import { RUN_OPTIONS, START_EPILOGUE, START_OPTIONS } from "./option-tables.js";

/**
 * `--help`: formatted by yargs from the same option tables, loaded only here (the build writes the
 * texts to dist/, and bin/agentwire prints those without loading the bundle at all).
 */
export async function helpText(isStart: boolean): Promise<string> {
  const { default: yargs } = await import("yargs");
  return yargs([])
    .scriptName("agentwire")
    .usage(
      isStart
        ? "agentwire start --provider P --model M --cwd DIR [--verbose]\n\nA persistent session: stream-json commands on stdin until EOF, stream-json events on stdout."
        : "agentwire [-p] [prompt] [options]\nagentwire chat [options]   (also: agentwire alone at a terminal)\nagentwire start [options]\nagentwire sessions list|show|export|import|delete\nagentwire trust [DIR] | --list | --revoke [DIR]   (consent for a project's .mcp.json and skill rules)\nagentwire render [SESSION_ID|FILE]\nagentwire web [--port N] [--host H] [--open]   (a browser UI)\nagentwire mock-server --port N --scenario FILE\n\nA headless agent that speaks Claude Code's stream-json protocol with any model behind it.",
    )
    .epilogue(isStart ? START_EPILOGUE : "")
    .help(false)
    .version(false)
    .options(isStart ? START_OPTIONS : RUN_OPTIONS)
    .getHelp();
}
