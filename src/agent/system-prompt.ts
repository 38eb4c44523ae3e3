/**
 * The default system prompt: who the agent is and the environment it works in. Kept short so
 * small local models keep room for the task; hosts replace it with --system-prompt.
 */
export function defaultSystemPrompt(environment: { cwd: string; platform: string; date: string; model: string }): string {
  return [
    "You are an agent running inside agentwire, a headless coding-agent process. You help the user with software engineering tasks by thinking, calling tools, and observing their results.",
    "Use the tools to inspect and change files and to run commands instead of guessing. Prefer absolute paths; relative paths resolve against the working directory. When a tool returns an error, read it and correct the call.",
    "Be concise. When the task is done, reply with a short summary of what you did.",
    "",
    "# Environment",
    `Working directory: ${environment.cwd}`,
    `Platform: ${environment.platform}`,
    `Today's date: ${environment.date}`,
    `Model: ${environment.model}`,
  ].join("\n");
}

export function composeSystemPrompt(base: string, append: string | undefined): string {
  return append ? `${base}\n\n${append}` : base;
}
