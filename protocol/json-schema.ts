import { z } from "zod";
import { InputCommandSchema } from "./commands.js";
import { OutputEventSchema } from "./events.js";
import { PROTOCOL_VERSION } from "./version.js";

/**
 * The protocol as one JSON Schema document (protocol/schema.json), for consumers written in
 * other languages. Generated from the zod schemas; a test fails when the file is stale.
 */
export function protocolJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "agentwire stream-json protocol",
    description: "Every stdout line is one OutputEvent; every stdin line (--input-format stream-json) is one InputCommand.",
    "x-protocol-version": PROTOCOL_VERSION,
    $defs: {
      OutputEvent: z.toJSONSchema(OutputEventSchema, { target: "draft-2020-12", unrepresentable: "any" }),
      InputCommand: z.toJSONSchema(InputCommandSchema, { target: "draft-2020-12", unrepresentable: "any" }),
    },
  };
}
