import { MOCK_SERVER_OPTIONS } from "./option-tables.js";
import type { ParsedCommand } from "./parsed-command.js";

/** `agentwire mock-server …`: a developer's tool, parsed by yargs (loaded only for it). */
export async function parseMockServer(argv: string[]): Promise<ParsedCommand> {
  const { default: yargs } = await import("yargs");
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  const parser = yargs(argv)
    .scriptName("agentwire mock-server")
    .usage(
      "agentwire mock-server --port N --scenario FILE [--record FILE]\n\nServes scripted model turns over loopback in the Anthropic, OpenAI (Chat Completions, Responses) and Gemini streaming wire formats.",
    )
    .help(false)
    .version(false)
    .options(
      wantsHelp ? { ...MOCK_SERVER_OPTIONS, scenario: { ...MOCK_SERVER_OPTIONS.scenario, demandOption: false } } : MOCK_SERVER_OPTIONS,
    )
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message);
    });
  try {
    const parsed = await parser.parseAsync();
    if (parsed.help) return { kind: "help", text: await parser.getHelp() };
    return {
      kind: "mock-server",
      port: parsed.port,
      scenario: parsed.scenario as string,
      host: parsed.host,
      ...(parsed.record ? { record: parsed.record } : {}),
    };
  } catch (error) {
    return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
}
