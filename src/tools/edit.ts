import * as z from "zod/mini";
import "../validation/english-issues.js";
import { defineTool } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { editFile, editSuccessText } from "./edit/edit-file.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";

const description = `Replaces text in an existing file: old_string with new_string.

- \`old_string\` should be copied exactly from the file, indentation included, without the line-number prefix Read shows (the number and the tab before the text).
- It must identify one place: an old_string that occurs more than once fails unless \`replace_all\` is true; include a few surrounding lines to make it unique.
- \`replace_all: true\` replaces every exact occurrence (useful for renaming).
- If old_string is not found exactly, a match that differs only in whitespace, or one nearly identical unique passage, is used instead, and the result says which lines it changed. Anything less certain fails with the closest lines of the file.
- new_string is inserted literally. Files with Windows (CRLF) line endings keep them.
- To create a file or replace all of it, use Write.
- \`file_path\` should be an absolute path; a relative path is resolved against the session's working directory.`;

const inputSchema = lazySchema(() =>
  z.strictObject({
    file_path: z.string().check(z.describe("Absolute path of the file to change")),
    old_string: z.string().check(z.describe("Text now in the file, copied exactly, that is to change")),
    new_string: z.string().check(z.describe("What to put in its place; not the same as old_string")),
    replace_all: z
      ._default(z.boolean(), false)
      .check(z.describe("true: change every occurrence of old_string, not only one (default false)")),
  }),
);

export const createEditTool = () =>
  defineTool({
    name: "Edit",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.Edit,
    async execute(input, context): Promise<ToolResult> {
      const outcome = await editFile(context, input.file_path, [
        { oldString: input.old_string, newString: input.new_string, replaceAll: input.replace_all },
      ]);
      if (!outcome.ok) return outcome.result;
      const { edited } = outcome;
      const fuzzyMatch = edited.fuzzyMatches[0]?.note;
      return {
        content: editSuccessText(edited, 1),
        isError: false,
        details: {
          filePath: edited.filePath,
          oldString: input.old_string,
          newString: input.new_string,
          originalFile: edited.originalFile,
          structuredPatch: edited.structuredPatch,
          userModified: false,
          replaceAll: input.replace_all,
          // agentwire extension: present only when old_string was matched inexactly.
          ...(fuzzyMatch ? { fuzzyMatch } : {}),
        },
      };
    },
  });
