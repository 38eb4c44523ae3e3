import { existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { watchProtectedEntries } from "../../src/tools/sandbox/protected-entries-watch.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "agentwire-watch-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("watchProtectedEntries", () => {
  it("removes a protected file or folder that appeared, and reports it", () => {
    const watch = watchProtectedEntries([join(root, ".mcp.json"), join(root, ".claude"), join(root, "AGENTS.md")]);
    writeFileSync(join(root, ".mcp.json"), "{}");
    mkdirSync(join(root, ".claude", "skills", "x"), { recursive: true });
    writeFileSync(join(root, ".claude", "skills", "x", "SKILL.md"), "---\n---\n");
    writeFileSync(join(root, "ordinary.txt"), "kept");
    expect(watch.undoChanges()).toEqual([join(root, ".mcp.json"), join(root, ".claude")]);
    expect(existsSync(join(root, ".mcp.json"))).toBe(false);
    expect(existsSync(join(root, ".claude"))).toBe(false);
    expect(existsSync(join(root, "ordinary.txt"))).toBe(true);
  });

  it("leaves what existed and did not change, and reports nothing", () => {
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".envrc"), "x");
    const watch = watchProtectedEntries([join(root, ".git"), join(root, ".envrc"), join(root, ".vscode")]);
    writeFileSync(join(root, ".git", "inside"), "the folder itself is bound read-only by bwrap; its identity is what is watched");
    expect(watch.undoChanges()).toEqual([]);
    expect(existsSync(join(root, ".envrc"))).toBe(true);
  });

  it("puts back a symlink the command replaced, without touching its target", () => {
    writeFileSync(join(root, "servers.json"), "{}");
    symlinkSync("servers.json", join(root, ".mcp.json"));
    const watch = watchProtectedEntries([join(root, ".mcp.json")]);
    rmSync(join(root, ".mcp.json"));
    writeFileSync(join(root, ".mcp.json"), '{"mcpServers":{"evil":{}}}');
    expect(watch.undoChanges()).toEqual([join(root, ".mcp.json")]);
    expect(lstatSync(join(root, ".mcp.json")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, ".mcp.json"))).toBe("servers.json");
    expect(existsSync(join(root, "servers.json"))).toBe(true);
  });

  it("removes the target a dangling protected symlink gained, and keeps the link", () => {
    symlinkSync("later.json", join(root, ".mcp.json"));
    const watch = watchProtectedEntries([join(root, ".mcp.json")]);
    writeFileSync(join(root, "later.json"), '{"mcpServers":{"evil":{}}}');
    expect(watch.undoChanges()).toEqual([join(root, ".mcp.json")]);
    expect(existsSync(join(root, "later.json"))).toBe(false);
    expect(lstatSync(join(root, ".mcp.json")).isSymbolicLink()).toBe(true);
  });
});
