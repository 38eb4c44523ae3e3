import type { SystemInitEvent } from "../../protocol/events.js";
import type { Query, QueryOptions } from "../api/query.js";
import { listSessions, type SessionSummary } from "../api/sessions.js";
import type { Style } from "../render/style.js";
import { SLASH_COMMANDS } from "./slash-commands.js";

/** What the chat's commands read and do: the chat as they see it. */
export interface CommandHost {
  readonly style: Style;
  readonly queryOptions: QueryOptions;
  /** The session's init line, once its first turn has started. */
  readonly init: SystemInitEvent | undefined;
  readonly query: Query;
  readonly totals: ChatTotals;
  readonly allowedInChat: readonly string[];
  readonly permissionMode: string;
  /** Switches the session's mode; throws for an unknown one. */
  setPermissionMode(mode: string): Promise<void>;
  /** Output of a command, then the input again. */
  print(lines: string[]): void;
  /** To the model as a prompt (`shown` is what the screen echoes). */
  send(text: string, shown: string): void;
  exit(code: number): Promise<void>;
  /** Leaves the current session for a stored one. */
  resume(sessionId: string): Promise<void>;
}

export interface ChatTotals {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

const HELP_FOOTER = [
  "",
  "  Esc interrupts the running turn (the session stays) · Ctrl+C twice or Ctrl+D exits",
  "  Enter sends · \\ then Enter, Alt+Enter or Ctrl+J: a new line · Up/Down: history · Tab completes a command",
];

/** A line that names a command: `/name` and what follows it. */
export function parseCommand(text: string): { name: string; argument: string } | undefined {
  const command = /^\/([\w:-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return command ? { name: command[1]!, argument: (command[2] ?? "").trim() } : undefined;
}

/**
 * A command typed in the chat: the chat's own, the session's (/compact, /clear, skills) sent on
 * as prompts, anything else refused.
 */
export async function runCommand(
  { name, argument }: { name: string; argument: string },
  text: string,
  shown: string,
  host: CommandHost,
): Promise<void> {
  const { style } = host;
  switch (`/${name}`) {
    case "/help":
      host.print([...SLASH_COMMANDS.map((entry) => `  ${entry.usage.padEnd(22)} ${entry.description}`), ...HELP_FOOTER]);
      break;
    case "/exit":
    case "/quit":
      await host.exit(0);
      break;
    case "/model":
      if (argument === "") {
        host.print([
          `Model: ${host.init?.model ?? host.queryOptions.model ?? "the default"}${host.init ? ` (${host.init.provider})` : ""}. /model NAME switches from the next request.`,
        ]);
      } else {
        await host.query.setModel(argument);
        host.print([`Model set to ${argument} from the next request.`]);
      }
      break;
    case "/compact":
    case "/clear":
      host.send(text.trim(), text.trim());
      break;
    case "/cost": {
      const { turns, inputTokens, outputTokens, costUsd } = host.totals;
      host.print([
        `This chat: ${turns} turn${turns === 1 ? "" : "s"} · ${inputTokens.toLocaleString("en-US")} tokens in, ${outputTokens.toLocaleString("en-US")} out · session cost $${costUsd.toFixed(4)}`,
      ]);
      break;
    }
    case "/skills": {
      const skills = host.init?.skills ?? [];
      if (!host.init) host.print(["The session lists its skills when the first turn starts; ask something first."]);
      else
        host.print(
          skills.length > 0
            ? skills.map((skill) => `  ${skill}`)
            : ["No skills in this session (SKILL.md folders: .agentwire/skills, ~/.agentwire/skills)."],
        );
      break;
    }
    case "/permissions":
      await permissions(argument, host);
      break;
    case "/sessions":
      host.print(sessionLines(storedSessions(host)));
      break;
    case "/resume":
      await resume(argument, host);
      break;
    default:
      if (host.init?.slash_commands.includes(name)) host.send(text.trim(), shown);
      else host.print([style.red(`Unknown command /${name}; /help lists them.`)]);
  }
}

async function permissions(mode: string, host: CommandHost): Promise<void> {
  if (mode !== "") {
    try {
      await host.setPermissionMode(mode);
    } catch {
      host.print([host.style.red(`Unknown permission mode ${mode}: default, acceptEdits, plan, bypassPermissions.`)]);
      return;
    }
  }
  const allowed = host.allowedInChat.length > 0 ? host.allowedInChat.join(", ") : "nothing yet (answer a with a question)";
  host.print([`Permission mode: ${mode === "" ? host.permissionMode : mode}`, `Always allowed in this chat: ${allowed}`]);
}

function storedSessions(host: CommandHost): SessionSummary[] {
  return listSessions({ cwd: host.queryOptions.cwd ?? process.cwd(), env: host.queryOptions.env ?? process.env });
}

/** The 20 most recent, numbered for /resume N. */
function sessionLines(sessions: SessionSummary[]): string[] {
  if (sessions.length === 0) return ["No stored sessions in this directory."];
  return sessions
    .slice(0, 20)
    .map(
      (session, index) =>
        `${String(index + 1).padStart(3)}  ${session.updatedAt.slice(0, 16).replace("T", " ")}  ${String(session.turns).padStart(3)} turn${session.turns === 1 ? " " : "s"}  ${session.sessionId.slice(0, 8)}  ${session.title}`,
    );
}

/** `/resume` lists; `/resume N` or `/resume ID` (a prefix will do) continues one. */
async function resume(target: string, host: CommandHost): Promise<void> {
  const sessions = storedSessions(host);
  if (target === "") {
    host.print([...sessionLines(sessions), "", "/resume N (a number above) or /resume ID continues one."]);
    return;
  }
  const byNumber = /^\d+$/.test(target) ? sessions[Number(target) - 1] : undefined;
  const session = byNumber ?? sessions.find((candidate) => candidate.sessionId === target || candidate.sessionId.startsWith(target));
  if (!session) host.print([host.style.red(`No session ${target} here; /sessions lists them.`)]);
  else if (session.sessionId === host.init?.session_id) host.print(["That is this session."]);
  else await host.resume(session.sessionId);
}
