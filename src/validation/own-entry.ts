/**
 * `table[key]` for a key that came from outside (a program's name, a git subcommand, a rule's
 * name): only the table's own entries count. A plain object also answers `constructor`,
 * `toString` or `__proto__` from its prototype, and a command named like one would be judged by
 * a function that is not an entry at all.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
