import type { FileSettings } from "../settings/effective-settings.js";
import type { ProviderId } from "../providers/registry.js";
import type { OutputFormat, RunConfig } from "./config.js";

/** What the command line asks for. */
export type ParsedCommand =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | {
      kind: "run";
      config: RunConfig;
      fileSettings: FileSettings;
      prompt?: string;
      promptFiles: PromptSources;
      ignoredFlags: string[];
      isStart: boolean;
      printFlag: boolean;
    }
  | { kind: "list-tools"; config: RunConfig }
  | { kind: "list-skills"; config: RunConfig }
  | { kind: "list-agents"; config: RunConfig }
  | { kind: "llms-txt"; config: RunConfig; helpText: string }
  | { kind: "list-models"; outputFormat: OutputFormat; provider?: ProviderId; baseUrl?: string }
  | { kind: "mock-server"; port: number; scenario: string; host: string; record?: string }
  | { kind: "error"; message: string };

export interface PromptSources {
  systemPrompt?: string;
  systemPromptFile?: string;
  appendSystemPrompt?: string;
  appendSystemPromptFile?: string;
}
