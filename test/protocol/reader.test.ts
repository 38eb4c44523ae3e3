import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { InputCommandSchema, readEvents } from "../../protocol/index.js";

const init = { type: "system", subtype: "status", status: null, session_id: "s1", uuid: "u1" };

describe("readEvents", () => {
  it("yields validated events and explains the lines that are not events, in order", async () => {
    // Split mid-line and mid-character to prove byte-stream reassembly.
    const bytes = Buffer.from(`${JSON.stringify(init)}\r\nnot json\n{"type":"result"}\n\n${JSON.stringify({ ...init, uuid: "u2" })}`);
    const chunks = [bytes.subarray(0, 10), bytes.subarray(10, 60), bytes.subarray(60)];
    const seen = [];
    for await (const item of readEvents(Readable.from(chunks))) seen.push(item);
    expect(seen.map((item) => (item.kind === "event" ? `event:${item.line}:${item.event.type}` : `invalid:${item.line}`))).toEqual([
      "event:1:system",
      "invalid:2",
      "invalid:3",
      "event:5:system",
    ]);
    expect(seen[1]).toMatchObject({ kind: "invalid", text: "not json", error: expect.stringMatching(/^not JSON/) });
    expect(seen[2]).toMatchObject({ kind: "invalid", error: expect.stringMatching(/^not a protocol event/) });
  });

  it("reads stdin commands with another schema", async () => {
    const lines = ['{"type":"user","content":"hi"}', '{"type":"interrupt"}', '{"type":"bogus"}'].join("\n");
    const kinds = [];
    for await (const item of readEvents(Readable.from([lines]), InputCommandSchema))
      kinds.push(item.kind === "event" ? item.event.type : "invalid");
    expect(kinds).toEqual(["user", "interrupt", "invalid"]);
  });
});
