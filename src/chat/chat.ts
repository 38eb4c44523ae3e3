import type { PermissionResult, PermissionUpdate } from "../../protocol/control.js";
import type { OutputEvent, SystemInitEvent } from "../../protocol/events.js";
import { EventQueue } from "../api/event-queue.js";
import { query, type CanUseTool, type Query, type QueryOptions } from "../api/query.js";
import { renderSession } from "../api/sessions.js";
import { createStyle, type Style } from "../render/style.js";
import { parseCommand, runCommand, type ChatTotals, type CommandHost } from "./commands.js";
import { EventPrinter } from "./event-printer.js";
import { ExitGuard } from "./exit-guard.js";
import { ChatHistory } from "./history.js";
import { inputArea, PROMPT, questionArea } from "./input-area.js";
import { LineEditor, type EditorAction, type Key } from "./line-editor.js";
import { permissionQuestion, type OpenQuestion } from "./permission-question.js";
import { Screen } from "./screen.js";
import { listenToKeys, listenToLines } from "./terminal-input.js";

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

type State = "idle" | "running" | "question" | "exiting";

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
  private printer!: EventPrinter;
  private running!: { query: Query; prompts: EventQueue<string>; pump: Promise<void>; stopped: boolean };
  private init: SystemInitEvent | undefined;
  private shownSession: string | undefined;
  private question: OpenQuestion | undefined;
  private readonly exitGuard: ExitGuard;
  /** Gives the terminal back (raw mode, bracketed paste) when the chat ends. */
  private releaseTerminal = (): void => {};
  private readonly allowedInChat: string[] = [];
  private readonly totals: ChatTotals = { turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
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
    this.exitGuard = new ExitGuard(() => this.screen.print([this.style.dim("Press Ctrl+C again to exit.")]));
  }

  /** Runs until /exit, Ctrl+D, two Ctrl+C or the end of input; resolves with the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finished = resolve));
    const { queryOptions } = this.options;
    // Raw mode first: keys typed while the chat starts are not echoed by the terminal.
    if (this.options.fancy)
      this.releaseTerminal = listenToKeys(this.options.input, this.options.output, (character, key) => this.onKey(character, key));
    else this.listenToLines();
    this.screen.print([
      this.style.dim(`agentwire chat · ${queryOptions.model ?? "default model"} · ${queryOptions.cwd ?? process.cwd()}`),
      this.style.dim("/help for commands · Esc interrupts · Ctrl+D exits"),
    ]);
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
    this.printer = new EventPrinter(this.screen, this.style, this.options.color, () => this.width);
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
    if (event.type === "system" && event.subtype === "init") {
      this.init = event;
      // A resumed session starts again: its init line was shown once already.
      if (this.shownSession === event.session_id) return;
      this.shownSession = event.session_id;
    }
    if (event.type !== "result") {
      const status = this.printer.print(event);
      if (status) this.status(status);
      return;
    }
    this.printer.finishStreamedText();
    this.totals.turns += event.num_turns > 0 ? 1 : 0;
    this.totals.inputTokens += event.usage.input_tokens + event.usage.cache_read_input_tokens + event.usage.cache_creation_input_tokens;
    this.totals.outputTokens += event.usage.output_tokens;
    this.totals.costUsd = event.total_cost_usd;
    if (this.state === "running" || this.state === "question") {
      this.state = "idle";
      this.screen.setBottom(undefined);
    }
    this.printer.print(event);
    this.exitGuard.turnEnded();
    this.showInput();
    this.takeQueuedLine();
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

  private ask(
    toolName: string,
    input: Record<string, unknown>,
    context: { signal: AbortSignal; suggestions: PermissionUpdate[]; decisionReason: string },
  ): Promise<PermissionResult> {
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
      const onAbort = (): void =>
        settle(
          { behavior: "deny", message: "Interrupted before approval." },
          this.style.dim("  (question withdrawn: the turn was interrupted)"),
        );
      context.signal.addEventListener("abort", onAbort, { once: true });
      const request = {
        toolName,
        call: this.printer.describeCall(toolName, input),
        decisionReason: context.decisionReason,
        suggestions: context.suggestions,
      };
      this.question = permissionQuestion(request, this.style, settle, () => this.allowedInChat.push(toolName));
      this.state = "question";
      this.showInput();
      this.takeQueuedLine();
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Input

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
        if (this.exitGuard.confirms()) {
          void this.exit(0);
          return;
        }
        this.exitGuard.armDuringTurn();
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
    listenToLines(this.options.input, {
      line: (line) => {
        this.queuedLines.push(line);
        this.takeQueuedLine();
      },
      end: () => {
        this.inputEnded = true;
        this.takeQueuedLine();
      },
      interrupt: () => {
        if (this.state === "running") void this.interrupt();
        else void this.exit(130);
      },
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
    if (this.exitGuard.confirms()) {
      void this.exit(0);
      return true;
    }
    this.exitGuard.arm();
    return false;
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
      this.screen.setBottom(questionArea(this.question.lines, this.width));
      return;
    }
    if (this.state !== "idle") return;
    this.turnStarted = 0;
    if (!this.options.fancy) {
      this.screen.setBottom(undefined);
      return;
    }
    this.screen.setBottom(inputArea(this.editor.text, this.editor.cursor, this.init?.slash_commands ?? [], this.style));
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
    // A prompt is sent at once: the next typed-ahead line must find the turn running.
    const command = parseCommand(text);
    if (command) await runCommand(command, text, shown, this.commandHost());
    else this.send(text, shown);
  }

  /** The chat as its commands see it. */
  private commandHost(): CommandHost {
    return {
      style: this.style,
      queryOptions: this.options.queryOptions,
      init: this.init,
      query: this.running.query,
      totals: this.totals,
      allowedInChat: this.allowedInChat,
      permissionMode: this.permissionMode,
      setPermissionMode: async (mode) => {
        await this.running.query.setPermissionMode(mode as never);
        this.permissionMode = mode;
      },
      print: (lines) => this.print(lines),
      send: (text, shown) => this.send(text, shown),
      exit: (code) => this.exit(code),
      resume: (sessionId) => this.resume(sessionId),
    };
  }

  /** Leaves the current session for a stored one: its transcript, then its next turn here. */
  private async resume(sessionId: string): Promise<void> {
    await this.stop();
    const { resume: _resume, continue: _continue, sessionId: _sessionId, forkSession: _fork, ...rest } = this.options.queryOptions;
    await this.showStoredSession(sessionId);
    this.init = undefined;
    this.start({ ...rest, resume: sessionId });
    this.shownSession = sessionId;
    this.showInput();
  }

  private async showStoredSession(sessionId: string): Promise<void> {
    const lines = await renderSession(sessionId, {
      cwd: this.options.queryOptions.cwd ?? process.cwd(),
      env: this.options.queryOptions.env ?? process.env,
      width: this.width,
      color: this.options.color,
    });
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
    this.releaseTerminal();
    this.options.input.pause();
    this.finished(code);
  }
}
