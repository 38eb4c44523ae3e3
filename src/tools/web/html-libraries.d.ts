// The parts of turndown and its GFM plugin that html-markdown.ts uses; neither ships its own types,
// and these few lines spare a types package for an API this small.

declare module "turndown" {
  interface TurndownOptions {
    headingStyle?: "setext" | "atx";
    codeBlockStyle?: "indented" | "fenced";
    bulletListMarker?: "-" | "+" | "*";
  }
  export default class TurndownService {
    constructor(options?: TurndownOptions);
    remove(filter: string | string[]): this;
    use(plugin: (service: TurndownService) => void): this;
    turndown(html: string): string;
  }
}

declare module "@joplin/turndown-plugin-gfm" {
  import type TurndownService from "turndown";
  export function gfm(service: TurndownService): void;
}
