import type { ArgumentsCamelCase, Argv } from "yargs";

/**
 * Runs a subcommand's yargs parser the way every subcommand wants it: unknown options refused, no
 * wrapping, no process exit and no printing by yargs; a mistake comes back as a message the
 * subcommand reports with its own usage.
 */
export async function strictParse<T>(parser: Argv<T>): Promise<{ parsed: ArgumentsCamelCase<T> } | { mistake: string }> {
  const strict = parser
    .strictOptions()
    .wrap(null)
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message);
    });
  try {
    return { parsed: await strict.parseAsync() };
  } catch (error) {
    return { mistake: (error as Error).message };
  }
}
