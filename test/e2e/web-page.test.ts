import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, ROOT, results, runAgentwire, type Workspace } from "../helpers/agentwire.js";
import {
  chromiumMissing,
  launchChromium,
  screenshot,
  startWebServer,
  watchForPageErrors,
  type WebServerProcess,
} from "../helpers/browser.js";

/**
 * The page of `agentwire web` in a real browser, against the real server and the replay server:
 * what a user sees when sending, approving, stopping, reloading and resuming, on a desktop and
 * on a 360 px phone.
 */
if (chromiumMissing) console.warn(`web page tests skipped: ${chromiumMissing}`);

/** Evaluated in the page (the tests compile without the DOM's types). */
const backgroundOf = (locator: Locator): Promise<string> =>
  locator.evaluate((element) => element.ownerDocument.defaultView.getComputedStyle(element).backgroundColor);

const SLOW_TEXT = `${"This answer streams slowly, so the test can act while it is still arriving. ".repeat(12)}The end.`;

describe.skipIf(chromiumMissing !== undefined)("agentwire web: the page in a browser", { timeout: 60_000 }, () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let workspace: Workspace | undefined;
  let server: WebServerProcess | undefined;
  let pageProblems: () => string[] = () => [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const problems = pageProblems();
    pageProblems = () => [];
    await context?.close();
    context = undefined;
    await server?.stop();
    server = undefined;
    await workspace?.cleanup();
    workspace = undefined;
    expect(problems, "the page reported no errors").toEqual([]);
  });

  async function openPage(scenario: Parameters<Workspace["useScenario"]>[0], viewport = { width: 1280, height: 800 }): Promise<Page> {
    workspace = await createWorkspace("text");
    await workspace.useScenario(scenario);
    server = await startWebServer(workspace);
    return newPage(viewport);
  }

  async function newPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
    context = await browser.newContext({ viewport });
    const page = await context.newPage();
    pageProblems = watchForPageErrors(page);
    await page.goto(server!.url);
    await page.locator("body[data-ready]").waitFor();
    return page;
  }

  async function sendPrompt(page: Page, text: string): Promise<void> {
    await page.locator("#prompt").fill(text);
    await page.locator("#prompt").press("Enter");
  }

  it("sends a prompt with Enter and shows the answer as it streams, then as markdown", async () => {
    const page = await openPage({
      turns: [
        {
          thinking: "First I weigh the question.",
          text: "Here is **the answer**, with `code`:\n\n- one\n- two",
          chunk_delay_ms: 40,
          chunk_chars: 4,
        },
      ],
    });
    await page.locator("#prompt").fill("first line");
    await page.locator("#prompt").press("Shift+Enter");
    await page.locator("#prompt").pressSequentially("second line");
    expect(await page.locator("#prompt").inputValue()).toBe("first line\nsecond line");
    await page.locator("#prompt").press("Enter");

    await expect.poll(() => page.locator(".prompt .bubble").textContent()).toBe("first line\nsecond line");
    // Deltas first: the answer is on screen, marked as streaming, before it is complete.
    await page.locator(".answer.streaming").waitFor();
    await page.locator("#stop").waitFor();
    await page.locator(".turn-result.ok").waitFor();
    const answer = page.locator(".answer");
    await expect.poll(() => answer.count()).toBe(1);
    expect(await answer.evaluate((element) => element.innerHTML)).toBe(
      "<p>Here is <strong>the answer</strong>, with <code>code</code>:</p><ul><li>one</li><li>two</li></ul>",
    );
    expect(await page.locator(".turn-result").textContent()).toMatch(
      /^✓ done1 turn[\d,]+ tokens \([\d,]+ in, [\d,]+ out\)\$\d+\.\d{4} session[\d.]+ s$/,
    );
    expect(await page.locator("#stop").isHidden()).toBe(true);
    expect(await page.locator("#session-facts").textContent()).toContain(workspace!.cwd);
    // Thinking is folded away until asked for.
    const thinking = page.locator("details.thinking");
    expect(await thinking.getAttribute("open")).toBeNull();
    await thinking.locator("summary").click();
    expect(await thinking.locator(".markdown").textContent()).toBe("First I weigh the question.");
    await screenshot(page, "desktop-1280x800");
  });

  it("asks before a Write, and shows the change as a coloured diff once allowed", async () => {
    const page = await openPage({
      turns: [
        { tool_calls: [{ name: "Write", input: { file_path: "notes.txt", content: "new line\nkept line\n" } }] },
        { text: "Updated notes.txt." },
      ],
    });
    writeFileSync(join(workspace!.cwd, "notes.txt"), "old line\nkept line\n");
    await sendPrompt(page, "Update the notes");

    const question = page.locator(".permission.open");
    await question.waitFor();
    expect(await question.locator(".question").textContent()).toBe("Allow Write? notes.txt");
    expect(await question.locator(".reason").textContent()).not.toBe("");
    expect(await question.locator(".preview").textContent()).toBe("new line\nkept line\n");
    await screenshot(page, "desktop-permission");
    await question.locator("button[data-answer=allow]").click();

    await page.locator(".turn-result.ok").waitFor();
    expect(await page.locator(".permission").textContent()).toContain("Allowed");
    const card = page.locator(".tool.done");
    expect(await card.locator(".tool-name").textContent()).toBe("Write");
    expect(await card.locator(".tool-arg").textContent()).toBe("notes.txt");
    expect(await card.locator(".tool-status").textContent()).toBe("updated notes.txt: +1 -1");
    expect(await card.locator(".diff-row.del").allTextContents()).toEqual(["-old line"]);
    expect(await card.locator(".diff-row.add").allTextContents()).toEqual(["+new line"]);
    const [added, removed] = await Promise.all([".diff-row.add", ".diff-row.del"].map((selector) => backgroundOf(card.locator(selector))));
    expect(added).not.toBe(removed);
    expect(readFileSync(join(workspace!.cwd, "notes.txt"), "utf8")).toBe("new line\nkept line\n");
    expect(await page.locator(".answer").last().textContent()).toBe("Updated notes.txt.");
    await page.locator("#theme").click();
    await screenshot(page, "desktop-diff-dark");
  });

  it("does not ask again after Always allow", async () => {
    const page = await openPage({
      turns: [
        { tool_calls: [{ name: "Write", input: { file_path: "a.txt", content: "a" } }] },
        { tool_calls: [{ name: "Write", input: { file_path: "b.txt", content: "b" } }] },
        { text: "Both written." },
      ],
    });
    await sendPrompt(page, "Write two files");
    await page.locator(".permission.open button[data-answer=always]").click();
    await page.locator(".turn-result.ok").waitFor();
    expect(await page.locator(".permission").allTextContents()).toEqual(["Write a.txt · Always allowed"]);
    expect(await page.locator(".tool .tool-status").allTextContents()).toEqual(["created a.txt (1 line)", "created b.txt (1 line)"]);
  });

  it("denies a Write when asked, and the file stays as it was", async () => {
    const page = await openPage({
      turns: [{ tool_calls: [{ name: "Write", input: { file_path: "denied.txt", content: "x" } }] }, { text: "Understood." }],
    });
    await sendPrompt(page, "Write a file");
    await page.locator(".permission.open button[data-answer=deny]").click();
    await page.locator(".turn-result").waitFor();
    expect(await page.locator(".tool.failed .tool-status").textContent()).not.toBe("");
    expect(existsSync(join(workspace!.cwd, "denied.txt"))).toBe(false);
  });

  it("stops a running turn with Esc", async () => {
    const page = await openPage({ turns: [{ text: SLOW_TEXT, chunk_delay_ms: 50 }] });
    await sendPrompt(page, "Talk slowly");
    await page.locator(".answer.streaming").waitFor();
    expect(await page.locator("#stop").isVisible()).toBe(true);
    await page.keyboard.press("Escape");

    const outcome = page.locator(".turn-result.failed");
    await outcome.waitFor({ timeout: 10_000 });
    expect(await outcome.textContent()).toContain("error_during_execution");
    const shown = (await page.locator(".answer").first().textContent()) ?? "";
    expect(shown.length).toBeLessThan(SLOW_TEXT.length);
    expect(await page.locator("#stop").isHidden()).toBe(true);
  });

  it("stops a running Bash command with the Stop button", async () => {
    const page = await openPage({ turns: [{ tool_calls: [{ name: "Bash", input: { command: "sleep 30" } }] }, { text: "unused" }] });
    await sendPrompt(page, "Wait a while");
    // sleep is read-only: no question; the card shows the call running.
    await page.locator(".tool.running").waitFor();
    await page.locator("#stop").click();
    await page.locator(".turn-result.failed").waitFor({ timeout: 10_000 });
    expect(await page.locator(".tool .tool-name").textContent()).toBe("Bash");
    expect(await page.locator(".tool .tool-arg").textContent()).toBe("sleep 30");
  });

  it("loses nothing when the page is reloaded in the middle of a turn", async () => {
    const page = await openPage({
      turns: [{ tool_calls: [{ name: "Read", input: { file_path: "hello.txt" } }] }, { text: SLOW_TEXT, chunk_delay_ms: 25 }],
    });
    writeFileSync(join(workspace!.cwd, "hello.txt"), "one\ntwo\nthree");
    await sendPrompt(page, "Read hello.txt, then talk");
    await page.locator(".answer.streaming").waitFor();
    await page.reload();
    await page.locator("body[data-ready]").waitFor();

    await page.locator(".turn-result").waitFor({ timeout: 20_000 });
    expect(await page.locator(".tool .tool-status").allTextContents()).toEqual(["read 3 lines"]);
    expect(await page.locator(".answer").allTextContents()).toEqual([SLOW_TEXT]);
    expect(await page.locator(".turn-result.ok").count()).toBe(1);
    // What was asked survives the reload too (the server echoes it after the turn's init).
    expect(await page.locator(".msg.prompt").allTextContents()).toEqual(["Read hello.txt, then talk"]);
  });

  it("finds a stored session by search, shows its history, and resumes it", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "The first answer." }, { text: "The second answer." }] });
    const earlier = await runAgentwire(["-p", "A question about zebras", "--output-format", "stream-json", "--verbose"], { workspace });
    const sessionId = results(earlier.events)[0]!.session_id;
    server = await startWebServer(workspace);
    const page = await newPage();

    await page.locator("#search").fill("zebra");
    const entry = page.locator(`.session[data-session="${sessionId}"]`);
    await entry.waitFor();
    expect(await page.locator(".session").count()).toBe(1);
    await page.locator("#search").fill("no such words");
    await page.locator(".empty-list").waitFor();
    await page.locator("#search").fill("zebras");
    await entry.click();

    await expect.poll(() => page.locator(".prompt .bubble").allTextContents()).toEqual(["A question about zebras"]);
    expect(await page.locator(".answer").allTextContents()).toEqual(["The first answer."]);
    await sendPrompt(page, "And a follow-up");
    await expect.poll(() => page.locator(".answer").allTextContents()).toEqual(["The first answer.", "The second answer."]);
    await page.locator(".turn-result.ok").waitFor();
    // The same session went on: the model saw the first exchange.
    expect(JSON.stringify(workspace.server.requests.at(-1)!.body)).toContain("A question about zebras");
    expect(page.url()).toContain(sessionId);
    // A reload shows the stored turns once, then the live ones, with nothing twice.
    await page.reload();
    await page.locator("body[data-ready]").waitFor();
    await expect.poll(() => page.locator(".answer").allTextContents()).toEqual(["The first answer.", "The second answer."]);
    expect(await page.locator(".turn-result").count()).toBe(1);
  });

  it("folds each subagent's work into a collapsible block under its Agent call, with its cost line", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "unused" }] });
    const earlier = await runAgentwire(["-p", "Delegate", "--output-format", "stream-json", "--verbose"], { workspace });
    const sessionId = results(earlier.events)[0]!.session_id;
    server = await startWebServer(workspace);
    // The session's history is the golden subagent stream (the shape Claude Code emits): the page
    // draws it as it would a live run's, two subagents interleaved, one failing.
    const golden = readFileSync(join(ROOT, "fixtures", "subagents", "two-concurrent.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    const page = await newPage();
    await page.route(`**/api/sessions/${sessionId}/history**`, (route) => route.fulfill({ json: golden }));
    await page.locator(`.session[data-session="${sessionId}"]`).click();

    const cards = page.locator("details.tool.subagent");
    await expect.poll(() => cards.count()).toBe(2);
    const [count, todos] = [cards.nth(0), cards.nth(1)];
    expect(await count.locator(":scope > summary").textContent()).toMatch(
      /Agent\s*general-purpose: Count lines\s*completed · 2 tool uses · 2,667 tokens \(2,580 in, 87 out\) · 1\.3 s/,
    );
    // A subagent's calls are not cards of the conversation, only of their Agent call's block.
    expect(await page.locator("#conversation > .tool").count()).toBe(2);
    // Collapsed until opened; a failed one is open at once.
    expect(await count.getAttribute("open")).toBeNull();
    expect(await todos.getAttribute("open")).not.toBeNull();
    await count.locator(":scope > summary").click();
    const steps = count.locator(".subagent-steps > .tool > summary");
    expect(await steps.allTextContents()).toEqual([
      expect.stringMatching(/Read\s*hello\.txt\s*read 4 lines/),
      expect.stringMatching(/Bash\s*wc -l hello\.txt\s*1 line of output/),
    ]);
    expect(await count.locator(".subagent-cost").textContent()).toBe("✓ completed · 2 tool uses · 2,667 tokens (2,580 in, 87 out) · 1.3 s");
    expect(await count.locator(".subagent-report strong").textContent()).toBe("3");
    expect(await todos.locator(".subagent-cost.failed").textContent()).toBe("✗ failed · 1 tool use · 1,100 tokens · 0.9 s");
    expect(await todos.locator(".subagent-report").textContent()).toBe("API Error: 500 Internal server error");
    await screenshot(page, "web-subagents");
  });

  it("shows a live run's subagent folded under its Agent call, and its background shell starting and ending", async () => {
    const page = await openPage({
      turns: [
        {
          match: "PARENT",
          tool_calls: [
            { name: "Agent", input: { description: "Look around", prompt: "ALPHA: list the folder", run_in_background: false } },
          ],
        },
        { match: "ALPHA", tool_calls: [{ name: "LS", input: { path: "." } }], usage: { input_tokens: 20_000, output_tokens: 250 } },
        { match: "ALPHA", text: "The folder is **empty**.", usage: { input_tokens: 20_000, output_tokens: 250 } },
        {
          match: "PARENT",
          tool_calls: [{ name: "Bash", input: { command: "echo built", run_in_background: true, description: "Build" } }],
        },
        { match: "PARENT", tool_calls: [{ name: "Bash", input: { command: "sleep 1" } }] },
        { match: "PARENT", text: "Done." },
      ],
    });
    await sendPrompt(page, "PARENT: delegate");
    await page.locator(".turn-result.ok").waitFor({ timeout: 20_000 });
    const card = page.locator("details.tool.subagent");
    expect(await card.count()).toBe(1);
    expect(await card.locator(":scope > summary").textContent()).toMatch(
      /^Agentgeneral-purpose: Look aroundcompleted · 1 tool use · 40,500 tokens \(40,000 in, 500 out\) · \$0\.1700 · \d+\.\d s$/,
    );
    await card.locator(":scope > summary").click();
    expect(await card.locator(".subagent-steps > .tool .tool-name").allTextContents()).toEqual(["LS"]);
    expect(await card.locator(".subagent-cost").textContent()).toMatch(/^✓ completed · 1 tool use · 40,500 tokens/);
    expect(await card.locator(".subagent-report strong").textContent()).toBe("empty");
    // The subagent's call is only in its fold; the page's own cards are the Agent call and the two Bash calls.
    expect(await page.locator("#conversation > .tool > summary > .tool-name").allTextContents()).toEqual(["Agent", "Bash", "Bash"]);
    expect(await page.locator(".notice.info").allTextContents()).toEqual([
      expect.stringMatching(/^background shell b[0-9a-z]{8} started: Build$/),
      expect.stringMatching(/^background task b[0-9a-z]{8} completed: Background command "Build" completed \(exit code 0\)$/),
    ]);
  });

  it("fits a 360 px phone: no sideways scrolling, the input visible, the list in a drawer", async () => {
    const page = await openPage(
      {
        turns: [
          { tool_calls: [{ name: "Bash", input: { command: `echo ${"a-very-long-argument-".repeat(8)}` } }] },
          { text: `A long unbroken word: ${"x".repeat(120)}\n\n\`\`\`\n${"code ".repeat(40)}\n\`\`\`` },
        ],
      },
      { width: 360, height: 740 },
    );
    await sendPrompt(page, "Show something wide");
    await page.locator(".turn-result").waitFor();

    const overflow = {
      page: await page.locator("html").evaluate((html) => html.scrollWidth),
      chat: await page.locator("#conversation").evaluate((chat) => chat.scrollWidth - chat.clientWidth),
    };
    expect(overflow).toEqual({ page: 360, chat: 0 });
    const input = await page.locator("#prompt").boundingBox();
    expect(input!.y + input!.height).toBeLessThanOrEqual(740);
    expect(input!.x + input!.width).toBeLessThanOrEqual(360);
    expect(await page.locator("#sessions").isVisible()).toBe(false);
    // A card opens to show the output it summarizes.
    await page.locator(".tool > summary").click();
    expect(await page.locator(".tool .output").textContent()).toContain("a-very-long-argument-");
    await screenshot(page, "phone-360x740");

    await page.locator("#menu").click();
    await page.locator(".session").first().waitFor({ state: "visible" });
    // The drawer has slid in all the way.
    await expect.poll(async () => (await page.locator("#drawer").boundingBox())?.x).toBe(0);
    await screenshot(page, "phone-360x740-drawer");
    await page.keyboard.press("Escape");
    await page.locator("#sessions").waitFor({ state: "hidden" });
  });

  it("starts a new session in the folder picked from the server's roots", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ tool_calls: [{ name: "LS", input: { path: "." } }] }, { text: "Listed." }] });
    const other = join(workspace.cwd, "..", "other");
    mkdirSync(other);
    writeFileSync(join(other, "only-here.txt"), "");
    server = await startWebServer(workspace, ["--add-dir", other]);
    const page = await newPage();
    await page.locator("#cwd").selectOption(other);
    await sendPrompt(page, "What is here?");
    await page.locator(".turn-result.ok").waitFor();
    expect(await page.locator("#session-facts").textContent()).toContain(other);
    await page.locator(".tool > summary").click();
    expect(await page.locator(".tool .output").textContent()).toContain("only-here.txt");
  });

  it("switches to the dark theme and keeps it across a reload", async () => {
    const page = await openPage({ turns: [{ text: "Hi." }] });
    const background = () => backgroundOf(page.locator("body"));
    const light = await background();
    await page.locator("#theme").click();
    expect(await page.locator("html").getAttribute("data-theme")).toBe("dark");
    const dark = await background();
    expect(dark).not.toBe(light);
    await page.reload();
    await page.locator("body[data-ready]").waitFor();
    expect(await background()).toBe(dark);
  });

  it("shows a failed request instead of swallowing it", async () => {
    const page = await openPage({ turns: [{ error: { status: 401, message: "invalid x-api-key" } }] });
    await sendPrompt(page, "hello");
    await page.locator(".turn-result.failed").waitFor();
    expect(await page.locator(".turn-result.failed").textContent()).toContain("invalid x-api-key");
    // The server is gone: the page says it is reconnecting, the next message fails, and the page says so.
    await server!.stop();
    await expect.poll(() => page.locator("#session-facts").textContent()).toMatch(/^reconnecting…/);
    await sendPrompt(page, "anyone there?");
    await page.locator("#error:not([hidden])").waitFor();
    // The banner shows the latest failure, and the session list's refresh may fail just after the
    // send (seen on a loaded machine); the conversation keeps the message's own.
    const notSent = page.locator(".notice.error", { hasText: "Not sent:" });
    await notSent.waitFor();
    expect(await notSent.textContent()).toMatch(/messages/);
    pageProblems = () => [];
  });
});
