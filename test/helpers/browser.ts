import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { agentwireEnv, BIN, ROOT, type Workspace } from "./agentwire.js";
import { stopWeb } from "./web.js";

/**
 * Browser tests drive a real Chromium through playwright-core, which never downloads one: the
 * system's (Debian: `apt-get install chromium`) or CHROMIUM_PATH. Without one they skip, saying so.
 */
const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];

const chromiumPath = CANDIDATES.find(
  (candidate): candidate is string => candidate !== undefined && candidate !== "" && existsSync(candidate),
);

export const chromiumMissing = chromiumPath
  ? undefined
  : `no Chromium found (CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser): install one (apt-get install chromium) to run the browser tests`;

/** Screenshots for people to look at; listed in .gitignore. */
const ARTIFACTS = join(ROOT, "test-artifacts");

export async function launchChromium(): Promise<Browser> {
  // Chromium's sandbox refuses to start as root (CI containers).
  return chromium.launch({ executablePath: chromiumPath!, headless: true, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

export interface WebServerProcess {
  /** The page's address with its access token, as printed on stderr. */
  url: string;
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `agentwire web --port 0` in the workspace and waits for the URL line on stderr. */
export async function startWebServer(workspace: Workspace, args: string[] = []): Promise<WebServerProcess> {
  const child = spawn(process.execPath, [BIN, "web", "--port", "0", "--cwd", workspace.cwd, ...args], {
    cwd: workspace.cwd,
    env: agentwireEnv(workspace),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agentwire web printed no URL within 15 s; stderr:\n${stderr}`)), 15_000);
    const check = (): void => {
      const match = /agentwire web: (http:\/\/\S+)/.exec(stderr);
      if (!match) return;
      clearTimeout(timer);
      child.stderr.off("data", check);
      resolve(match[1]!);
    };
    child.stderr.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`agentwire web exited (${code}) before printing its URL; stderr:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () => stopWeb(child),
  };
}

/**
 * Fails the test on anything the page reports as broken: uncaught errors, console errors (CSP
 * violations land there), and requests the server answered with an error.
 */
export function watchForPageErrors(page: Page): () => string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  return () => problems;
}
