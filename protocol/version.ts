/**
 * Version of agentwire's stdout/stdin protocol, reported in `system/init.protocol_version`.
 * Bump the major part on any breaking wire change; the minor part on additions.
 */
export const PROTOCOL_VERSION = "1.0";
