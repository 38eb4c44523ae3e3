import type { HookEventName, HookOutput } from "../../protocol/control.js";
import type { HookRunOptions, SessionHooks } from "./hook-runners.js";

/**
 * Several sources of hooks (the settings files' commands, the host's callbacks) as one: an
 * event runs every source that has hooks for it, at once, and their answers are listed in the
 * order of `sources`. A `systemMessage` in any answer is for the user: it goes to
 * `onSystemMessage`. Undefined when no source is given.
 */
export function combineHooks(
  sources: ReadonlyArray<SessionHooks | undefined>,
  onSystemMessage: (message: string) => void,
): SessionHooks | undefined {
  const present = sources.filter((source): source is SessionHooks => source !== undefined);
  if (present.length === 0) return undefined;
  return {
    has: (event: HookEventName) => present.some((source) => source.has(event)),
    async run(
      event: HookEventName,
      input: Record<string, unknown>,
      options?: HookRunOptions,
    ): Promise<{ outputs: HookOutput[]; undelivered: number }> {
      const answers = await Promise.all(present.filter((source) => source.has(event)).map((source) => source.run(event, input, options)));
      const outputs = answers.flatMap((answer) => answer.outputs);
      for (const output of outputs) if (output.systemMessage) onSystemMessage(output.systemMessage);
      return { outputs, undelivered: answers.reduce((sum, answer) => sum + answer.undelivered, 0) };
    },
  };
}
