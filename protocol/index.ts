export * from "./commands.js";
export * from "./control.js";
export * from "./events.js";
export { PROTOCOL_VERSION } from "./version.js";
