import { emitKeypressEvents } from "node:readline";
import { createInterface } from "node:readline";
import type { PermissionResult, PermissionUpdate } from "../../protocol/control.js";
import type { OutputEvent, SystemInitEvent } from "../../protocol/events.js";
import { EventQueue } from "../api/event-queue.js";
import { query, type CanUseTool, type Query, type QueryOptions } from "../api/query.js";
import { listSessions, renderSession } from "../api/sessions.js";
import { createStyle, type Style } from "../render/style.js";
import { TranscriptRenderer } from "../render/transcript-renderer.js";
import { ChatHistory } from "./history.js";
import { LineEditor, type EditorAction, type Key } from "./line-editor.js";
import { Screen } from "./screen.js";
import { StreamedText } from "./streamed-text.js";
import { matchingCommands, SLASH_COMMANDS } from "./slash-commands.js";

export interface ChatOptions {
  /** The session's settings (from the command line); the chat adds the prompt stream and the approver. */
  queryOptions: QueryOptions;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** A terminal with cursor control: raw keys, redrawn input area, spinner. Otherwise plain lines. */
  fancy: boolean;
  color: boolean;
  historyFile: string;
  /** Sent as soon as the chat starts (`agentwire chat "prompt"`). */
  firstPrompt?: string;
}

/** Two Ctrl+C within this time leave the chat. */
const EXIT_CONFIRM_MS = 2000;
const MENU_ROWS = 10;
const PROMPT = "> ";

type State = "idle" | "running" | "question" | "exiting";

interface OpenQuestion {
  answer(key: string): boolean;
  lines: string[];
}

/**
 * `agentwire chat`: a person at a terminal talking to one session, through the library API
 * (`query()` with a stream of prompts and `canUseTool`) and the transcript renderer. Streamed text
 * is written as it arrives; tool calls, diffs and results as the renderer shows them; permission
 * questions inline. Every write goes through one Screen, so the spinner, the streamed text and
 * the input area never overwrite each other.
 */
