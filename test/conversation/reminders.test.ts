import { describe, expect, it } from "vitest";
import { conversationFromSummary } from "../../src/agent/compaction.js";
import type { Message } from "../../src/conversation/messages.js";
import { lastSkillsListing, userWords, visibleMessage } from "../../src/conversation/reminders.js";

const LISTING = "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- a: A.\n</system-reminder>";

describe("reminders in user messages", () => {
  const marked: Message = {
    role: "user",
    content: [
      { type: "text", text: LISTING, reminder: "skills" },
      { type: "text", text: "fix the build" },
    ],
  };
  // Written before the mark existed: recognised by how the listing began.
  const unmarked: Message = {
    role: "user",
    content: [
      { type: "text", text: LISTING },
      { type: "text", text: "fix the build" },
    ],
  };

  it("leave the user's words, marked or written before the mark", () => {
    for (const message of [marked, unmarked]) {
      expect(visibleMessage(message)).toEqual({ role: "user", content: [{ type: "text", text: "fix the build" }] });
      expect(userWords(message.role === "user" ? message.content : [])).toBe("fix the build");
    }
    expect(visibleMessage({ role: "user", content: [{ type: "text", text: LISTING, reminder: "skills" }] })).toBeUndefined();
    const plain: Message = { role: "user", content: [{ type: "text", text: "<system-reminder>the user typed this</system-reminder>" }] };
    expect(visibleMessage(plain)).toBe(plain);
  });

  it("the last listing the conversation carries is found, also after other turns", () => {
    const history: Message[] = [
      marked,
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
      { role: "user", content: [{ type: "text", text: "thanks" }] },
    ];
    expect(lastSkillsListing(history)).toBe(LISTING);
    expect(lastSkillsListing(history.slice(1))).toBeUndefined();
  });

  it("a background task's notification is a reminder, but not the skills listing", () => {
    const notice = "<system-reminder>\n<task-notification>\n<task-id>b12345678</task-id>\n</task-notification>\n</system-reminder>";
    const history: Message[] = [marked, { role: "user", content: [{ type: "text", text: notice, reminder: "tasks" }] }];
    expect(visibleMessage(history[1]!)).toBeUndefined();
    expect(lastSkillsListing(history)).toBe(LISTING);
  });

  it("a compaction keeps the user's recent words even when a listing went before them", () => {
    const [head] = conversationFromSummary(
      [marked, { role: "assistant", content: [{ type: "text", text: "Done." }] }],
      "summary",
      [],
      100_000,
    );
    const text = head!.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(text).toContain("- fix the build");
    expect(text).not.toContain("skills are available");
  });
});
