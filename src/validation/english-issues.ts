import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

/**
 * Which zod, where: one flavour per load phase. The modules the CLI loads before its first stdout
 * line (the static imports of src/cli/main.ts) build their schemas with `zod/mini`, whose code is
 * a fraction of classic zod's, which a start would otherwise compile (~8 ms of CPU) before it can
 * say anything. Every other module (the tools, the stdin commands and the events of protocol/,
 * the library API, the web server, …) uses classic zod. A shape both sides need lives in
 * protocol/ as plain data (PERMISSION_MODES, modelUsageFields) that each side builds its schema
 * from; no schema of one flavour is built into one of the other.
 * test/validation/zod-flavours.test.ts holds every module to this.
 *
 * Unlike classic zod, mini installs no error messages, so every module that builds mini schemas
 * imports this one first: issues read "Invalid input: expected string, received number", not
 * "Invalid input".
 */
config(en());
