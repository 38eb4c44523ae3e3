import {
  AssistantShape,
  PermissionRequestShape,
  ResultShape,
  SystemShape,
  TaskEventShape,
  UserShape,
  type ToolResult,
  type ToolUse,
} from "./event-shapes.js";
import { renderMarkdown } from "./markdown.js";
import {
  describeCall,
  describeResult,
  isAgentTool,
  isAsyncLaunch,
  keyArgument,
  linkLine,
  type DiffRow,
  type SearchLink,
  type ToolOutcome,
} from "./present/index.js";
import { clip, formatCount, plural } from "./present/text.js";
import { createStyle, type Style } from "./style.js";
import { foldLines, SubagentFolds, taskLines } from "./subagent-folds.js";
import { wrapText } from "./wrap.js";

export interface RenderOptions {
  /** Columns to wrap to. */
  width: number;
  /** ANSI colours (only on a TTY, never with NO_COLOR: the caller decides, see wantsColor). */
  color: boolean;
}

/** One line of input: a parsed JSON value, a line that was not JSON, or a caller's own remark (dimmed). */
export type RenderItem = { kind: "event"; event: unknown } | { kind: "invalid"; text: string } | { kind: "note"; text: string };

const DIFF_LINES = 40;
const CREATED_LINES = 10;
const FAILED_OUTPUT_LINES = 20;
/** Links of a web search shown under its result; the rest are counted. */
const SHOWN_LINKS = 5;

/**
 * Turns stream-json events (agentwire's or the real Claude Code's) into readable lines: assistant
 * text as light markdown, thinking folded to one dim line, each tool call on one line with its
 * key argument and its result summarized under it (Edit/MultiEdit/Write as a unified diff, errors
 * in full), retries, permission denials and compactions visible, and a closing line per turn with
 * outcome, turns, tokens, cost and time (after the result's own text when no assistant message
 * came before it, as in `--output-format json` output). A subagent's work is folded under its
 * Agent call (subagent-folds.ts); background tasks get a line when they start and when they end. A pure transformation (no I/O, no environment): the
 * `render` command, `-p` progress and the chat all print what it returns. Never throws on odd
 * input: an unknown or malformed line is shown dimmed.
 */
export class TranscriptRenderer {
  private readonly style: Style;
  /** Narrower inside a subagent's fold, whose lines are indented. */
  private width: number;
  private readonly calls = new Map<string, ToolUse>();
  private lastCallId: string | undefined;
  private readonly folds = new SubagentFolds();
  private cwd: string | undefined;
  /**
   * Whether an assistant message came since the last result. Without one the result is all there
   * is of the turn (Claude Code's `--output-format json` prints only that), so its text is the
   * answer to show.
   */
  private assistantSinceResult = false;

  constructor(options: RenderOptions) {
    this.style = createStyle(options.color);
    this.width = Math.max(40, options.width);
  }

  render(item: RenderItem): string[] {
    if (item.kind === "invalid") return [this.style.dim(`? ${clip(item.text, this.width - 2)}`)];
    if (item.kind === "note") return [this.style.dim(item.text)];
    try {
      return this.renderEvent(item.event);
    } catch {
      return [this.style.dim(`? ${clip(JSON.stringify(item.event) ?? String(item.event), this.width - 2)}`)];
    }
  }

  /**
   * An assistant message its consumer showed itself (the chat streams text as it arrives): the
   * turn's closing line then does not repeat the answer, as if the message had been rendered here.
   */
  assistantShownElsewhere(): void {
    this.assistantSinceResult = true;
  }

