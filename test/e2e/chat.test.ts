import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentwireEnv, BIN, createWorkspace, runAgentwire, type Workspace } from "../helpers/agentwire.js";
import { HAS_SCRIPT, plainScreen, spawnInPty, type PtySession } from "../helpers/pty.js";
import { isDeferredListing } from "../helpers/deferred-listing.js";

let workspace: Workspace | undefined;
let pty: PtySession | undefined;

afterEach(async () => {
  pty?.kill();
  pty = undefined;
  await workspace?.cleanup();
  workspace = undefined;
});

const chat = (args = "") => `"${process.execPath}" "${BIN}" chat ${args}`;
const SLOW_TEXT = "A long and slow answer that is still streaming when Esc arrives. ".repeat(30);
const SUMMARY = "1. User requests: a greeting and a notes file.\n2. Next step: none.";
type Body = { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }> };
const userTexts = (body: unknown): string[] =>
  (body as Body).messages
    .filter((message) => message.role === "user")
    .flatMap((message) =>
      typeof message.content === "string"
        ? [message.content]
        : message.content.flatMap((block) => (block.type === "text" && !isDeferredListing(block.text!) ? [block.text!] : [])),
    );

/** The screen text since `mark` characters of raw output. */
const since = (session: PtySession, mark: number) => plainScreen(session.raw.slice(mark));

