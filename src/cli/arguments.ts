import { RunConfigSchema, type OutputFormat } from "./config.js";
import { describeFlagError, parseFlags } from "./flag-parser.js";
import { checkCombinations } from "./flag-values.js";
import { helpText } from "./help-text.js";
import { parseMockServer } from "./mock-server-arguments.js";
import { ACCEPTED_BUT_IGNORED, RUN_OPTIONS, START_OPTIONS } from "./option-tables.js";
import type { ParsedCommand } from "./parsed-command.js";
import { withoutPrintValues } from "./print-prompt.js";
import { buildRunCommand } from "./run-arguments.js";
import type { ProviderId } from "../providers/registry.js";

export type { ParsedCommand, PromptSources } from "./parsed-command.js";

/** `env` is read only to choose a provider from the API keys that are set. */
export async function parseArguments(argv: string[], processCwd: string, env: NodeJS.ProcessEnv): Promise<ParsedCommand> {
  const [first, ...rest] = argv;
  if (first === "mock-server") return parseMockServer(rest);
  // `agentwire help [start|mock-server]`, as git and npm have it, rather than a prompt "help".
  if (first === "help") return parseArguments([...rest.slice(0, 1), "--help"], processCwd, env);
  const isStart = first === "start";
  const table = { ...(isStart ? START_OPTIONS : RUN_OPTIONS), ...ACCEPTED_BUT_IGNORED };
  let parsed: Record<string, unknown>;
  const printValues: string[] = [];
  try {
    parsed = parseFlags(withoutPrintValues(isStart ? rest : argv, printValues), table).values;
  } catch (error) {
    // An unknown flag is named as typed, with the nearest documented one when it looks mistyped.
    return { kind: "error", message: describeFlagError(error, Object.keys(RUN_OPTIONS), "agentwire") };
  }
  if (parsed.help) return { kind: "help", text: await helpText(isStart) };
  if (parsed.version) return { kind: "version" };

  const positionals = (parsed._ as Array<string | number>).map(String);
  const promptText = [...printValues, ...positionals].filter((part) => part !== "").join(" ");
  const inputFormat = isStart ? "stream-json" : (parsed["input-format"] as string);
  const outputFormat = isStart ? "stream-json" : (parsed["output-format"] as string);

  const combinationError = checkCombinations({ parsed, inputFormat, outputFormat, promptText });
  if (combinationError) return { kind: "error", message: combinationError };
  // Before the model is settled: listing needs none, even for local servers.
  if (parsed["list-models"]) return listModelsCommand(parsed, outputFormat as OutputFormat);
  return buildRunCommand({ parsed, isStart, inputFormat, outputFormat, promptText, printValues }, processCwd, env);
}

function listModelsCommand(parsed: Record<string, unknown>, outputFormat: OutputFormat): ParsedCommand {
  const baseUrl = RunConfigSchema.shape.baseUrl.safeParse(parsed["base-url"]);
  if (!baseUrl.success) return { kind: "error", message: `--base-url: ${baseUrl.error.issues[0]?.message ?? "invalid URL"}` };
  return {
    kind: "list-models",
    outputFormat,
    // The flag parser has checked --provider against the table's choices (PROVIDER_IDS).
    ...(typeof parsed.provider === "string" ? { provider: parsed.provider as ProviderId } : {}),
    ...(baseUrl.data ? { baseUrl: baseUrl.data } : {}),
  };
}
