export interface PromptEnvironment {
  cwd: string;
  platform: string;
  date: string;
  model: string;
}

const IDENTITY =
  "You are an agent running inside agentwire, a headless coding-agent process. You help the user with software engineering tasks by thinking, calling tools, and observing their results.";

const INSTRUCTIONS = [
  "Use the tools to inspect and change files and to run commands instead of guessing. Prefer absolute paths; relative paths resolve against the working directory. When a tool returns an error, read it and correct the call.",
  "Be concise. When the task is done, reply with a short summary of what you did.",
];

/**
 * The default system prompt: who the agent is and the environment it works in. Kept short so
 * small local models keep room for the task; hosts replace it with --system-prompt.
 */
function defaultSystemPrompt(environment: PromptEnvironment): string {
  return [IDENTITY, ...INSTRUCTIONS, "", environmentSection(environment)].join("\n");
}

/**
 * The prompt a session starts from: the host's in place of the default, where it gave one. An
 * empty one is what the Python Agent SDK sends when its user set none (`--system-prompt ""`), and
 * Claude Code then drops only its instructions: the model still learns who it is and where it
 * works (and the memory files still come, see `replacesDefaultPrompt`).
 */
export function baseSystemPrompt(hostPrompt: string | undefined, environment: PromptEnvironment): string {
  if (hostPrompt === undefined) return defaultSystemPrompt(environment);
  return hostPrompt === "" ? [IDENTITY, "", environmentSection(environment)].join("\n") : hostPrompt;
}

/** A host prompt with text wants exactly that prompt: no memory files are added to it. */
export function replacesDefaultPrompt(hostPrompt: string | undefined): boolean {
  return hostPrompt !== undefined && hostPrompt !== "";
}

export function composeSystemPrompt(base: string, append: string | undefined): string {
  return append ? `${base}\n\n${append}` : base;
}

function environmentSection(environment: PromptEnvironment): string {
  return [
    "# Environment",
    `Working directory: ${environment.cwd}`,
    `Platform: ${environment.platform}`,
    `Today's date: ${environment.date}`,
    `Model: ${environment.model}`,
  ].join("\n");
}

/** A subagent's system prompt: its definition's instructions, then the environment it works in. */
export function subagentSystemPrompt(instructions: string, environment: PromptEnvironment): string {
  return [instructions, "", environmentSection(environment)].join("\n");
}
