import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArguments, type ParsedCommand } from "./arguments.js";
import { EXIT_CODES } from "./exit-paths.js";
import { runHeadless } from "./headless-run.js";
import { noticeLine } from "./log-records.js";
import { reportStartupFailure, StartupError } from "./startup-failure.js";
import { tuneV8ForSessions } from "./v8-settings.js";
import { SessionSetupError } from "../session/session-options.js";
import { versionLine } from "../version.js";
import { ownEntry } from "../validation/own-entry.js";

/**
 * The installed package's root, where protocol/ and skills/ are. Computed here: this module is
 * the bundle's entry, dist/cli.js, while the modules it imports land in dist/cli-chunks/.
 */
const PACKAGE_ROOT = new URL("../", import.meta.url);

/** The subcommands with a parser and a help of their own, each loaded only when named; `agentwire help X` is `X --help`. */
const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  sessions: async (argv) => (await import("./sessions-command.js")).runSessionsCommand(argv, process.cwd(), process.env),
  trust: async (argv) => (await import("./trust-command.js")).runTrustCommand(argv, process.cwd(), process.env),
  render: async (argv) => (await import("./render-command.js")).runRenderCommand(argv, process.cwd(), process.env),
  web: async (argv) => (await import("./web-command.js")).runWebCommand(argv, process.cwd(), process.env, fileURLToPath(PACKAGE_ROOT)),
};

async function main(argv: string[]): Promise<number> {
  const startedAt = Date.now();
  const [first, second] = argv;
  const name = first === "help" ? second : first;
  const subcommand = name === undefined ? undefined : ownEntry(SUBCOMMANDS, name);
  if (subcommand) return subcommand(first === "help" ? ["--help"] : argv.slice(1));
  const chatCommand = argv[0] === "chat";
  const parsed = await parseArguments(chatCommand ? argv.slice(1) : argv, process.cwd(), process.env);
  return runParsedCommand(argv, parsed, chatCommand, startedAt);
}

/** What the command line asked for, done; returns the exit code. */
async function runParsedCommand(argv: string[], parsed: ParsedCommand, chatCommand: boolean, startedAt: number): Promise<number> {
  switch (parsed.kind) {
    case "help":
      process.stdout.write(`${parsed.text}\n`);
      return 0;
    case "version":
      process.stdout.write(`${versionLine()}\n`);
      return 0;
    case "mock-server": {
      const { runMockServerCommand, MockServerSetupError } = await import("../mock-server/command.js");
      try {
        await runMockServerCommand({
          port: parsed.port,
          scenario: parsed.scenario,
          host: parsed.host,
          ...(parsed.record ? { record: parsed.record } : {}),
        });
        return 0;
      } catch (error) {
        if (!(error instanceof MockServerSetupError)) throw error;
        process.stderr.write(noticeLine("error", error.message, "agentwire mock-server"));
        return 1;
      }
    }
    case "error":
      return reportStartupFailure(argv, new StartupError(parsed.message, "invalid_arguments"), startedAt);
    case "list-tools":
      try {
        // Both build every tool: loaded only for this listing.
        const [{ chooseBuiltinTools }, { formatToolList }, { createAgentTool }, { offersAgentTool }, { BUILT_IN_AGENTS }] =
          await Promise.all([
            import("../session/session-tools.js"),
            import("./list-tools.js"),
            import("../session/subagent/agent-tool.js"),
            import("../session/subagent/subagent-limits.js"),
            import("../agents/built-in-agents.js"),
          ]);
        const agentTool = offersAgentTool(parsed.config) ? [createAgentTool(BUILT_IN_AGENTS)] : [];
        process.stdout.write(formatToolList(chooseBuiltinTools(parsed.config, agentTool), parsed.config.outputFormat));
        return 0;
      } catch (error) {
        if (error instanceof SessionSetupError)
          return reportStartupFailure(argv, new StartupError(error.message, error.terminalReason), startedAt);
        throw error;
      }
    case "list-skills": {
      const { listSkills } = await import("./list-skills.js");
      const listing = await listSkills({ ...parsed.config, cwd: resolve(parsed.config.cwd) }, process.env);
      process.stderr.write(listing.stderr);
      process.stdout.write(listing.stdout);
      return 0;
    }
    case "list-agents":
      try {
        const { listAgents } = await import("./list-agents.js");
        const listing = await listAgents({ ...parsed.config, cwd: resolve(parsed.config.cwd) }, process.env);
        process.stderr.write(listing.stderr);
        process.stdout.write(listing.stdout);
        return 0;
      } catch (error) {
        if (error instanceof SessionSetupError)
          return reportStartupFailure(argv, new StartupError(error.message, error.terminalReason), startedAt);
        throw error;
      }
    case "llms-txt": {
      const { llmsTxt } = await import("./llms-txt.js");
      process.stdout.write(llmsTxt(parsed.helpText, PACKAGE_ROOT));
      return 0;
    }
    case "list-models": {
      // Loaded on demand, like the mock server: ordinary runs never need it.
      const { collectModelListings, formatModelListings } = await import("./list-models.js");
      const listings = await collectModelListings({
        env: process.env,
        ...(parsed.provider ? { provider: parsed.provider } : {}),
        ...(parsed.baseUrl ? { baseUrl: parsed.baseUrl } : {}),
      });
      process.stdout.write(formatModelListings(listings, parsed.outputFormat));
      return 0;
    }
    case "run":
      try {
        if (wantsChat(chatCommand, parsed)) {
          await tuneV8ForSessions({ persistent: true });
          const { runChatCommand } = await import("./chat-command.js");
          return await runChatCommand(parsed, process.env);
        }
        return await runHeadless(parsed, PACKAGE_ROOT);
      } catch (error) {
        if (error instanceof SessionSetupError)
          return reportStartupFailure(argv, new StartupError(error.message, error.terminalReason), startedAt);
        if (error instanceof StartupError) return reportStartupFailure(argv, error, startedAt);
        throw error;
      }
  }
}

/**
 * `agentwire chat …`, and `agentwire` with no prompt and no -p at a terminal, as Claude Code:
 * a person typing, not a program piping.
 */
function wantsChat(chatCommand: boolean, command: Extract<ParsedCommand, { kind: "run" }>): boolean {
  const streams = command.config.inputFormat !== "text" || command.config.outputFormat !== "text";
  if (chatCommand && streams)
    throw new StartupError(
      "agentwire chat is for a person at a terminal; --input-format and --output-format do not apply (agentwire start is the stream-json session).",
      "invalid_arguments",
    );
  if (command.isStart || streams) return false;
  if (chatCommand) return true;
  return !command.printFlag && command.prompt === undefined && process.stdin.isTTY === true && process.stdout.isTTY === true;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`agentwire: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT_CODES.INTERNAL_ERROR);
  },
);
