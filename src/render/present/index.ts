/**
 * Presentation of a transcript, for every view: the terminal renderer, the chat and the web page
 * (bundled into the page's script by scripts/build.mjs). Pure functions over stream-json data,
 * free of the DOM and the terminal: no node: imports, no styling. Each view styles the result.
 */
export { markdownBlocks, parseInline, type Inline, type MarkdownBlock } from "./markdown.js";
export { describeCall, displayPath, isAgentTool, keyArgument, permissionDescription, subagentLabel, type ToolInput } from "./tool-call.js";
export { describeResult, diffRows, resultText, type DiffRow, type ToolOutcome } from "./tool-result.js";
export { clip, countLines, formatCount, plural } from "./text.js";
export { backgroundTaskEnded, backgroundTaskFailed, backgroundTaskStarted } from "./background-task.js";
export { describeSubagent, isAsyncLaunch, type SubagentSummary, type TaskNotification } from "./subagent.js";
export { linkLine, type SearchLink } from "./web-search.js";
