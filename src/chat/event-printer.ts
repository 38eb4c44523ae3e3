import type { OutputEvent } from "../../protocol/events.js";
import type { Style } from "../render/style.js";
import { TranscriptRenderer } from "../render/transcript-renderer.js";
import type { Screen } from "./screen.js";
import { StreamedText } from "./streamed-text.js";

/**
 * One session's events on the chat's screen: answer text as it streams (whole lines formatted,
 * the last one previewed), everything else as the transcript renderer shows it, a turn's closing
 * line dimmed. Says what the user is waiting for (a status) when an event starts something.
 * A subagent's work is printed folded under its Agent call once it is done (the renderer holds
 * it until then); meanwhile the status says what it is doing, and its events never touch the
 * answer streaming at the top level.
 */
export class EventPrinter {
  private readonly renderer: TranscriptRenderer;
  /** The answer streaming now, if one is. */
  private streamed: StreamedText | undefined;

  constructor(
    private readonly screen: Screen,
    private readonly style: Style,
    color: boolean,
    private readonly width: () => number,
  ) {
    this.renderer = new TranscriptRenderer({ width: width(), color });
  }

  /** Prints the event; returns the status it starts, if any. */
  print(event: OutputEvent): string | undefined {
    if (subagentOf(event) !== undefined) return this.printSubagent(event);
    switch (event.type) {
      case "stream_event": {
        const raw = event.event as {
          type: string;
          delta?: { type?: string; text?: string };
          content_block?: { type?: string; name?: string };
        };
        if (raw.type === "content_block_delta" && raw.delta?.type === "text_delta" && raw.delta.text) {
          // One column spare: a line that fills the terminal's width would wrap on its own.
          this.streamed ??= new StreamedText(this.width() - 1, this.style);
          const { final, preview } = this.streamed.add(raw.delta.text);
          this.screen.print(final);
          this.screen.preview(preview);
        } else if (raw.type === "content_block_start" && raw.content_block?.type === "thinking") return "Thinking…";
        else if (raw.type === "content_block_start" && raw.content_block?.type === "tool_use")
          return `Preparing ${raw.content_block.name ?? "a tool call"}…`;
        return undefined;
      }
      case "assistant": {
        const [block] = event.message.content;
        if (block.type === "text" && this.streamed && !event.error) {
          // Already on the screen, as it streamed, but for its last line.
          this.finishStreamedText();
          this.renderer.assistantShownElsewhere();
          return undefined;
        }
        this.finishStreamedText();
        this.screen.print(this.renderer.render({ kind: "event", event }));
        return block.type === "tool_use" ? `Running ${block.name}…` : undefined;
      }
      case "result":
        this.finishStreamedText();
        this.screen.print(this.renderer.render({ kind: "event", event }).map((line) => this.style.dim(line)));
        return undefined;
      default:
        this.screen.print(this.renderer.render({ kind: "event", event }));
        return taskProgress(event);
    }
  }

  /** An event from inside a subagent: into its fold (the renderer keeps it), and a status. */
  private printSubagent(event: OutputEvent): string | undefined {
    // Its deltas would mix with the answer streaming at the top level; its complete lines suffice.
    if (event.type === "stream_event") return undefined;
    this.screen.print(this.renderer.render({ kind: "event", event }));
    const [block] = event.type === "assistant" ? event.message.content : [];
    return block?.type === "tool_use" ? `Subagent running ${block.name}…` : undefined;
  }

  /** The rest of a streamed answer, formatted, in place of its preview. */
  finishStreamedText(): void {
    if (!this.streamed) return;
    const rest = this.streamed.finish();
    this.streamed = undefined;
    this.screen.preview([]);
    this.screen.print(rest);
  }

  /** A call in a few words, for a permission question. */
  describeCall(toolName: string, input: Record<string, unknown>): string {
    return this.renderer.describeCall(toolName, input);
  }
}

/**
 * The Agent call a subagent's event belongs to. Read loosely: the protocol's types describe the
 * top-level events only, and Claude Code sets `parent_tool_use_id` on a subagent's lines.
 */
function subagentOf(event: OutputEvent): string | undefined {
  const parent = (event as { parent_tool_use_id?: unknown }).parent_tool_use_id;
  return typeof parent === "string" ? parent : undefined;
}

/** A subagent's `system/task_progress` ("Reading hello.txt") as the status line, read loosely as above. */
function taskProgress(event: OutputEvent): string | undefined {
  const { subtype, description } = event as { subtype?: unknown; description?: unknown };
  return event.type === "system" && subtype === "task_progress" && typeof description === "string"
    ? `Subagent: ${description}…`
    : undefined;
}
