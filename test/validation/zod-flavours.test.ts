import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/agentwire.js";

// The rule (src/validation/english-issues.ts): `zod/mini` in the modules the CLI loads before its
// first line and in the built-in tools' modules, classic zod everywhere else, and no schema of one
// flavour built into the other.

/** Static value imports (`import … from`, `export … from`), not `import type` and not `import()`. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:([^"';]*?)\s+from\s+)?["']([^"']+)["']/gm;

function sourceFiles(): string[] {
  return ["src", "protocol"].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => join(folder, file)),
  );
}

function valueImports(file: string): Array<{ names: string[]; target: string }> {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(STATIC_IMPORT)].map((match) => {
    const names = (/\{([^}]*)\}/.exec(match[1] ?? "")?.[1] ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "" && !name.startsWith("type "))
      .map((name) => name.split(/\s+as\s+/)[0]!);
    const specifier = match[2]!;
    const target = specifier.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), specifier.replace(/\.js$/, ".ts"))) : specifier;
    return { names, target };
  });
}

function flavourOf(file: string): "mini" | "classic" | undefined {
  const targets = valueImports(file).map((entry) => entry.target);
  if (targets.includes("zod/mini")) return "mini";
  return targets.includes("zod") ? "classic" : undefined;
}

/** The modules a CLI start loads before its first line: the static import closure of its entry. */
function startUpModules(): Set<string> {
  const seen = new Set<string>();
  const pending = ["src/cli/main.ts"];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { target } of valueImports(file)) if (target.endsWith(".ts") && existsSync(join(ROOT, target))) pending.push(target);
  }
  return seen;
}

/**
 * A tool module whose input schema is classic: MCP's, whose other schemas parse the servers' answers
 * and are imported by classic modules; its tools' input is whatever a server declares.
 */
const CLASSIC_TOOL_MODULES = new Set(["src/mcp/mcp-tools.ts"]);
/** Input schemas of built-in tools built outside a `defineTool(` module: the compact profile's thin Bash, Read and Write. */
const OTHER_TOOL_SCHEMA_MODULES = ["src/tools/compact-profile.ts"];

/**
 * The built-in tools' modules, which build their input schemas with `zod/mini`: a tool's schema is
 * built at its first call, on the turn's critical path, and mini builds it for less (classic binds
 * dozens of methods onto every schema it makes).
 */
function toolModules(files: readonly string[]): Set<string> {
  const defining = files.filter((file) => /\bdefineTool\(/.test(readFileSync(join(ROOT, file), "utf8")) && !CLASSIC_TOOL_MODULES.has(file));
  return new Set([...defining, ...OTHER_TOOL_SCHEMA_MODULES]);
}

describe("one zod flavour per load phase", () => {
  const files = sourceFiles();
  const startUp = startUpModules();
  const tools = toolModules(files);

  it("start-up and built-in tool modules build with zod/mini, all others with classic zod", () => {
    expect(startUp.size).toBeGreaterThan(30);
    // Every built-in tool is found (Bash … Write, Skill, Agent, ToolSearch, StructuredOutput), and MCP's module is the one exception.
    expect(tools.size).toBeGreaterThan(15);
    expect(tools).toContain("src/tools/read.ts");
    expect(tools).toContain("src/session/subagent/agent-tool.ts");
    for (const file of [...CLASSIC_TOOL_MODULES, ...OTHER_TOOL_SCHEMA_MODULES]) expect(files).toContain(file);
    const wrong = files.filter((file) => {
      const flavour = flavourOf(file);
      return flavour !== undefined && flavour !== (startUp.has(file) || tools.has(file) ? "mini" : "classic");
    });
    expect(wrong).toEqual([]);
    // Both phases hold schemas: the check sees both sides.
    expect(files.filter((file) => flavourOf(file) === "mini").length).toBeGreaterThan(5);
    expect(files.filter((file) => flavourOf(file) === "classic").length).toBeGreaterThan(20);
  });

  /**
   * The one deliberate crossing: the library's query() options validate each session setting with
   * the very field schema the CLI checks its flags with (mini, built before the first line). A
   * classic copy of those fields would be a second implementation of the same checks.
   */
  const CROSSINGS = new Set(["src/api/query-options.ts"]);

  it("no classic module builds on a mini schema", () => {
    const mini = new Set(files.filter((file) => flavourOf(file) === "mini"));
    const embedded = files
      .filter((file) => flavourOf(file) === "classic" && !CROSSINGS.has(file))
      .flatMap((file) =>
        valueImports(file)
          .filter(({ target }) => mini.has(target))
          .flatMap(({ names, target }) => names.filter((name) => name.endsWith("Schema")).map((name) => `${file}: ${name} from ${target}`)),
      );
    expect(embedded).toEqual([]);
  });
});