describe.skipIf(!HAS_SCRIPT)("agentwire chat at a terminal (a real pty from util-linux script)", () => {
  it("streams the answer, asks before a Write and shows its diff, compacts on /compact, leaves on /exit", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { text: "Hello there! How can I help?", chunk_delay_ms: 60 },
        { text: "I will write it.", tool_calls: [{ name: "Write", input: { file_path: "notes.txt", content: "alpha\nbeta\n" } }] },
        { text: "Done writing." },
        { text: SUMMARY },
      ],
    });
    pty = spawnInPty(chat(), { cwd: workspace.cwd, env: agentwireEnv(workspace) });
    await pty.waitFor(/Ctrl\+D exits/);
    pty.type("hi\r");
    // Streamed: the start of the answer is on the screen while the turn is still running.
    await pty.waitFor(/> hi\n[\s\S]*Hello th/);
    expect(plainScreen(pty.raw)).not.toContain("How can I help?");
    await pty.waitFor(/Hello there! How can I help\?\n[\s\S]*✓ success · 1 turn/);

    pty.type("write notes\r");
    await pty.waitFor(
      /\? Allow Write notes\.txt\?\n\s+File edits need approval in this mode\n\s+y allow once · a always allow Write in this chat · n deny/,
    );
    const beforeAnswer = pty.raw.length;
    pty.type("y");
    await pty.waitFor(/✓ success · 2 turns/);
    // (The raw output keeps what the chat erased and redrew, such as the status line, so only the order is checked.)
    expect(since(pty, beforeAnswer)).toMatch(
      /✓ Write allowed once\n[\s\S]*⎿ created notes\.txt \(2 lines\)\n\s+\+alpha\n\s+\+beta\n[\s\S]*Done writing\./,
    );
    expect(since(pty, beforeAnswer)).not.toContain("? Allow Write");
    expect(readFileSync(join(workspace.cwd, "notes.txt"), "utf8")).toBe("alpha\nbeta\n");
    // Colour on a terminal: the added lines are green.
    expect(pty.raw).toContain("\u001b[32m    +alpha\u001b[39m");

    pty.type("/compact\r");
    await pty.waitFor(/── compacted \(manual\): [\d,]+ → [\d,]+ tokens/);
    expect(userTexts(workspace.server.requests[3]!.body).join("\n")).toContain("Write the summary now.");

    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    // The terminal is given back: bracketed paste off.
    expect(pty.raw.endsWith("\u001b[?2004l")).toBe(true);
  });

  it("folds a subagent's work under its Agent call, with its own cost line and report", async () => {
    workspace = await createWorkspace("text");
    // The replay server answers requests in order: the parent's, the subagent's two, the parent's.
    await workspace.useScenario({
      turns: [
        {
          tool_calls: [
            {
              name: "Agent",
              input: {
                description: "Count lines",
                prompt: "Say what echo prints.",
                subagent_type: "general-purpose",
                run_in_background: false,
              },
            },
          ],
        },
        { tool_calls: [{ name: "Bash", input: { command: "echo sub-step" } }] },
        { text: "echo printed sub-step." },
        { text: "All done." },
      ],
    });
    pty = spawnInPty(chat(), { cwd: workspace.cwd, env: agentwireEnv(workspace) });
    await pty.waitFor(/Ctrl\+D exits/);
    pty.type("delegate\r");
    await pty.waitFor(/All done\.\n[\s\S]*✓ success/);
    expect(plainScreen(pty.raw)).toMatch(
      /⏺ Agent general-purpose: Count lines\n[\s\S]* {2}⎿ general-purpose: Count lines\n {4}⏺ Bash echo sub-step\n {6}⎿ 1 line of output\n {4}✓ completed · 1 tool use · [\d,]+ tokens[^\n]* · \d+\.\d s\n {4}echo printed sub-step\./,
    );
    pty.type("\u0004");
    expect(await pty.exited).toBe(0);
  });

  it("Esc interrupts the running turn and the session goes on; Ctrl+C twice exits", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: SLOW_TEXT, chunk_delay_ms: 40 }, { text: "Short answer." }] });
    pty = spawnInPty(chat(), { cwd: workspace.cwd, env: agentwireEnv(workspace) });
    await pty.waitFor(/Ctrl\+D exits/);
    pty.type("tell me a long story\r");
    await pty.waitFor(/still streaming/);
    pty.type("\u001b");
    await pty.waitFor(/\[Request interrupted by user\]\n[\s\S]*✗ error_during_execution: Interrupted by user/);
    pty.type("and now?\r");
    await pty.waitFor(/Short answer\.\n[\s\S]*✓ success/);
    // The second request carried the interrupted conversation: one session.
    expect(userTexts(workspace.server.requests[1]!.body)[0]).toBe("tell me a long story");
    pty.type("\u0003");
    await pty.waitFor(/Press Ctrl\+C again to exit/);
    pty.type("\u0003");
    expect(await pty.exited).toBe(0);
  });

  it("a bracketed paste of 200 lines is one message, shown as a placeholder; multi-line input; Ctrl+D exits", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "Got your log." }, { text: "Two lines seen." }] });
    pty = spawnInPty(chat(), { cwd: workspace.cwd, env: agentwireEnv(workspace) });
    await pty.waitFor(/Ctrl\+D exits/);
    const log = Array.from({ length: 200 }, (_, index) => `log line ${index + 1}`).join("\n");
    pty.type(`look at this: \u001b[200~${log}\u001b[201~`);
    await pty.waitFor(/> look at this: \[Pasted text #1 \+200 lines\]/);
    pty.type("\r");
    await pty.waitFor(/Got your log\.[\s\S]*✓ success/);
    expect(workspace.server.requests).toHaveLength(1);
    expect(userTexts(workspace.server.requests[0]!.body).at(-1)).toBe(`look at this: ${log}`);

    // A backslash before Enter continues the message on a new line.
    pty.type("first line\\\r");
    pty.type("second line\r");
    await pty.waitFor(/Two lines seen\./);
    expect(userTexts(workspace.server.requests[1]!.body).at(-1)).toBe("first line\nsecond line");
    pty.type("\u0004");
    expect(await pty.exited).toBe(0);
  });

  it("keeps the input history in $AGENTWIRE_HOME; Up recalls it in the next chat; / shows the command menu and Tab completes", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "First answer." }] });
    pty = spawnInPty(chat(), { cwd: workspace.cwd, env: agentwireEnv(workspace) });
    await pty.waitFor(/Ctrl\+D exits/);
    pty.type("remember this prompt\r");
    await pty.waitFor(/First answer\./);
    pty.type("\u0004");
    await pty.exited;
    const historyFile = join(workspace.home, ".agentwire", "chat-history.jsonl");
    expect(readFileSync(historyFile, "utf8")).toBe('"remember this prompt"\n');

    pty = spawnInPty(chat(), { cwd: workspace.cwd, env: agentwireEnv(workspace) });
    await pty.waitFor(/Ctrl\+D exits/);
    pty.type("\u001b[A");
    await pty.waitFor(/> remember this prompt$/);
    // Ctrl+U clears the line; "/" lists every command, "/co" narrows it; Tab completes.
    pty.type("\u0015/");
    await pty.waitFor(/\/permissions\s+the permission mode[^\n]*\n\s+\/exit\s+leave the chat/);
    const mark = pty.raw.length;
    pty.type("co");
    await pty.waitFor(/\/compact\s+summarize[\s\S]*\/cost\s+tokens and cost/);
    expect(since(pty, mark)).not.toContain("/model");
    pty.type("s\t");
    await pty.waitFor(/> \/cost $/);
    pty.type("\r");
    await pty.waitFor(/This chat: 0 turns/);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
  });

  it("formats a streamed answer's markdown as render does and wraps it at word boundaries; /sessions says 1 turn", async () => {
    workspace = await createWorkspace("text");
    const long = "This streamed line is long enough that it must wrap at the edge of a narrow pane without cutting any word in two.";
    await workspace.useScenario({
      turns: [{ text: `**mock** answer\n\n- **one**\n\n\`\`\`\nconst x = 1;\n\`\`\`\n${long}`, chunk_delay_ms: 5 }],
    });
    // A dumb terminal redraws nothing, so what it shows is exactly what stays on the screen.
    pty = spawnInPty(chat(), { cwd: workspace.cwd, env: { ...agentwireEnv(workspace), TERM: "dumb" }, term: "dumb", columns: 40 });
    await pty.waitFor(/Ctrl\+D exits/);
    const mark = pty.raw.length;
    pty.type("hi\r");
    await pty.waitFor(/✓ success · 1 turn/);
    const shown = since(pty, mark);
    expect(shown).toMatch(/\nmock answer\n\n• one\n\n {2}const x = 1;\n/);
    expect(shown).not.toMatch(/\*\*|```/);
    // Shown once, as it streamed: the closing line does not repeat it.
    expect(shown.split("mock answer").length - 1).toBe(1);
    const answer = shown.slice(shown.indexOf("This streamed"), shown.indexOf("two.") + 4).split("\n");
    for (const line of answer) expect(line.length).toBeLessThan(40);
    expect(answer.join(" ")).toBe(long);

    pty.type("/sessions\r");
    await pty.waitFor(/ 1 turn {3}[0-9a-f]{8} /);
    expect(plainScreen(pty.raw)).not.toContain("1 turns");
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
  });

  it("Ctrl+C during a tool call says how to leave after the interrupted call's lines, not before them", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "sleep 20" } }] }, { text: "unused" }] });
    pty = spawnInPty(chat("--permission-mode bypassPermissions"), { cwd: workspace.cwd, env: agentwireEnv(workspace) });
    await pty.waitFor(/Ctrl\+D exits/);
    pty.type("wait\r");
    await pty.waitFor(/⏺ Bash sleep 20/);
    pty.type("\u0003");
    await pty.waitFor(/Press Ctrl\+C again to exit/);
    const screen = plainScreen(pty.raw);
    expect(screen.indexOf("✗ error_during_execution")).toBeGreaterThan(-1);
    expect(screen.indexOf("✗ error_during_execution")).toBeLessThan(screen.indexOf("Press Ctrl+C again to exit"));
    pty.type("\u0003");
    expect(await pty.exited).toBe(0);
  });

  it("agentwire alone at a terminal starts the chat; a dumb terminal gets plain lines without escape codes", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "Plain answer." }] });
    pty = spawnInPty(`"${process.execPath}" "${BIN}"`, {
      cwd: workspace.cwd,
      env: { ...agentwireEnv(workspace), TERM: "dumb" },
      term: "dumb",
    });
    await pty.waitFor(/agentwire chat · claude-opus-5-5/);
    pty.type("hello\r");
    await pty.waitFor(/Plain answer\.\n[\s\S]*✓ success/);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    // The terminal's own echo of the typed lines aside, agentwire wrote no escape codes.
    expect(pty.raw).not.toMatch(/\u001b/);
  });
});

describe("agentwire chat with piped input", () => {
  it("reads one message or command per line, answers questions from the next line, ends at EOF", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({
      turns: [
        { text: "I will write it.", tool_calls: [{ name: "Write", input: { file_path: "piped.txt", content: "x\n" } }] },
        { text: "Written." },
      ],
    });
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [BIN, "chat"], {
      cwd: workspace.cwd,
      env: agentwireEnv(workspace),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stdin.end("write it\nn\n/permissions\n");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/\u001b/);
    expect(stdout).toMatch(
      /> write it\n[\s\S]*\? Allow Write piped\.txt\?[\s\S]*✗ Write denied[\s\S]*Written\.[\s\S]*Permission mode: default/,
    );
  });

  it("refuses stream formats: the chat is for people, start is for programs", async () => {
    workspace = await createWorkspace("text");
    const run = await runAgentwire(["chat", "--output-format", "stream-json"], { workspace });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("agentwire chat is for a person at a terminal");
  });
});
