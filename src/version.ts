import { CLAUDE_CODE_VERSION } from "../protocol/version.js";

declare const __AGENTWIRE_VERSION__: string | undefined;

/** Injected by the build (scripts/build.mjs) from package.json; "dev" when running from source. */
export const AGENTWIRE_VERSION: string = typeof __AGENTWIRE_VERSION__ === "string" ? __AGENTWIRE_VERSION__ : "0.0.0-dev";

/**
 * What `agentwire --version` / `-v` prints: `2.1.330 (agentwire 0.1.0)`. Hosts written for Claude
 * Code probe the executable this way and read the leading version number as Claude Code's (the
 * Python Agent SDK warns below 2.0.0), so it leads with the Claude Code release whose protocol
 * agentwire follows; agentwire's own name and version follow in parentheses, where Claude Code
 * puts "(Claude Code)". protocol/README.md (deliberate differences) explains the format.
 */
export function versionLine(): string {
  return `${CLAUDE_CODE_VERSION} (agentwire ${AGENTWIRE_VERSION})`;
}