  private renderEvent(event: unknown): string[] {
    const type = typeof event === "object" && event !== null ? (event as { type?: unknown }).type : undefined;
    switch (type) {
      case "assistant": {
        const parsed = AssistantShape.safeParse(event);
        if (!parsed.success) return this.unknown(event);
        const parent = parsed.data.parent_tool_use_id;
        if (parent) return this.insideFold(parent, () => this.assistant(parsed.data));
        this.assistantSinceResult = true;
        return this.assistant(parsed.data);
      }
      case "user": {
        const parsed = UserShape.safeParse(event);
        if (!parsed.success) return this.unknown(event);
        const parent = parsed.data.parent_tool_use_id;
        return parent ? this.insideFold(parent, () => this.user(parsed.data, true)) : this.user(parsed.data, false);
      }
      case "result": {
        const parsed = ResultShape.safeParse(event);
        return parsed.success ? this.result(parsed.data) : this.unknown(event);
      }
      case "system": {
        const parsed = SystemShape.safeParse(event);
        return parsed.success ? this.system(parsed.data) : this.unknown(event);
      }
      case "control_request": {
        const parsed = PermissionRequestShape.safeParse(event);
        if (!parsed.success) return [];
        const { tool_name, input, decision_reason } = parsed.data.request;
        return [
          this.style.yellow(
            `? ${tool_name} ${this.keyArgument(tool_name, input)} needs approval${decision_reason ? `: ${decision_reason}` : ""}`,
          ),
        ];
      }
      // Deltas repeat what the complete assistant line shows; progress and control answers are for programs.
      case "stream_event":
      case "tool_progress":
      case "control_response":
      case "control_cancel_request":
      case "keep_alive":
        return [];
      default:
        return this.unknown(event);
    }
  }

  private unknown(event: unknown): string[] {
    return [this.style.dim(`? ${clip(JSON.stringify(event) ?? String(event), this.width - 2)}`)];
  }

  /**
   * Renders a subagent's event into its fold instead of the output, with the fold's own last call
   * and a width that leaves room for the indent.
   */
  private insideFold(callId: string, render: () => string[]): string[] {
    const fold = this.folds.of(callId);
    const outer = { lastCallId: this.lastCallId, width: this.width };
    this.lastCallId = fold.lastCallId;
    this.width = Math.max(40, outer.width - 4);
    try {
      fold.lines.push(...render());
    } finally {
      fold.lastCallId = this.lastCallId;
      this.lastCallId = outer.lastCallId;
      this.width = outer.width;
    }
    return [];
  }

  private assistant(event: ReturnType<typeof AssistantShape.parse>): string[] {
    const lines: string[] = [];
    for (const block of event.message.content) {
      if (event.error && block.type === "text") {
        lines.push(this.style.red(`✗ ${(block as { text: string }).text}`));
        continue;
      }
      switch (block.type) {
        case "text":
          lines.push(...renderMarkdown((block as { text: string }).text, this.width, this.style));
          break;
        case "thinking": {
          const thinking = (block as { thinking: string }).thinking.replace(/\s+/g, " ").trim();
          lines.push(this.style.dim(`✻ ${clip(thinking === "" ? "Thinking…" : `Thinking: ${thinking}`, this.width - 2)}`));
          break;
        }
        case "tool_use": {
          const call = block as ToolUse;
          this.calls.set(call.id, call);
          this.lastCallId = call.id;
          if (isAgentTool(call.name)) this.folds.open(call.id, call.input);
          lines.push(
            `${this.style.bold(`⏺ ${call.name}`)} ${clip(this.keyArgument(call.name, call.input), this.width - call.name.length - 3)}`,
          );
          break;
        }
        default:
          break;
      }
    }
    return lines;
  }

  /** A user line; inside a subagent its text is the Agent call's prompt, not shown again. */
  private user(event: ReturnType<typeof UserShape.parse>, inSubagent: boolean): string[] {
    const content = event.message.content;
    if (typeof content === "string") return inSubagent ? [] : this.userText(content, event.isSynthetic === true);
    const lines: string[] = [];
    // Text beside a tool result is the tool's (ToolSearch's "Tool loaded."), not the user's words.
    const besideResult = content.some((block) => block.type === "tool_result");
    for (const block of content) {
      if (block.type === "tool_result") lines.push(...this.toolResult(block as ToolResult, event.tool_use_result));
      else if (block.type === "text" && !inSubagent)
        lines.push(...this.userText((block as { text: string }).text, event.isSynthetic === true || besideResult));
    }
    return lines;
  }

  /** A prompt (session files, replayed input) or a notice (interrupt markers, nudges), dimmed when synthetic. */
  private userText(text: string, synthetic: boolean): string[] {
    const wrapped = wrapText(text.replace(/\n+/g, " "), this.width, "> ", "  ");
    return synthetic || text.startsWith("[Request interrupted")
      ? wrapped.map((line) => this.style.dim(line))
      : ["", ...wrapped.map((line) => this.style.bold(line))];
  }

