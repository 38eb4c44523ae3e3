/**
 * What a tool card says, mirroring the terminal renderer (src/render/transcript-renderer.ts):
 * the call's key argument (path, command, pattern…), a one-line summary of its result (line
 * counts, exit codes), and Edit/Write/MultiEdit results as diff rows. Pure functions of the
 * stream-json data, so they are unit-tested without a DOM.
 */

/** The one argument that says what a call does: its path, command, pattern, URL… */
export function keyArgument(toolName, input, cwd) {
  const string = (key) => (input && typeof input[key] === "string" ? input[key] : undefined);
  const path = string("file_path") ?? string("notebook_path");
  if (path) return displayPath(path, cwd);
  const command = string("command");
  if (command) return command.split("\n")[0] + (command.includes("\n") ? " …" : "");
  const pattern = string("pattern");
  if (pattern) return `${pattern}${string("path") ? ` in ${displayPath(string("path"), cwd)}` : ""}`;
  const named = string("path") ?? string("url") ?? string("query") ?? string("skill") ?? string("description");
  if (named) return toolName === "LS" || toolName === "Glob" ? displayPath(named, cwd) : named;
  if (toolName === "TodoWrite" && Array.isArray(input?.todos)) return plural(input.todos.length, "item");
  const json = JSON.stringify(input ?? {});
  return json === "{}" ? "" : clip(json, 80);
}

/** A path inside the session's folder, relative to it; any other path as it is. */
export function displayPath(path, cwd) {
  if (!cwd || !path.startsWith("/")) return path;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  if (path === cwd || path === base) return ".";
  return path.startsWith(base) ? path.slice(base.length) : path;
}

/** A tool_result block's content as text (strings, or text and image blocks). */
export function resultText(content) {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content.map((block) => (block?.type === "text" ? (block.text ?? "") : `[${block?.type ?? "?"}]`)).join("\n");
}

/**
 * A tool result as the card shows it: `summary` (one line), `failed`, `output` (the full text,
 * shown expanded for errors and on demand otherwise) and `diff` (rows) for file changes.
 */
export function describeResult(toolName, input, block, details, cwd) {
  const text = resultText(block.content);
  const bash = bashShape(details);
  if (block.is_error) {
    if (bash && bash.exitCode !== undefined) {
      const output = [bash.stdout, bash.stderr].filter((part) => part.trim() !== "").join("\n").replace(/\n+$/, "");
      return { failed: true, summary: `exit ${bash.exitCode}${bash.interrupted ? " (interrupted)" : ""}`, output };
    }
    const message = text.replace(/<\/?tool_use_error>/g, "").trim();
    return { failed: true, summary: message.split("\n")[0] || "failed", output: message };
  }
  const patch = patchShape(details);
  if (patch) return describePatch(patch, input, cwd);
  if ((toolName === "Edit" || toolName === "MultiEdit") && details === undefined) return describeEditInput(input, cwd);
  return { failed: false, summary: summarize(toolName, text, bash, details), output: bash ? [bash.stdout, bash.stderr].filter((part) => part !== "").join("\n") : text };
}

function summarize(toolName, text, bash, details) {
  if (bash) {
    const output = [bash.stdout, bash.stderr].filter((part) => part !== "").join("\n");
    const exit = bash.exitCode !== undefined && bash.exitCode !== 0 ? `exit ${bash.exitCode}, ` : "";
    return output === "" ? `${exit}no output` : `${exit}${plural(countLines(output), "line")} of output`;
  }
  const file = details && typeof details === "object" ? details.file : undefined;
  if (file && typeof file === "object" && typeof details.type === "string") {
    return details.type === "image" ? "read an image" : `read ${plural(file.numLines ?? countLines(text), "line")}`;
  }
  if (text === "") return "done";
  if (toolName === "Read") return `read ${plural(countLines(text), "line")}`;
  const lines = countLines(text);
  return lines === 1 ? clip(text, 120) : plural(lines, "line");
}

function describePatch(patch, input, cwd) {
  const path = displayPath(patch.filePath ?? String(input?.file_path ?? ""), cwd);
  if (patch.structuredPatch.length === 0 && typeof patch.content === "string") {
    const lines = patch.content.replace(/\n$/, "").split("\n");
    return { failed: false, summary: `created ${path} (${plural(lines.length, "line")})`, diff: lines.map((line) => ({ kind: "add", text: `+${line}` })) };
  }
  const diff = diffRows(patch.structuredPatch);
  const added = diff.filter((row) => row.kind === "add").length;
  const removed = diff.filter((row) => row.kind === "del").length;
  return { failed: false, summary: `updated ${path}: +${added} -${removed}`, diff };
}

/** Structured-patch hunks as rows: a header per hunk, then its added, removed and context lines. */
export function diffRows(hunks) {
  return hunks.flatMap((hunk) => [
    { kind: "hunk", text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` },
    ...hunk.lines.map((line) => ({ kind: line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "context", text: line })),
  ]);
}

/** A stored session keeps no structured patch: the edit's own old and new text. */
function describeEditInput(input, cwd) {
  const edits = Array.isArray(input?.edits) ? input.edits : [input ?? {}];
  const diff = edits.flatMap((edit) => [
    ...String(edit.old_string ?? "").split("\n").map((line) => ({ kind: "del", text: `-${line}` })),
    ...String(edit.new_string ?? "").split("\n").map((line) => ({ kind: "add", text: `+${line}` })),
  ]);
  return { failed: false, summary: `updated ${displayPath(String(input?.file_path ?? ""), cwd)}`, diff };
}

function bashShape(details) {
  if (!details || typeof details !== "object" || typeof details.stdout !== "string" || typeof details.stderr !== "string") return undefined;
  return details;
}

function patchShape(details) {
  if (!details || typeof details !== "object" || !Array.isArray(details.structuredPatch)) return undefined;
  const valid = details.structuredPatch.every((hunk) => hunk && typeof hunk.oldStart === "number" && Array.isArray(hunk.lines));
  return valid ? details : undefined;
}

export function countLines(text) {
  return text.replace(/\n$/, "").split("\n").length;
}

export function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

export function clip(text, max) {
  const oneLine = text.replace(/\s*\n\s*/g, " ");
  return oneLine.length > max ? `${oneLine.slice(0, Math.max(1, max - 1))}…` : oneLine;
}
