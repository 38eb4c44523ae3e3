import * as z from "zod/mini";
import "../validation/english-issues.js";
import { defineTool } from "./define-tool.js";
import { lazySchema } from "../validation/lazy-schema.js";
import type { ToolResult } from "../conversation/tool-result.js";
import { editFile, editSuccessText } from "./edit/edit-file.js";
import { BUILTIN_TOOL_TRAITS } from "./builtin-tool-traits.js";

const description = `Makes several replacements in one file in a single call: all of them, or none.

- \`edits\` are applied in order, each to the result of the ones before it, so a later edit must match the text as the earlier edits left it.
- Each edit follows Edit's rules: \`old_string\` copied exactly and matching one place (or \`replace_all: true\`), new_string inserted literally, whitespace-only differences and nearly identical passages matched with a note saying which lines changed.
- If any edit fails, the file is left untouched and the error says which edit failed and why.
- Prefer it over several Edit calls on the same file. To create a file, use Write.
- \`file_path\` should be an absolute path; a relative path is resolved against the session's working directory.`;

const editSchema = lazySchema(() =>
  z.strictObject({
    old_string: z.string().check(z.describe("Text the file holds at this point, copied exactly, that is to change")),
    new_string: z.string().check(z.describe("What to put in its place")),
    replace_all: z
      ._default(z.boolean(), false)
      .check(z.describe("true: change every occurrence of old_string, not only one (default false)")),
  }),
);

const inputSchema = lazySchema(() =>
  z.strictObject({
    file_path: z.string().check(z.describe("Absolute path of the file to change")),
    edits: z.array(editSchema()).check(z.minLength(1), z.describe("Edits to apply in order; all succeed or none is applied")),
  }),
);

export const createMultiEditTool = () =>
  defineTool({
    name: "MultiEdit",
    description,
    get inputSchema() {
      return inputSchema();
    },
    ...BUILTIN_TOOL_TRAITS.MultiEdit,
    async execute(input, context): Promise<ToolResult> {
      const outcome = await editFile(
        context,
        input.file_path,
        input.edits.map((edit) => ({ oldString: edit.old_string, newString: edit.new_string, replaceAll: edit.replace_all })),
      );
      if (!outcome.ok) return outcome.result;
      const { edited } = outcome;
      return {
        content: editSuccessText(edited, input.edits.length),
        isError: false,
        details: {
          filePath: edited.filePath,
          edits: input.edits,
          originalFile: edited.originalFile,
          structuredPatch: edited.structuredPatch,
          userModified: false,
          ...(edited.fuzzyMatches.length > 0 ? { fuzzyMatches: edited.fuzzyMatches } : {}),
        },
      };
    },
  });