  private toolResult(block: ToolResult, details: unknown): string[] {
    const call = this.calls.get(block.tool_use_id);
    if (isAgentTool(call?.name) && this.folds.has(block.tool_use_id)) return this.agentResult(block, details);
    // Results of parallel calls arrive after all the calls: name the call again.
    const named =
      call && block.tool_use_id !== this.lastCallId ? `${call.name} ${clip(this.keyArgument(call.name, call.input), 40)}: ` : "";
    const outcome = describeResult(call?.name, call?.input, block, details, this.cwd, this.width - 8);
    switch (outcome.kind) {
      case "exit":
        return this.failedCommand(named, outcome);
      case "error": {
        const [first = "", ...rest] = outcome.output.split("\n");
        return [
          ...wrapText(`${named}${first}`, this.width, "  ⎿ ", "    ").map((line) => this.style.red(line)),
          ...rest.flatMap((line) => wrapText(line, this.width, "    ")).map((line) => this.style.red(line)),
        ];
      }
      case "created":
        return this.created(named, outcome.summary, outcome.diff);
      case "updated":
        return this.updated(named, outcome.summary, outcome.diff);
      case "done":
        return [this.style.dim(`  ⎿ ${named}${outcome.summary}`), ...this.links(outcome.links ?? [])];
    }
  }

  /**
   * An Agent call's result: its subagent's fold, or, when the call only launched it in the
   * background, a line saying so (the fold follows when the task's notification comes).
   */
  private agentResult(block: ToolResult, details: unknown): string[] {
    if (isAsyncLaunch(details)) {
      this.folds.of(block.tool_use_id).inBackground = true;
      return [this.style.dim("  ⎿ launched in the background")];
    }
    return foldLines(this.folds.close(block.tool_use_id)!, { block, details }, this.style, this.width);
  }

  /** A web search's results: the first few links, one a line. */
  private links(links: readonly SearchLink[]): string[] {
    const shown = links.slice(0, SHOWN_LINKS);
    return [
      ...shown.map((link) => this.style.dim(`    · ${clip(linkLine(link), this.width - 6)}`)),
      ...(links.length > shown.length ? [this.style.dim(`    … ${plural(links.length - shown.length, "more result")}`)] : []),
    ];
  }

  /** A command that failed: its exit code, then the end of its output, where the error usually is. */
  private failedCommand(named: string, outcome: ToolOutcome & { failed: true }): string[] {
    const lines = outcome.output === "" ? [] : outcome.output.split("\n");
    const shown = lines.slice(-FAILED_OUTPUT_LINES);
    return [
      this.style.red(`  ⎿ ${named}${outcome.summary}`),
      ...(lines.length > shown.length ? [this.style.dim(`    … ${lines.length - shown.length} earlier lines`)] : []),
      ...shown.flatMap((line) => wrapText(line, this.width, "    ")).map((line) => this.style.red(line)),
    ];
  }

  /** A new file: its first lines, all added. */
  private created(named: string, summary: string, rows: DiffRow[]): string[] {
    return [
      this.style.dim(`  ⎿ ${named}${summary}`),
      ...rows.slice(0, CREATED_LINES).map((row) => this.style.green(`    ${row.text}`)),
      ...(rows.length > CREATED_LINES ? [this.style.dim(`    … ${rows.length - CREATED_LINES} more lines`)] : []),
    ];
  }

  private updated(named: string, summary: string, rows: DiffRow[]): string[] {
    const body = rows.map((row) => this.diffLine(row));
    return [
      this.style.dim(`  ⎿ ${named}${summary}`),
      ...body.slice(0, DIFF_LINES),
      ...(body.length > DIFF_LINES ? [this.style.dim(`    … ${body.length - DIFF_LINES} more diff lines`)] : []),
    ];
  }

  private diffLine(row: DiffRow): string {
    if (row.kind === "hunk") return this.style.cyan(`    ${row.text}`);
    const shown = `    ${clip(row.text, this.width - 4)}`;
    if (row.kind === "add") return this.style.green(shown);
    if (row.kind === "del") return this.style.red(shown);
    return this.style.dim(shown);
  }

