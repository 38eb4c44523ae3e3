/** The chat's own commands, in the order /help lists them. */
export const SLASH_COMMANDS = [
  { name: "/help", usage: "/help", description: "commands and keys" },
  { name: "/model", usage: "/model [name]", description: "show the model, or switch to another from the next request" },
  { name: "/compact", usage: "/compact [focus]", description: "summarize the conversation so far to free context" },
  { name: "/clear", usage: "/clear", description: "start the conversation over (the session file keeps the old one)" },
  { name: "/resume", usage: "/resume [N|ID]", description: "continue a stored session of this directory" },
  { name: "/sessions", usage: "/sessions", description: "list this directory's stored sessions" },
  { name: "/cost", usage: "/cost", description: "tokens and cost of this session" },
  { name: "/skills", usage: "/skills", description: "the skills the model can use" },
  {
    name: "/permissions",
    usage: "/permissions [mode]",
    description: "the permission mode and the rules allowed in this chat; change the mode",
  },
  { name: "/exit", usage: "/exit", description: "leave the chat (Ctrl+D does too)" },
] as const;

export type SlashCommandName = (typeof SLASH_COMMANDS)[number]["name"];

/** The commands a partly typed `/word` could become (empty when the input is not a command name being typed). */
export function matchingCommands(input: string, extra: readonly string[] = []): string[] {
  if (!/^\/[\w:-]*$/.test(input)) return [];
  const names = [...SLASH_COMMANDS.map((command) => command.name), ...extra.map((name) => `/${name}`)];
  return names.filter((name) => name.startsWith(input));
}

/** Tab: the longest common prefix of the matches (the whole name, and a space, when only one is left). */
export function completeCommand(input: string, extra: readonly string[] = []): string | undefined {
  const matches = matchingCommands(input, extra);
  if (matches.length === 0) return undefined;
  if (matches.length === 1) return `${matches[0]} `;
  let prefix = matches[0]!;
  for (const match of matches) while (!match.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.length > input.length ? prefix : undefined;
}
