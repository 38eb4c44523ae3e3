import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { SETTING_SOURCES, type SettingSource } from "../session/session-options.js";
import { AgentDefinitionError, parseAgentRecord } from "../agents/agent-definition.js";

/** Checks of flag values and of flags given together, each returning what is wrong, if anything. */

export function checkCombinations(input: {
  parsed: Record<string, unknown>;
  inputFormat: string;
  outputFormat: string;
  promptText: string;
}): string | undefined {
  const { parsed, inputFormat, outputFormat, promptText } = input;
  if (inputFormat === "stream-json" && outputFormat !== "stream-json") {
    return "--input-format=stream-json requires --output-format=stream-json.";
  }
  if (inputFormat === "stream-json" && promptText) {
    return "A prompt argument cannot be combined with --input-format=stream-json; send it as a user message on stdin.";
  }
  if (parsed["include-partial-messages"] && outputFormat !== "stream-json") {
    return "--include-partial-messages requires --output-format=stream-json.";
  }
  if (parsed["event-dialect"] === "flat" && outputFormat !== "stream-json")
    return "--event-dialect flat requires --output-format=stream-json.";
  if (parsed.resume !== undefined && parsed.continue) return "--resume and --continue cannot be used together.";
  if (parsed["session-id"] && (parsed.resume !== undefined || parsed.continue)) {
    return "--session-id cannot be combined with --resume or --continue.";
  }
  if (parsed["system-prompt"] !== undefined && parsed["system-prompt-file"] !== undefined) {
    return "--system-prompt and --system-prompt-file cannot be used together.";
  }
  if (parsed["append-system-prompt"] !== undefined && parsed["append-system-prompt-file"] !== undefined) {
    return "--append-system-prompt and --append-system-prompt-file cannot be used together.";
  }
  if (parsed.resume === "") return "--resume needs a session id.";
  if (parsed["fork-session"] && parsed.resume === undefined && !parsed.continue)
    return "--fork-session needs --resume or --continue: it copies an existing session.";
  return undefined;
}

/**
 * `--agents`: inline JSON of agent definitions by name, checked at once, so a mistake stops the
 * run before it starts (with the exit code of any bad flag).
 */
export function readAgentsFlag(value: string): { agents: Record<string, unknown> } | { error: string } {
  let agents: unknown;
  try {
    agents = JSON.parse(value);
  } catch (error) {
    return { error: `--agents is not valid JSON: ${(error as Error).message}` };
  }
  try {
    parseAgentRecord(agents, "cli", "--agents");
  } catch (error) {
    if (error instanceof AgentDefinitionError) return { error: error.message };
    throw error;
  }
  return { agents: agents as Record<string, unknown> };
}

/** `--json-schema`: inline JSON (as Claude Code takes it), or the path of a file holding it. */
export function readJsonSchema(value: string, processCwd: string): { schema: Record<string, unknown> } | { error: string } {
  const inline = value.trimStart().startsWith("{");
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(resolve(processCwd, value), "utf8");
    } catch (error) {
      return { error: `--json-schema: not inline JSON, and not a readable file: ${(error as Error).message}` };
    }
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return { error: `--json-schema${inline ? "" : ` (${value})`} is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return { error: "--json-schema must be a JSON object (a JSON Schema)." };
  return { schema: schema as Record<string, unknown> };
}

/**
 * `--setting-sources user,project`: the sources to read; empty (`--setting-sources=`, the Agent
 * SDK's default) reads none; absent reads all.
 */
export function parseSettingSources(value: unknown): { sources: SettingSource[] | undefined } | { error: string } {
  if (typeof value !== "string") return { sources: undefined };
  const sources = value
    .split(",")
    .map((source) => source.trim())
    .filter((source) => source !== "");
  const unknown = sources.filter((source) => !(SETTING_SOURCES as readonly string[]).includes(source));
  if (unknown.length > 0)
    return { error: `--setting-sources: unknown source ${unknown.join(", ")} (the sources are ${SETTING_SOURCES.join(", ")}).` };
  return { sources: sources as SettingSource[] };
}

/** A number from an environment variable, or undefined when unset or not a number (then the schema reports a bad flag value only). */
export function numberFrom(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}
