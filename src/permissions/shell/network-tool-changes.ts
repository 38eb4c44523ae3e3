import { hasOption, optionValues, scanArguments } from "./lenient-options.js";
import { writes, type ChangedPath } from "./path-change.js";
import { byOptions, type PathReader } from "./path-readers.js";
import type { ShellWord } from "./shell-syntax.js";

/**
 * What the network tools change: downloads, copies to and from other machines (a remote
 * destination is marked so), logs and captures. One part of the table changed-paths.ts reads.
 */

/** curl's long options whose value is a file it writes (`-o`, `-D` and `-c` are the short ones). */
const CURL_WRITTEN_LONG = [
  "--output",
  "--dump-header",
  "--cookie-jar",
  "--trace",
  "--trace-ascii",
  "--stderr",
  "--etag-save",
  "--hsts",
  "--alt-svc",
  "--libcurl",
  "--output-dir",
];

/** rsync's long options whose value is a file or folder it writes (`-T` is `--temp-dir`). */
const RSYNC_WRITTEN_LONG = ["--backup-dir", "--log-file", "--write-batch", "--only-write-batch", "--partial-dir", "--temp-dir"];

export const NETWORK_TOOL_CHANGES: Readonly<Record<string, PathReader>> = {
  curl: (words) => {
    const scanned = scanArguments(words, {
      shortWithValue: "oDcdHuXAbeEFKrTwxYyzm",
      longWithValue: [...CURL_WRITTEN_LONG, "--data", "--header", "--user", "--request", "--config", "--upload-file", "--form"],
    });
    return optionValues(scanned, ["-o", "-D", "-c", ...CURL_WRITTEN_LONG]).map((word) => writes(word));
  },
  wget: byOptions(
    [
      "-O",
      "--output-document",
      "-o",
      "--output-file",
      "-a",
      "--append-output",
      "-P",
      "--directory-prefix",
      "--save-cookies",
      "--warc-file",
    ],
    {
      shortWithValue: "OoaPiBeUtTwQ",
      longWithValue: [
        "--output-document",
        "--output-file",
        "--append-output",
        "--directory-prefix",
        "--save-cookies",
        "--warc-file",
        "--input-file",
        "--base",
        "--user-agent",
        "--tries",
        "--timeout",
        "--wait",
        "--quota",
        "--header",
        "--post-data",
        "--user",
        "--password",
      ],
    },
  ),
  rsync: rsyncChanges,
  scp: (words) => {
    const operands = scanArguments(words, { shortWithValue: "cFiJloPSDX" }).operands;
    const destination = operands.length >= 2 ? operands.at(-1) : undefined;
    return destination ? [{ word: destination, change: "writes", remote: isRemote(destination.text) }] : [];
  },
  ssh: byOptions(["-E"], { shortWithValue: "BbcDEeFIiJLlmOopQRSWw", stopAtOperand: true }),
  nmap: (words) => words.flatMap((word, index) => (/^-o[NXSGA]$/.test(word.text) && words[index + 1] ? [writes(words[index + 1]!)] : [])),
  tcpdump: byOptions(["-w"], { shortWithValue: "wrciCEFGmMsTVWyzZ" }),
};

/** rsync: the destination (the last operand), where backups and logs go, and sources it removes. */
function rsyncChanges(words: ShellWord[]): ChangedPath[] {
  const scanned = scanArguments(words, {
    shortWithValue: "efBTM",
    longWithValue: [
      "--rsh",
      "--rsync-path",
      "--filter",
      "--exclude",
      "--include",
      "--exclude-from",
      "--include-from",
      "--files-from",
      "--block-size",
      "--max-size",
      "--min-size",
      "--timeout",
      "--contimeout",
      "--port",
      "--sockopts",
      "--chmod",
      "--chown",
      "--remote-option",
      "--compare-dest",
      "--copy-dest",
      "--link-dest",
      "--suffix",
      "--bwlimit",
      "--out-format",
      "--log-file-format",
      "--password-file",
      "--usermap",
      "--groupmap",
      "--iconv",
      "--checksum-choice",
      "--compress-choice",
      "--compress-level",
      "--skip-compress",
      "--read-batch",
      "--protocol",
      "--info",
      "--debug",
      "--stop-after",
      "--stop-at",
      "--outbuf",
      "--modify-window",
      "--max-delete",
      "--max-alloc",
      "--address",
      ...RSYNC_WRITTEN_LONG,
    ],
  });
  const found: ChangedPath[] = optionValues(scanned, [...RSYNC_WRITTEN_LONG, "-T"]).map((word) => writes(word));
  const destination = scanned.operands.length >= 2 ? scanned.operands.at(-1) : undefined;
  if (destination) found.push({ word: destination, change: "writes", remote: isRemote(destination.text) });
  if (hasOption(scanned, ["--remove-source-files"]))
    found.push(...scanned.operands.slice(0, -1).map((word) => ({ word, change: "deletes" as const })));
  return found;
}

/** `host:path`, `user@host:path`, `rsync://…` (a `:` before any `/`). */
function isRemote(text: string): boolean {
  return /^[^/]*:/.test(text) && !/^[A-Za-z]:[\\/]/.test(text);
}
