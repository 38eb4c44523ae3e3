import * as z from "zod";
import { InputCommandSchema } from "./commands.js";
import { CONTROL_PAYLOAD_SCHEMAS } from "./control.js";
import { OutputEventSchema } from "./events.js";
import { FlatEventSchema } from "./flat-events.js";
import { PROTOCOL_VERSION } from "./version.js";

/**
 * The protocol as one JSON Schema document (protocol/schema.json), for consumers written in
 * other languages. Generated from the zod schemas; a test fails when the file is stale.
 */
export function protocolJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "agentwire stream-json protocol",
    description:
      "Every stdout line is one OutputEvent; every stdin line (--input-format stream-json) is one InputCommand. ControlRequest_<subtype> / ControlResponse_<subtype> describe the `request` of a control_request and the `response` of its success control_response, both ways.",
    "x-protocol-version": PROTOCOL_VERSION,
    $defs: {
      OutputEvent: z.toJSONSchema(OutputEventSchema, { target: "draft-2020-12", unrepresentable: "any" }),
      // What may be sent, not what agentwire makes of it: a host's `null` stands for an absent field.
      InputCommand: z.toJSONSchema(InputCommandSchema, { target: "draft-2020-12", unrepresentable: "any", io: "input" }),
      ...controlPayloadDefinitions(),
    },
  };
}

/** `ControlRequest_initialize`, `ControlResponse_initialize`, … for every control payload. */
function controlPayloadDefinitions(): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (const [subtype, schema] of Object.entries(CONTROL_PAYLOAD_SCHEMAS.requests)) {
    definitions[`ControlRequest_${subtype}`] = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any", io: "input" });
  }
  for (const [subtype, schema] of Object.entries(CONTROL_PAYLOAD_SCHEMAS.responses)) {
    definitions[`ControlResponse_${subtype}`] = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any", io: "input" });
  }
  return definitions;
}

/** The flat dialect (protocol/flat-schema.json): every stdout line with --event-dialect flat is one FlatEvent. */
export function flatJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "agentwire stream-json, flat dialect",
    description:
      "With --output-format stream-json --event-dialect flat, every stdout line is one FlatEvent (see protocol/README-flat.md). stdin takes the same InputCommand lines as the default dialect (protocol/schema.json).",
    "x-protocol-version": PROTOCOL_VERSION,
    $defs: { FlatEvent: z.toJSONSchema(FlatEventSchema, { target: "draft-2020-12", unrepresentable: "any" }) },
  };
}
