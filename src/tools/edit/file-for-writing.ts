import { constants as fileConstants } from "node:fs";
import { mkdir, open, readlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { ToolErrorCode } from "../../conversation/tool-result.js";

/**
 * Opening the files Write and Edit change so that the write lands on the file the permission
 * check judged, not on one an attacker linked in between:
 *
 * - the tools open the real path the check resolved (`resolveWorkspacePath`), with `O_NOFOLLOW`,
 *   so a symlink put in its place since is refused instead of followed; a new file is created
 *   with `O_CREAT | O_EXCL`, which never follows a link nor reuses a file that appeared meanwhile;
 * - on Linux, the opened file's own path (`/proc/self/fd`) must be that real path, so a folder
 *   on the way replaced by a symlink is caught before a byte is written;
 * - a file with more than one hard link is refused unless someone approved this very call: the
 *   permission check asks before changing such a file, so a link seen here without approval
 *   appeared after the check.
 *
 * What remains: a new file created through a folder swapped between the check and the create is
 * refused before anything is written into it, but the empty file stays where it was created; and
 * where /proc is missing (macOS) a swapped folder is not detected.
 */

/** A refusal of the write itself, with the code and message the tool returns to the model. */
export class WriteRefused extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** An existing regular file, open for reading and replacing its content. */
export interface FileToChange {
  /** The whole file as it was when opened. */
  readonly text: string;
  /** Replaces the content in place: the file keeps its mode, owner and identity. */
  replace(text: string): Promise<void>;
  close(): Promise<void>;
}

interface WriteOptions {
  /** `path` is the path as the model named it, for messages. */
  path: string;
  /** Someone approved this call, so a file with several hard links may be changed. */
  allowLinkedFiles: boolean;
}

// Absent on Windows, where the checks these flags make do not apply.
const NO_FOLLOW = fileConstants.O_NOFOLLOW ?? 0;
// A FIFO or device put in the file's place must not hang the open.
const NON_BLOCKING = fileConstants.O_NONBLOCK ?? 0;

/**
 * Opens the existing file at `realPath` to change it, or returns undefined when nothing is there.
 *
 * Contract: throws `WriteRefused` for a symlink, a file that is not regular, a file with several
 * hard links (without approval), or a path that changed under the open; other failures are the
 * system's errors (EISDIR, EACCES, ENOTDIR, …) for the tool to word.
 */
export async function openFileToChange(realPath: string, options: WriteOptions): Promise<FileToChange | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(realPath, fileConstants.O_RDWR | NO_FOLLOW | NON_BLOCKING);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw linkNotFollowed(options.path);
    throw error;
  }
  try {
    await checkOpenedFile(handle, realPath, options);
    const text = await handle.readFile("utf8");
    return {
      text,
      replace: async (newText) => {
        await handle.truncate(0);
        await writeAll(handle, newText);
      },
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Creates the file at `realPath` with `text`, and any missing parent folders. Never replaces
 * anything: a file or link that appeared there since the check is refused.
 *
 * Contract: throws `WriteRefused` as `openFileToChange` does; other failures are system errors.
 */
export async function createFile(realPath: string, text: string, options: WriteOptions): Promise<void> {
  await mkdir(path.dirname(realPath), { recursive: true });
  let handle: FileHandle;
  try {
    handle = await open(realPath, fileConstants.O_WRONLY | fileConstants.O_CREAT | fileConstants.O_EXCL | NO_FOLLOW, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new WriteRefused(
        "io_error",
        `${options.path} appeared while it was being written (created by something else, or replaced by a link); nothing was written. Read it, then try again.`,
      );
    }
    throw error;
  }
  try {
    await checkOpenedFile(handle, realPath, options);
    await writeAll(handle, text);
  } finally {
    await handle.close();
  }
}

async function checkOpenedFile(handle: FileHandle, realPath: string, options: WriteOptions): Promise<void> {
  const opened = await openedPath(handle);
  if (opened !== undefined && opened !== realPath) {
    throw new WriteRefused(
      "io_error",
      `A folder in the path of ${options.path} was replaced while it was being opened; nothing was written.`,
    );
  }
  const stats = await handle.stat();
  if (!stats.isFile())
    throw new WriteRefused(
      "not_a_file",
      `${options.path} is not a regular file (a device, pipe or socket); only regular files can be written.`,
    );
  if (stats.nlink > 1 && !options.allowLinkedFiles) {
    throw new WriteRefused(
      "permission_denied",
      `${options.path} has ${stats.nlink} hard links: changing it would change the same file under its other names, which may be outside the workspace. Nothing was written; this change needs the user's approval.`,
    );
  }
}

/** The path the kernel reached for an open file, where /proc tells it; undefined elsewhere. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

async function writeAll(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, offset);
    offset += bytesWritten;
  }
}

function linkNotFollowed(namedPath: string): WriteRefused {
  return new WriteRefused(
    "io_error",
    `${namedPath} leads to a symbolic link that was not followed (a loop of links, or one put in place after the permission check); nothing was written.`,
  );
}
