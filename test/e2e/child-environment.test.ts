import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bashTurns, createWorkspace, ROOT, toolOutcomes, type Workspace } from "../helpers/agentwire.js";
import { needsUnprivilegedUser, runPromptAsUser, unprivilegedUserForSuite } from "../helpers/unprivileged.js";

/**
 * Credentials stay out of child processes (issue 23, finding 8), through the built binary, run
 * as an unprivileged user in default mode with nobody to approve: a prompt-injected model runs
 * read-only commands that print the environment in transformed forms redaction cannot see, and
 * an MCP stdio server records what it was started with. No key agentwire holds may show up in
 * any form unless it was handed over on purpose.
 */
const user = unprivilegedUserForSuite();
const SERVER = join(ROOT, "fixtures", "mcp", "test-server.mjs");

const random = (length: number): string => randomBytes(length).toString("base64url").replace(/[-_]/g, "x").slice(0, length);
const SECRETS = {
  ANTHROPIC_API_KEY: `sk-ant-api03-${random(40)}`,
  OPENAI_API_KEY: `sk-proj-${random(40)}`,
  GITHUB_TOKEN: `ghp_${random(36)}`,
};

/** ROT13, as `tr a-zA-Z n-za-mN-ZA-M` computes it. */
function rot13(text: string): string {
  return text.replace(/[a-zA-Z]/g, (letter) => {
    const base = letter <= "Z" ? 65 : 97;
    return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** Whether any 10-character stretch of `secret`, plain or ROT13, occurs in `text`: a cut or a transform of it leaked. */
function leaks(text: string, secret: string): boolean {
  for (const form of [secret, rot13(secret)]) {
    for (let start = 0; start + 10 <= form.length; start++) if (text.includes(form.slice(start, start + 10))) return true;
  }
  return false;
}

let workspace: Workspace | undefined;

afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

describe.skipIf("problem" in user)(`credentials stay out of child processes${needsUnprivilegedUser(user)}`, () => {
  /** Runs the commands with the keys in agentwire's environment; `outputs` holds each one's stdout. */
  async function runBash(commands: string[], flags: string[] = []): Promise<{ stdout: string; outputs: string[] }> {
    workspace = await createWorkspace("text");
    await workspace.useScenario(bashTurns(commands));
    const run = await runPromptAsUser(user, workspace, flags, SECRETS);
    expect(run.code).toBe(0);
    return {
      stdout: run.stdout,
      outputs: toolOutcomes(run.events).map((outcome) => (outcome.details as { stdout?: string } | undefined)?.stdout ?? ""),
    };
  }

  it("a read-only command sees no key in any transformed form, and the run still ends with its result", async () => {
    const { stdout, outputs } = await runBash(["env | tr a-zA-Z n-za-mN-ZA-M", "env | cut -c14-"]);
    // The commands ran (auto-approved as read-only) and printed the rest of the environment.
    expect(outputs).toHaveLength(2);
    expect(outputs[0]).toContain(rot13("PATH="));
    expect(outputs[0]).toContain(rot13("ANTHROPIC_BASE_URL="));
    // ANTHROPIC_BASE_URL=http://127.0.0.1:… from its 14th character on.
    expect(outputs[1]).toContain("URL=http://127.0.0.1:");
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(leaks(stdout, secret), `${name} leaked into stdout`).toBe(false);
      expect(outputs[0], `${name} reached the command`).not.toContain(rot13(`${name}=`));
    }
  });

  it("--pass-env hands over the one variable it names, and only that one", async () => {
    const { stdout, outputs } = await runBash(["env | tr a-zA-Z n-za-mN-ZA-M"], ["--pass-env", "GITHUB_TOKEN"]);
    expect(outputs[0]).toContain(rot13(`GITHUB_TOKEN=${SECRETS.GITHUB_TOKEN}`));
    expect(leaks(stdout, SECRETS.ANTHROPIC_API_KEY)).toBe(false);
    expect(leaks(stdout, SECRETS.OPENAI_API_KEY)).toBe(false);
  });

  it("an MCP stdio server gets no key but the ones its own env block names", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "done" }] });
    const recorded = join(workspace.root, "server-env.txt");
    // The server records its environment, then becomes the repository's test MCP server.
    const server = {
      command: "/bin/sh",
      args: ["-c", 'env > "$0"; exec "$1" "$2"', recorded, process.execPath, SERVER],
      env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", MCP_TEST_NAME: "recorder" },
    };
    const run = await runPromptAsUser(user, workspace, ["--mcp-config", JSON.stringify({ mcpServers: { recorder: server } })], SECRETS);
    const init = run.events.find((event) => event.type === "system" && event.subtype === "init") as
      | { mcp_servers?: Array<{ name: string; status: string }> }
      | undefined;
    expect(init?.mcp_servers).toEqual([{ name: "recorder", status: "connected" }]);
    const environment = await readFile(recorded, "utf8");
    expect(environment).toContain("PATH=");
    expect(environment).toContain(`GITHUB_TOKEN=${SECRETS.GITHUB_TOKEN}`);
    expect(environment).not.toContain(SECRETS.ANTHROPIC_API_KEY);
    expect(environment).not.toContain(SECRETS.OPENAI_API_KEY);
    expect(environment).not.toMatch(/^(ANTHROPIC_API_KEY|OPENAI_API_KEY)=/m);
  });

  it("an MCP stdio server without an env block gets no key at all", async () => {
    workspace = await createWorkspace("text");
    await workspace.useScenario({ turns: [{ text: "done" }] });
    const recorded = join(workspace.root, "server-env.txt");
    const server = { command: "/bin/sh", args: ["-c", 'env > "$0"; exec "$1" "$2"', recorded, process.execPath, SERVER] };
    await runPromptAsUser(user, workspace, ["--mcp-config", JSON.stringify({ mcpServers: { recorder: server } })], SECRETS);
    const environment = await readFile(recorded, "utf8");
    expect(environment).toContain("PATH=");
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(environment, name).not.toContain(secret);
      expect(environment, name).not.toMatch(new RegExp(`^${name}=`, "m"));
    }
  });
});
