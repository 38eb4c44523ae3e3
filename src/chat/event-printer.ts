import type { OutputEvent } from "../../protocol/events.js";
import type { Style } from "../render/style.js";
import { TranscriptRenderer } from "../render/transcript-renderer.js";
import type { Screen } from "./screen.js";
import { StreamedText } from "./streamed-text.js";

/**
 * One session's events on the chat's screen: answer text as it streams (whole lines formatted,
 * the last one previewed), everything else as the transcript renderer shows it, a turn's closing
 * line dimmed. Says what the user is waiting for (a status) when an event starts something.
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
        return undefined;
    }
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
