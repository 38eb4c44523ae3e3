import micromatch from "micromatch";

/** ripgrep's --glob semantics as fast-glob patterns: no slash = any depth; a leading `!` excludes. */
export function globPatterns(glob: string | undefined): string[] {
  if (glob === undefined) return ["**/*"];
  const negated = glob.startsWith("!");
  const body = negated ? glob.slice(1) : glob;
  const anywhere = body.includes("/") ? body.replace(/^\//, "") : `**/${body}`;
  return negated ? ["**/*", `!${anywhere}`] : [anywhere];
}

/**
 * The glob as a test of a file's path relative to the search root, for globs without a slash (see
 * `isNameGlob`: a name at any depth, the common `*.ts`): such a glob never prunes a folder, so testing each file
 * is all a walker needs. Matches as fast-glob does (micromatch with fast-glob's options), so both
 * walkers keep the same files.
 */
export function nameGlobFilter(glob: string): (relativePath: string) => boolean {
  const negated = glob.startsWith("!");
  const pattern = micromatch.makeRe(`**/${negated ? glob.slice(1) : glob}`, { dot: true, posix: true, strictSlashes: false });
  return negated ? (relativePath) => !pattern.test(relativePath) : (relativePath) => pattern.test(relativePath);
}

/** Globs with a slash stay with fast-glob, whose base-folder and pruning rules they depend on. */
export function isNameGlob(glob: string): boolean {
  return !glob.includes("/");
}
