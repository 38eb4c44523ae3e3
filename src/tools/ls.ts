import { readdir, stat } from "node:fs/promises";
import type { Dirent } from "node:fs";
import path from "node:path";
import * as z from "zod/mini";
import "../validation/english-issues.js";
import { defineTool, toolError } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { GitignoreFilter, ignorePatterns } from "./search/gitignore-filter.js";
import { resolveWorkspacePath } from "./paths.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";

const description = `Lists a directory as an indented tree: folders (marked with a trailing /) and files, sorted by name, folders before files.

- \`path\` is the folder to list (default: the working directory); a relative path is resolved against the working directory.
- The whole tree below it is listed, level by level, up to 1000 entries; list a subfolder to see more of a large tree.
- Files ignored by git (.gitignore) and the .git folder are left out; hidden files are shown.
- \`ignore\` takes extra patterns to leave out, in .gitignore syntax ("node_modules", "*.log", "build/").
- To find files by name, Glob is usually faster; to search contents, use Grep.`;

const MAX_ENTRIES = 1000;

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z
      .optional(z.string())
      .check(z.describe("The directory to list (absolute, or relative to the working directory). Defaults to the working directory.")),
    ignore: z.optional(z.array(z.string())).check(z.describe('Patterns to leave out, in .gitignore syntax (e.g. "node_modules", "*.log")')),
  }),
);

interface ListedEntry {
  /** Relative to the listed folder, posix separators. */
  path: string;
  type: "file" | "directory" | "symlink" | "other";
  depth: number;
}

export const createLsTool = () =>
  defineTool({
    name: "LS",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.LS,
    async execute(input, context): Promise<ToolResult> {
      const resolved = await resolveWorkspacePath(context, input.path ?? context.cwd);
      if (resolved.refusal) return resolved.refusal;
      const root = resolved.path;
      try {
        if (!(await stat(root)).isDirectory()) {
          return toolError("not_a_file", `${root} is a file, not a directory. Use Read to see its contents.`);
        }
      } catch {
        return toolError("file_not_found", `Directory does not exist: ${root}. Note: your current working directory is ${context.cwd}.`);
      }

      const { entries, truncated } = await listTree(root, await ignorePatterns(input.ignore ?? []), context.signal);
      const lines = [`- ${root}${root.endsWith(path.sep) ? "" : path.sep}`];
      for (const entry of sortAsTree(entries)) {
        const name = path.posix.basename(entry.path);
        lines.push(`${"  ".repeat(entry.depth + 1)}- ${name}${entry.type === "directory" ? "/" : ""}`);
      }
      if (entries.length === 0) lines.push("  (empty)");
      if (truncated) lines.push(`\n(Listing stopped at ${MAX_ENTRIES} entries. List a subfolder, or use Glob, to see the rest.)`);
      return {
        content: lines.join("\n"),
        isError: false,
        details: { path: root, entries: entries.map(({ path: entryPath, type }) => ({ path: entryPath, type })), truncated },
      };
    },
  });

/** Breadth first, so a capped listing shows the upper levels completely. */
async function listTree(
  root: string,
  ignoredByInput: (relativePath: string, isDirectory: boolean) => boolean,
  signal: AbortSignal,
): Promise<{ entries: ListedEntry[]; truncated: boolean }> {
  const gitignore = await GitignoreFilter.forSearchRoot(root);
  const entries: ListedEntry[] = [];
  let level = [""];
  for (let depth = 0; level.length > 0; depth += 1) {
    const nextLevel: string[] = [];
    for (const folder of level) {
      signal.throwIfAborted();
      let children: Dirent[];
      try {
        children = await readdir(path.join(root, folder), { withFileTypes: true });
      } catch {
        continue;
      }
      children.sort((left, right) => left.name.localeCompare(right.name));
      for (const child of children) {
        const relative = folder === "" ? child.name : `${folder}/${child.name}`;
        const isDirectory = child.isDirectory();
        if (gitignore.isIgnored(path.join(root, relative), isDirectory)) continue;
        if (ignoredByInput(relative, isDirectory)) continue;
        if (entries.length >= MAX_ENTRIES) return { entries, truncated: true };
        const type = isDirectory ? "directory" : child.isFile() ? "file" : child.isSymbolicLink() ? "symlink" : "other";
        entries.push({ path: relative, type, depth });
        // Symbolic links are listed, never followed: they may lead out of the workspace.
        if (isDirectory) nextLevel.push(relative);
      }
    }
    level = nextLevel;
  }
  return { entries, truncated: false };
}

/** Depth-first order for display: each folder followed by its contents, folders before files. */
function sortAsTree(entries: ListedEntry[]): ListedEntry[] {
  const childrenOf = new Map<string, ListedEntry[]>();
  for (const entry of entries) {
    const parent = path.posix.dirname(entry.path);
    const key = parent === "." ? "" : parent;
    childrenOf.set(key, [...(childrenOf.get(key) ?? []), entry]);
  }
  const ordered: ListedEntry[] = [];
  const visit = (folder: string): void => {
    const children = [...(childrenOf.get(folder) ?? [])].sort(
      (left, right) => Number(right.type === "directory") - Number(left.type === "directory") || left.path.localeCompare(right.path),
    );
    for (const child of children) {
      ordered.push(child);
      if (child.type === "directory") visit(child.path);
    }
  };
  visit("");
  return ordered;
}
