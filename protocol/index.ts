export * from "./commands.js";
export * from "./control.js";
export { HOOK_EVENT_NAMES } from "./hook-events.js";
export * from "./events.js";
export { PROTOCOL_VERSION } from "./version.js";
export { readEvents, type ReadResult } from "./reader.js";
export { readLines, MAX_LINE_BYTES, type LineEvent } from "./lines.js";
export * from "./flat-events.js";
export { protocolJsonSchema, flatJsonSchema } from "./json-schema.js";
