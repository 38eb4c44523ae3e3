import { mayInjectArguments, type ShellWord } from "./shell-syntax.js";

/** find's own expression language: start paths, then tests and actions; only these are allowed. */
const FIND_LEADING_OPTIONS = new Set(["-H", "-L", "-P"]);
const FIND_OPERATORS_AND_FLAGS = new Set([
  "(",
  ")",
  "!",
  ",",
  "-not",
  "-a",
  "-and",
  "-o",
  "-or",
  "-print",
  "-print0",
  "-ls",
  "-prune",
  "-empty",
  "-true",
  "-false",
  "-quit",
  "-readable",
  "-writable",
  "-executable",
  "-nouser",
  "-nogroup",
  "-depth",
  "-xdev",
  "-mount",
  "-follow",
  "-daystart",
  "-noleaf",
]);
const FIND_TESTS_WITH_VALUE = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-lname",
  "-ilname",
  "-regex",
  "-iregex",
  "-regextype",
  "-type",
  "-xtype",
  "-maxdepth",
  "-mindepth",
  "-newer",
  "-anewer",
  "-cnewer",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-perm",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-links",
  "-inum",
  "-samefile",
  "-printf",
  "-used",
  "-fstype",
]);
export function isReadOnlyFind(args: readonly ShellWord[]): boolean {
  if (args.some(mayInjectArguments)) return false;
  const texts = args.map((word) => word.text);
  let index = 0;
  while (FIND_LEADING_OPTIONS.has(texts[index] ?? "")) index++;
  // Start paths run until the first word that opens the expression.
  while (index < texts.length && !/^[-(!),]/.test(texts[index]!)) index++;
  while (index < texts.length) {
    const text = texts[index]!;
    if (FIND_OPERATORS_AND_FLAGS.has(text)) index++;
    else if ((FIND_TESTS_WITH_VALUE.has(text) || /^-newer[aBcmt][aBcmt]$/.test(text)) && index + 1 < texts.length) index += 2;
    else return false;
  }
  return true;
}
