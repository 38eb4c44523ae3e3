/**
 * agentwire as a Node library: `query()` runs an agent session in this process and yields the
 * same stream-json events the CLI prints; `run()` folds them into the outcome. The protocol's
 * schemas, JSON Schema and line reader are in `agentwire/protocol`.
 */
export { query, type CanUseTool, type Query, type QueryOptions, type QueryUserMessage } from "./query.js";
export { run, type RunResult } from "./run.js";
export type { SessionHooks } from "../session/hook-runners.js";
export type { SessionLogger } from "../session/session-options.js";
export type { OutputEvent, ResultEvent, SystemInitEvent, AssistantEvent, UserEvent } from "../../protocol/events.js";
export type { PermissionResult, PermissionUpdate } from "../../protocol/control.js";
export { TranscriptRenderer, renderTranscript, type RenderItem, type RenderOptions } from "../render/transcript-renderer.js";
export { outputWidth, wantsColor } from "../render/style.js";
export { agentwireHomeDirectory, deleteSession, listSessions, renderSession, sessionHistory, type SessionSummary } from "./sessions.js";