export class Chat {
  private state: State = "idle";
  private readonly screen: Screen;
  private readonly style: Style;
  private readonly editor: LineEditor;
  private readonly history: ChatHistory;
  private renderer!: TranscriptRenderer;
  private running!: { query: Query; prompts: EventQueue<string>; pump: Promise<void>; stopped: boolean };
  private init: SystemInitEvent | undefined;
  private shownSession: string | undefined;
  /** The answer streaming now, if one is. */
  private streamed: StreamedText | undefined;
  /** The first Ctrl+C of a running turn: "press again" is said once the interrupted turn has ended. */
  private exitNoticeAfterTurn = false;
  private question: OpenQuestion | undefined;
  private exitArmedAt = 0;
  private readonly allowedInChat: string[] = [];
  private totals = { turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  private permissionMode: string;
  private queuedLines: string[] = [];
  private inputEnded = false;
  private finished!: (code: number) => void;

  constructor(private readonly options: ChatOptions) {
    this.style = createStyle(options.color);
    this.screen = new Screen(options.output, options.fancy, this.style.dim);
    this.history = new ChatHistory(options.historyFile);
    this.editor = new LineEditor(this.history.load(), () => this.init?.slash_commands ?? []);
    this.permissionMode = options.queryOptions.permissionMode ?? "default";
  }

  /** Runs until /exit, Ctrl+D, two Ctrl+C or the end of input; resolves with the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finished = resolve));
    const { queryOptions } = this.options;
    // Raw mode first: keys typed while the chat starts are not echoed by the terminal.
    if (this.options.fancy) this.listenToKeys();
    else this.listenToLines();
    this.screen.print([this.style.dim(`agentwire chat · ${queryOptions.model ?? "default model"} · ${queryOptions.cwd ?? process.cwd()}`), this.style.dim("/help for commands · Esc interrupts · Ctrl+D exits")]);
    if (queryOptions.resume) await this.showStoredSession(queryOptions.resume);
    this.start(queryOptions);
    this.showInput();
    if (this.options.firstPrompt) void this.submit(this.options.firstPrompt, this.options.firstPrompt);
    return done;
  }

  // ---------------------------------------------------------------------------------------------
  // The session

  private start(queryOptions: QueryOptions): void {
    const prompts = new EventQueue<string>();
    const canUseTool: CanUseTool = (toolName, input, context) => this.ask(toolName, input, context);
    const running = query({ prompt: prompts, options: { ...queryOptions, includePartialMessages: true, canUseTool } });
    this.renderer = new TranscriptRenderer({ width: this.width, color: this.options.color });
    const session = { query: running, prompts, pump: Promise.resolve(), stopped: false };
    this.running = session;
    const pump = (async () => {
      for await (const event of running) this.onEvent(event);
      // A session that could not start, or that ended by itself: nothing more to talk to.
      if (this.state !== "exiting" && !session.stopped) {
        this.screen.print([this.style.red("The session ended; leaving the chat.")]);
        void this.exit(1);
      }
    })();
    session.pump = pump;
  }

  /** Ends the current session (its running turn is interrupted and still recorded). */
  private async stop(): Promise<void> {
    this.running.stopped = true;
    this.running.prompts.end();
    this.running.query.close();
    await Promise.race([this.running.pump, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  }

  private onEvent(event: OutputEvent): void {
    switch (event.type) {
      case "system":
        if (event.subtype === "init") {
          this.init = event;
          if (this.shownSession === event.session_id) return;
          this.shownSession = event.session_id;
        }
        break;
      case "stream_event": {
        const raw = event.event as { type: string; delta?: { type?: string; text?: string }; content_block?: { type?: string; name?: string } };
        if (raw.type === "content_block_delta" && raw.delta?.type === "text_delta" && raw.delta.text) {
          // One column spare: a line that fills the terminal's width would wrap on its own.
          this.streamed ??= new StreamedText(this.width - 1, this.style);
          const { final, preview } = this.streamed.add(raw.delta.text);
          this.screen.print(final);
          this.screen.preview(preview);
        } else if (raw.type === "content_block_start" && raw.content_block?.type === "thinking") this.status("Thinking…");
        else if (raw.type === "content_block_start" && raw.content_block?.type === "tool_use") this.status(`Preparing ${raw.content_block.name ?? "a tool call"}…`);
        return;
      }
      case "assistant": {
        const [block] = event.message.content;
        if (block.type === "text" && this.streamed && !event.error) {
          // Already on the screen, as it streamed, but for its last line.
          this.finishStreamedText();
          this.renderer.assistantShownElsewhere();
          return;
        }
        this.finishStreamedText();
        if (block.type === "tool_use") {
          this.screen.print(this.renderer.render({ kind: "event", event }));
          this.status(`Running ${block.name}…`);
          return;
        }
        break;
      }
      case "result": {
        this.finishStreamedText();
        this.totals.turns += event.num_turns > 0 ? 1 : 0;
        this.totals.inputTokens += event.usage.input_tokens + event.usage.cache_read_input_tokens + event.usage.cache_creation_input_tokens;
        this.totals.outputTokens += event.usage.output_tokens;
        this.totals.costUsd = event.total_cost_usd;
        if (this.state === "running" || this.state === "question") {
          this.state = "idle";
          this.screen.setBottom(undefined);
        }
        this.screen.print(this.renderer.render({ kind: "event", event }).map((line) => this.style.dim(line)));
        if (this.exitNoticeAfterTurn) this.armExit();
        this.showInput();
        this.takeQueuedLine();
        return;
      }
      default:
        break;
    }
    this.screen.print(this.renderer.render({ kind: "event", event }));
  }

  private finishStreamedText(): void {
    if (!this.streamed) return;
    const rest = this.streamed.finish();
    this.streamed = undefined;
    this.screen.preview([]);
    this.screen.print(rest);
  }

  private send(text: string, shown: string): void {
    // The status line replaces the input area first, so the echo below is not followed by a stale input.
    this.state = "running";
    this.status("Working…");
    this.screen.print(["", ...shown.split("\n").map((line, index) => this.style.bold(`${index === 0 ? PROMPT : "  "}${line}`))]);
    this.running.prompts.push(text);
  }

  private status(text: string): void {
    if (this.state === "running") this.screen.setBottom({ kind: "status", text, startedAt: this.turnStartedAt() });
  }

  private turnStarted = 0;
  private turnStartedAt(): number {
    if (this.turnStarted === 0) this.turnStarted = Date.now();
    return this.turnStarted;
  }

  // ---------------------------------------------------------------------------------------------
  // Permission questions, inline

  private ask(toolName: string, input: Record<string, unknown>, context: { signal: AbortSignal; suggestions: PermissionUpdate[]; decisionReason: string }): Promise<PermissionResult> {
    return new Promise((resolve) => {
      const settle = (result: PermissionResult, note: string): void => {
        context.signal.removeEventListener("abort", onAbort);
        this.question = undefined;
        if (this.state === "question") this.state = "running";
        // The status replaces the question first, so the note is not followed by a stale question.
        this.status(`Running ${toolName}…`);
        this.screen.print([note]);
        resolve(result);
      };
      const always: PermissionUpdate[] = context.suggestions.length > 0 ? context.suggestions : [{ type: "addRules", rules: [{ toolName }], behavior: "allow" }];
      const onAbort = (): void => settle({ behavior: "deny", message: "Interrupted before approval." }, this.style.dim("  (question withdrawn: the turn was interrupted)"));
      context.signal.addEventListener("abort", onAbort, { once: true });
      this.question = {
        lines: [this.style.yellow(`? Allow ${this.renderer.describeCall(toolName, input)}?`), ...(context.decisionReason ? [this.style.dim(`  ${context.decisionReason}`)] : []), `  ${this.style.bold("y")} allow once · ${this.style.bold("a")} always allow ${toolName} in this chat · ${this.style.bold("n")} deny`],
        answer: (key) => {
          if (key === "y") settle({ behavior: "allow" }, this.style.green(`  ✓ ${toolName} allowed once`));
          else if (key === "a") {
            this.allowedInChat.push(toolName);
            settle({ behavior: "allow", updatedPermissions: always }, this.style.green(`  ✓ ${toolName} allowed for the rest of this chat`));
          } else if (key === "n" || key === "escape") settle({ behavior: "deny", message: "The user denied this call." }, this.style.red(`  ✗ ${toolName} denied`));
          else return false;
          return true;
        },
      };
      this.state = "question";
      this.showInput();
      this.takeQueuedLine();
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Input

  private listenToKeys(): void {
    const { input } = this.options;
    // A lone Esc is told from the start of an escape sequence after 50 ms.
    emitKeypressEvents(input, { escapeCodeTimeout: 50 } as never);
    input.setRawMode(true);
    // Bracketed paste: the terminal marks pasted text, so a paste never submits by itself.
    this.options.output.write("\u001b[?2004h");
    input.on("keypress", (character: string | undefined, key: Key | undefined) => this.onKey(character, key ?? { sequence: character }));
    input.resume();
  }

  private onKey(character: string | undefined, key: Key): void {
    if (this.state === "exiting") return;
    if (this.state === "question") {
      const name = key.ctrl && key.name === "c" ? "n" : (key.name ?? character ?? "");
      if (this.question?.answer(name === "escape" ? "escape" : name.toLowerCase()) && key.ctrl) void this.running.query.interrupt();
      return;
    }
    if (this.state === "running") {
      if (key.name === "escape") void this.interrupt();
      else if (key.ctrl && key.name === "c") {
        if (Date.now() - this.exitArmedAt < EXIT_CONFIRM_MS) {
          void this.exit(0);
          return;
        }
        // Said after the interrupted turn's last lines (its tool's, its result), not above them.
        this.exitArmedAt = Date.now();
        this.exitNoticeAfterTurn = true;
        void this.interrupt();
      }
      return;
    }
    const action: EditorAction = this.editor.handle(character, key);
    switch (action.type) {
      case "submit":
        void this.submit(action.text, action.shown);
        return;
      case "cancel":
        if (this.editor.text !== "") {
          this.editor.handle(undefined, { name: "u", ctrl: true });
          this.editor.handle(undefined, { name: "k", ctrl: true });
          while (this.editor.text !== "") this.editor.handle(undefined, { name: "backspace" });
        } else if (this.confirmExit()) return;
        break;
      case "eof":
        void this.exit(0);
        return;
      default:
        break;
    }
    this.showInput();
  }

  /** Plain mode: each input line is a message, a command, or the answer to an open question. */
  private listenToLines(): void {
    const lines = createInterface({ input: this.options.input, terminal: false });
    lines.on("line", (line) => {
      this.queuedLines.push(line);
      this.takeQueuedLine();
    });
    lines.on("close", () => {
      this.inputEnded = true;
      this.takeQueuedLine();
    });
    process.on("SIGINT", () => {
      if (this.state === "running") void this.interrupt();
      else void this.exit(130);
    });
  }

  private takeQueuedLine(): void {
    if (this.options.fancy) return;
    if (this.state === "question" && this.queuedLines.length > 0) {
      const line = this.queuedLines.shift()!.trim().toLowerCase();
      if (!this.question?.answer(line.slice(0, 1))) this.screen.print([this.style.dim("  answer y, a or n")]);
      return;
    }
    if (this.state !== "idle") return;
    const line = this.queuedLines.shift();
    if (line !== undefined) void this.submit(line, line);
    else if (this.inputEnded) void this.exit(0);
  }

  private confirmExit(): boolean {
    if (Date.now() - this.exitArmedAt < EXIT_CONFIRM_MS) {
      void this.exit(0);
      return true;
    }
    this.armExit();
    return false;
  }

  /** The next Ctrl+C within EXIT_CONFIRM_MS leaves; counted from when the user is told so. */
  private armExit(): void {
    this.exitNoticeAfterTurn = false;
    this.exitArmedAt = Date.now();
    this.screen.print([this.style.dim("Press Ctrl+C again to exit.")]);
  }

  private async interrupt(): Promise<void> {
    this.status("Interrupting…");
    await this.running.query.interrupt();
  }

  private showInput(): void {
    if (this.state === "question" && this.question) {
      if (!this.options.fancy) {
        this.screen.print(this.question.lines);
        return;
      }
      const lines = this.question.lines;
      this.screen.setBottom({ kind: "input", lines, cursorRow: lines.length - 1, cursorColumn: Math.min(lines.at(-1)!.length, this.width - 1) });
      return;
    }
    if (this.state !== "idle") return;
    this.turnStarted = 0;
    if (!this.options.fancy) {
      this.screen.setBottom(undefined);
      return;
    }
    const textLines = this.editor.text.split("\n");
    const before = this.editor.text.slice(0, this.editor.cursor).split("\n");
    const menu = matchingCommands(this.editor.text, this.init?.slash_commands ?? [])
      .slice(0, MENU_ROWS)
      .map((name) => this.style.dim(`  ${name.padEnd(14)} ${SLASH_COMMANDS.find((command) => command.name === name)?.description ?? "skill"}`));
    this.screen.setBottom({
      kind: "input",
      lines: [...textLines.map((line, index) => `${index === 0 ? PROMPT : "  "}${line}`), ...(menu.length === 1 && `${textLines[0]} ` === menu[0] ? [] : menu)],
      cursorRow: before.length - 1,
      cursorColumn: PROMPT.length + before.at(-1)!.length,
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Commands

  private async submit(text: string, shown: string): Promise<void> {
    if (text.trim() === "") {
      this.showInput();
      return;
    }
    this.editor.remember(text);
    this.history.append(text);
    const command = /^\/([\w:-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (!command) {
      this.send(text, shown);
      return;
    }
    const [, name, argument = ""] = command;
    switch (`/${name}`) {
      case "/help":
        this.print([...SLASH_COMMANDS.map((entry) => `  ${entry.usage.padEnd(22)} ${entry.description}`), "", "  Esc interrupts the running turn (the session stays) · Ctrl+C twice or Ctrl+D exits", "  Enter sends · \\ then Enter, Alt+Enter or Ctrl+J: a new line · Up/Down: history · Tab completes a command"]);
        return;
      case "/exit":
      case "/quit":
        await this.exit(0);
        return;
      case "/model":
        if (argument.trim() === "") this.print([`Model: ${this.init?.model ?? this.options.queryOptions.model ?? "the default"}${this.init ? ` (${this.init.provider})` : ""}. /model NAME switches from the next request.`]);
        else {
          await this.running.query.setModel(argument.trim());
          this.print([`Model set to ${argument.trim()} from the next request.`]);
        }
        return;
      case "/compact":
      case "/clear":
        this.send(text.trim(), text.trim());
        return;
      case "/cost": {
        const { turns, inputTokens, outputTokens, costUsd } = this.totals;
        this.print([`This chat: ${turns} turn${turns === 1 ? "" : "s"} · ${inputTokens.toLocaleString("en-US")} tokens in, ${outputTokens.toLocaleString("en-US")} out · session cost $${costUsd.toFixed(4)}`]);
        return;
      }
      case "/skills": {
        const skills = this.init?.skills ?? [];
        this.print(this.init ? (skills.length > 0 ? skills.map((skill) => `  ${skill}`) : ["No skills in this session (SKILL.md folders: .agentwire/skills, ~/.agentwire/skills)."]) : ["The session lists its skills when the first turn starts; ask something first."]);
        return;
      }
      case "/permissions":
        if (argument.trim() !== "") {
          try {
            await this.running.query.setPermissionMode(argument.trim() as never);
            this.permissionMode = argument.trim();
          } catch {
            this.print([this.style.red(`Unknown permission mode ${argument.trim()}: default, acceptEdits, plan, bypassPermissions.`)]);
            return;
          }
        }
        this.print([`Permission mode: ${this.permissionMode}`, `Always allowed in this chat: ${this.allowedInChat.length > 0 ? this.allowedInChat.join(", ") : "nothing yet (answer a with a question)"}`]);
        return;
      case "/sessions":
        this.print(this.sessionLines());
        return;
      case "/resume":
        await this.resume(argument.trim());
        return;
      default:
        if (this.init?.slash_commands.includes(name!)) {
          this.send(text.trim(), shown);
          return;
        }
        this.print([this.style.red(`Unknown command /${name}; /help lists them.`)]);
    }
  }

  private sessionLines(): string[] {
    const sessions = listSessions({ cwd: this.options.queryOptions.cwd ?? process.cwd(), env: this.options.queryOptions.env ?? process.env }).slice(0, 20);
    if (sessions.length === 0) return ["No stored sessions in this directory."];
    return sessions.map((session, index) => `${String(index + 1).padStart(3)}  ${session.updatedAt.slice(0, 16).replace("T", " ")}  ${String(session.turns).padStart(3)} turn${session.turns === 1 ? " " : "s"}  ${session.sessionId.slice(0, 8)}  ${session.title}`);
  }

  private async resume(target: string): Promise<void> {
    const sessions = listSessions({ cwd: this.options.queryOptions.cwd ?? process.cwd(), env: this.options.queryOptions.env ?? process.env });
    if (target === "") {
      this.print([...this.sessionLines(), "", "/resume N (a number above) or /resume ID continues one."]);
      return;
    }
    const byNumber = /^\d+$/.test(target) ? sessions[Number(target) - 1] : undefined;
    const session = byNumber ?? sessions.find((candidate) => candidate.sessionId === target || candidate.sessionId.startsWith(target));
    if (!session) {
      this.print([this.style.red(`No session ${target} here; /sessions lists them.`)]);
      return;
    }
    if (session.sessionId === this.init?.session_id) {
      this.print(["That is this session."]);
      return;
    }
    await this.stop();
    const { resume: _resume, continue: _continue, sessionId: _sessionId, forkSession: _fork, ...rest } = this.options.queryOptions;
    await this.showStoredSession(session.sessionId);
    this.init = undefined;
    this.start({ ...rest, resume: session.sessionId });
    this.shownSession = session.sessionId;
    this.showInput();
  }

  private async showStoredSession(sessionId: string): Promise<void> {
    const lines = await renderSession(sessionId, { cwd: this.options.queryOptions.cwd ?? process.cwd(), env: this.options.queryOptions.env ?? process.env, width: this.width, color: this.options.color });
    if (lines) this.screen.print([...lines, this.style.dim(`── resumed session ${sessionId} ──`), ""]);
  }

  /** The output of a chat command; then the next typed-ahead line, if any (plain mode). */
  private print(lines: string[]): void {
    this.screen.print(lines);
    this.showInput();
    setImmediate(() => this.takeQueuedLine());
  }

  private get width(): number {
    return this.options.output.columns && this.options.output.columns > 0 ? this.options.output.columns : 100;
  }

  async exit(code: number): Promise<void> {
    if (this.state === "exiting") return;
    this.state = "exiting";
    this.screen.close();
    await this.stop();
    if (this.options.fancy) {
      this.options.output.write("\u001b[?2004l");
      this.options.input.setRawMode(false);
    }
    this.options.input.pause();
    this.finished(code);
  }
}
