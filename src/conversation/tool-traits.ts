/**
 * What kind of thing a tool does, as permissions, the risk sentinel and the loop need to know it
 * (instead of lists of tool names): `read` tools only read (they may run concurrently, and plan
 * mode allows them), `edit` tools change files, `execute` tools run commands, and everything
 * else (MCP tools without a read-only annotation, …) is `other`.
 */
export type ToolKind = "read" | "edit" | "execute" | "other";

export interface ToolTraits {
  kind: ToolKind;
  /** The input field holding the file or directory the call touches (`file_path`, `path`). */
  pathField?: string;
  /** Without a path, the call works in the working directory (Grep, Glob, LS). */
  pathDefaultsToCwd?: boolean;
  /** The input field holding a shell command (Bash): command rules and the shell classifier apply. */
  commandField?: string;
  /**
   * The input field holding a URL the call fetches (WebFetch): `Tool(domain:host)` rules match its
   * host, and a host no rule names is a question for the user in every mode but auto and bypass.
   */
  urlField?: string;
  /** Changes only the session's own state, nothing outside it (TodoWrite): never needs permission. */
  sessionStateOnly?: boolean;
  /**
   * Only reads, but from the web (WebSearch): plan mode, which is for research, allows it; it
   * still asks like other non-read tools, the web being outside the workspace.
   */
  readsWeb?: boolean;
  /**
   * Offered to the model by name only until it loads the schema with ToolSearch, as Claude Code
   * defers its less common tools: the first request stays small.
   */
  deferred?: boolean;
}
