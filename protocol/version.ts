/**
 * Version of agentwire's stdout/stdin protocol, reported in `system/init.protocol_version`.
 * Bump the major part on any breaking wire change; the minor part on additions.
 */
export const PROTOCOL_VERSION = "1.2";

/**
 * The Claude Code release whose stream-json agentwire follows (the recorded behaviour in
 * shared/reference), reported as `system/init.claude_code_version`: the Agent SDK declares the
 * field required, and hosts use it to decide which protocol features to expect.
 */
export const CLAUDE_CODE_VERSION = "2.1.330";
