import { programName } from "./command-runners.js";
import { DATA_ONLY_PROGRAMS } from "./data-only-programs.js";
import { DEVELOPER_TOOL_CHANGES } from "./developer-tool-changes.js";
import { FILE_TOOL_CHANGES } from "./file-tool-changes.js";
import { SHELLS } from "./interpreters.js";
import { withoutPrefix } from "./lenient-options.js";
import { NETWORK_TOOL_CHANGES } from "./network-tool-changes.js";
import { writes, type ChangedPath } from "./path-change.js";
import type { PathReader } from "./path-readers.js";
import { RUNNERS } from "./runner-programs.js";
import type { ShellWord } from "./shell-syntax.js";
import { ownEntry } from "../../validation/own-entry.js";

/**
 * The files and directories a command changes through its options and operands, per program:
 * `sort -o F`, `git log --output=F`, `cp a F`, `tee -a F`, `dd of=F`, `sed -i`/`w F`, `chmod … F`,
 * `tar -C D -x`, `rsync … D`, and so on. Redirections are the caller's. For programs not in the
 * table, long options named like an output (`--output`, `--log-file`, `--outdir`, …) and `-o`
 * count. Best effort in the safe direction: a word taken for a path by mistake can only add a
 * question.
 */

export function changedPaths(words: ShellWord[]): ChangedPath[] {
  const name = programName(words);
  const reader = ownEntry(PROGRAM_CHANGES, name);
  if (reader) return reader(words);
  if (DATA_ONLY_PROGRAMS.has(name) || ownEntry(RUNNERS, name) || SHELLS.has(name)) return [];
  return outputsByName(words, NO_SHORT_OUTPUT.has(name));
}

/** How each known program's words name what it changes, from three tables by kind of tool. */
const PROGRAM_CHANGES: Readonly<Record<string, PathReader>> = { ...FILE_TOOL_CHANGES, ...NETWORK_TOOL_CHANGES, ...DEVELOPER_TOOL_CHANGES };

/** Output-looking long options of programs not in the table (`--output`, `--out-dir`, `--log-file`, …). */
const OUTPUT_LONG_OPTION =
  /^--(out(put)?([-_]?(file|dir|directory|document|path))?|outfile|outdir|log[-_]?file|dump[-_]?file|save[-_]?file|write[-_]?file|export[-_]?file|report[-_]?file|target[-_]?dir(ectory)?|dest(ination)?([-_]?dir)?)$/i;
/** Programs whose `-o` is not an output file (a format, a flag, a mount option, a shell option). */
const NO_SHORT_OUTPUT = new Set([
  "ps",
  "pgrep",
  "pkill",
  "mount",
  "umount",
  "ssh",
  "scp",
  "sftp",
  "set",
  "shopt",
  "lsof",
  "ss",
  "netstat",
  "ip",
  "top",
  "htop",
  "lsblk",
  "findmnt",
  "blkid",
  "journalctl",
  "systemctl",
  "kubectl",
  "helm",
  "iostat",
  "readelf",
  "nm",
  "objdump",
  "pr",
  "free",
  "vmstat",
  "fuser",
  "dig",
  "host",
  "nslookup",
  "ping",
  "mtr",
]);

function outputsByName(words: ShellWord[], skipShortO: boolean): ChangedPath[] {
  const found: ChangedPath[] = [];
  words.forEach((word, index) => {
    if (index === 0) return;
    const text = word.text;
    const next = words[index + 1];
    const equals = text.indexOf("=");
    const name = equals === -1 ? text : text.slice(0, equals);
    if (OUTPUT_LONG_OPTION.test(name)) {
      if (equals !== -1) found.push(writes(withoutPrefix(word, text.slice(0, equals + 1))));
      else if (next && !next.text.startsWith("-")) found.push(writes(next));
    } else if (!skipShortO && text === "-o" && next && !next.text.startsWith("-")) found.push(writes(next));
    else if (!skipShortO && /^-o[^-=]/.test(text) && /[/~.]/.test(text)) found.push(writes(withoutPrefix(word, "-o")));
  });
  return found;
}
