import type { PermissionResult, PermissionUpdate } from "../../protocol/control.js";
import type { Style } from "../render/style.js";

/** A permission question on screen: its lines, and what a key does (false: not an answer). */
export interface OpenQuestion {
  lines: string[];
  answer(key: string): boolean;
}

export interface QuestionRequest {
  toolName: string;
  /** The call in a few words ("Write notes.txt"). */
  call: string;
  decisionReason: string;
  /** The rules the session offers for "always"; none: allow the tool by name. */
  suggestions: PermissionUpdate[];
}

/**
 * The chat's inline question for one tool call: y allows once, a always (for the rest of the
 * chat), n or Esc denies. `settle` receives the answer and the line that records it.
 */
export function permissionQuestion(
  request: QuestionRequest,
  style: Style,
  settle: (result: PermissionResult, note: string) => void,
  onAlways: () => void,
): OpenQuestion {
  const { toolName } = request;
  const always: PermissionUpdate[] =
    request.suggestions.length > 0 ? request.suggestions : [{ type: "addRules", rules: [{ toolName }], behavior: "allow" }];
  return {
    lines: [
      style.yellow(`? Allow ${request.call}?`),
      ...(request.decisionReason ? [style.dim(`  ${request.decisionReason}`)] : []),
      `  ${style.bold("y")} allow once · ${style.bold("a")} always allow ${toolName} in this chat · ${style.bold("n")} deny`,
    ],
    answer: (key) => {
      if (key === "y") settle({ behavior: "allow" }, style.green(`  ✓ ${toolName} allowed once`));
      else if (key === "a") {
        onAlways();
        settle({ behavior: "allow", updatedPermissions: always }, style.green(`  ✓ ${toolName} allowed for the rest of this chat`));
      } else if (key === "n" || key === "escape")
        settle({ behavior: "deny", message: "The user denied this call." }, style.red(`  ✗ ${toolName} denied`));
      else return false;
      return true;
    },
  };
}