  private result(event: ReturnType<typeof ResultShape.parse>): string[] {
    const unfinished = this.folds.closeForeground().flatMap((fold) => foldLines(fold, undefined, this.style, this.width));
    const usage = event.usage;
    const input = (usage?.input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0);
    const output = usage?.output_tokens ?? 0;
    const facts = [
      event.num_turns === undefined ? undefined : plural(event.num_turns, "turn"),
      usage ? `${formatCount(input + output)} tokens (${formatCount(input)} in, ${formatCount(output)} out)` : undefined,
      event.total_cost_usd === undefined ? undefined : `$${event.total_cost_usd.toFixed(4)}`,
      event.duration_ms === undefined ? undefined : `${(event.duration_ms / 1000).toFixed(1)} s`,
    ].filter((fact): fact is string => fact !== undefined);
    const failed = event.is_error === true || event.subtype !== "success";
    const outcome = failed
      ? `✗ ${event.subtype === "success" ? "error" : event.subtype}${event.errors?.length ? `: ${event.errors.join("; ")}` : event.result ? `: ${event.result}` : ""}`
      : "✓ success";
    const denials = (event.permission_denials ?? []).map((denial) =>
      this.style.red(`  ✗ denied: ${denial.tool_name} ${clip(this.keyArgument(denial.tool_name, denial.tool_input ?? {}), 60)}`),
    );
    const structured =
      event.structured_output === undefined ? [] : [this.style.cyan(clip(JSON.stringify(event.structured_output), this.width))];
    const answer =
      !failed && !this.assistantSinceResult && structured.length === 0 && event.result?.trim()
        ? renderMarkdown(event.result, this.width, this.style)
        : [];
    this.assistantSinceResult = false;
    const line = [outcome, ...facts].join(" · ");
    return [...unfinished, ...answer, ...structured, ...denials, failed ? this.style.red(line) : this.style.green(line), ""];
  }

  private system(event: ReturnType<typeof SystemShape.parse>): string[] {
    switch (event.subtype) {
      case "task_started":
      case "task_notification": {
        const task = TaskEventShape.safeParse(event);
        return task.success ? taskLines(this.folds, task.data, this.style, this.width) : [];
      }
      case "init": {
        this.cwd = event.cwd;
        const facts = [event.model, event.provider, event.cwd, event.permissionMode].filter(Boolean).join(" · ");
        return [this.style.dim(`● session ${event.session_id ?? "?"} · ${facts}`)];
      }
      case "api_retry":
        return [
          this.style.yellow(
            `↻ model API failed (${typeof event.error === "string" ? event.error : "error"}${event.error_status ? `, HTTP ${event.error_status}` : ""}); retry ${event.attempt ?? "?"} of ${event.max_retries ?? "?"} in ${((event.retry_delay_ms ?? 0) / 1000).toFixed(1)} s`,
          ),
        ];
      case "permission_denied":
        // The call's error result follows with the same reason: show it once, there.
        if (event.tool_use_id && this.calls.has(event.tool_use_id)) return [];
        return [this.style.red(`✗ ${event.tool_name ?? "tool"} denied${event.message ? `: ${event.message}` : ""}`)];
      case "warning":
        return wrapText(`⚠ ${event.message ?? ""}`, this.width, "", "  ").map((line) => this.style.yellow(line));
      case "input_error":
        return [
          this.style.yellow(`⚠ bad input: ${event.message ?? (typeof event.error === "object" ? event.error.message : event.error) ?? ""}`),
        ];
      case "status":
        return event.status === "compacting" ? [this.style.dim("… compacting the conversation")] : [];
      case "compact_boundary": {
        const metadata = event.compact_metadata;
        return [
          this.style.dim(
            `── compacted (${metadata?.trigger ?? "auto"}): ${formatCount(metadata?.pre_tokens ?? 0)} → ${formatCount(metadata?.post_tokens ?? 0)} tokens${metadata?.duration_ms === undefined ? "" : ` in ${metadata.duration_ms} ms`} ──`,
          ),
        ];
      }
      case "error":
        return [this.style.red(`✗ ${event.message ?? "error"}`)];
      default:
        // Hooks, session state, thinking progress and the like are for programs.
        return [];
    }
  }

  /** A call in a few words: the tool and its key argument ("Write notes.txt", "Bash npm test"). */
  describeCall(toolName: string, input: Record<string, unknown>): string {
    return describeCall(toolName, input, this.cwd, this.width);
  }

  /** The one argument that says what a call does, paths relative to the session's folder. */
  private keyArgument(toolName: string, input: Record<string, unknown>): string {
    return keyArgument(toolName, input, this.cwd);
  }
}

/** Every line of a whole transcript (tests, `agentwire render` of a file). */
export function renderTranscript(items: Iterable<RenderItem>, options: RenderOptions): string[] {
  const renderer = new TranscriptRenderer(options);
  return [...items].flatMap((item) => renderer.render(item));
}
