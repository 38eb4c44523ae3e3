import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

/**
 * Which zod, where. The modules the CLI loads before its first stdout line (the static imports of
 * src/cli/main.ts) build their schemas with `zod/mini`, whose code is a fraction of classic zod's,
 * which a start would otherwise compile (~8 ms of CPU) before it can say anything. The built-in
 * tools' modules (those that call `defineTool(`, and the compact profile's thin variants) build
 * their input schemas with `zod/mini` too: a tool's input schema is built at its first call, on
 * the turn's critical path, and classic binds dozens of methods onto every schema it makes: with
 * mini, ten tool turns of Read and Bash took 2 ms less CPU (127.9 -> 125.9 ms, medians of 21).
 * MCP's tool module stays classic: its other schemas parse the servers' answers, which classic
 * modules import. Every other module (the stdin commands and the events of protocol/, the library
 * API, the web server, …) uses classic zod. Code that takes a tool's schema of either flavour uses
 * only what both share (zod's core types, the top-level safeParse and toJSONSchema). A shape both
 * sides need lives in protocol/ as plain data (PERMISSION_MODES, modelUsageFields) that each side
 * builds its schema from; no schema of one flavour is built into one of the other.
 * test/validation/zod-flavours.test.ts holds every module to this.
 *
 * Unlike classic zod, mini installs no error messages, so every module that builds mini schemas
 * imports this one first: issues read "Invalid input: expected string, received number", not
 * "Invalid input".
 */
config(en());
