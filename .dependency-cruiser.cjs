// The layering of agentwire, enforced by `npm test` (test/architecture.test.ts).
//
// Dependencies point one way: consumers (cli, chat, the library API in api/, mock-server) on top, then the
// stdin/stdout adapter (server), the session core (session), the loop (agent), the parts the
// loop drives (providers, tools, permissions, skills, sessions), and at the bottom the data every
// layer shares (conversation), small leaf utilities (paths, text, version, process: how a child
// process is started, supervised and captured, and what it may inherit) and the public wire
// contract (protocol/, which imports nothing from src/). validation/ (how zod is set up: its
// English messages, one-shot parse options) is open to every folder, like protocol/.
//
// Each folder lists the folders it may import; anything else under src/ or protocol/ is a
// violation, and so is any cycle between modules.

/** folder (under src/) → the src/ folders it may import. protocol/ and validation/ are open to every src/ folder. */
const layers = {
  conversation: [],
  paths: [],
  text: [],
  version: [],
  validation: [],
  // A leaf: starting, supervising and capturing child processes for the layers that run others' code
  // (tools for Bash, hooks, mcp for stdio servers), and the credential-free environment every child gets.
  process: ["text"],
  // text: the one UUID maker (random-uuid.ts), for the ids some providers' streams lack.
  providers: ["conversation", "text", "version"],
  // text: the credential formats that redaction and the children's environment share.
  tools: ["conversation", "paths", "process", "text", "version"],
  permissions: ["conversation", "paths"],
  // Skills build on the tools: the Skill tool is one, and skill scripts run through Bash.
  skills: ["conversation", "paths", "text", "tools"],
  // MCP servers' tools are tools like the built-ins; stdio servers start through process/, supervised like Bash.
  mcp: ["conversation", "process", "tools", "version"],
  sessions: ["conversation", "text", "version"],
  // Consent for what a repository brings: the trust store and the fingerprints it compares.
  // The shell grammar of permissions/ reads the scripts a hook command names.
  trust: ["paths", "permissions", "text"],
  // Claude Code's settings files: read, merged, and the project's trusted only as recorded.
  settings: ["paths", "trust"],
  // Agent definitions (subagent kinds): markdown files read with the frontmatter reader of text/,
  // and data from hosts (a project's files read as trust/ reads them: regular, bounded, never
  // blocking); nothing of the session or the tools, so the Agent tool and the listings build on them.
  agents: ["paths", "text", "trust"],
  // Shell-command hooks: each a supervised child process (process/), nothing else of agentwire's.
  hooks: ["process"],
  agent: ["conversation", "providers", "tools", "permissions", "skills", "paths", "text", "version"],
  // render/present: how a call reads in one line, the same words a permission question carries to the host.
  session: [
    "agents",
    "conversation",
    "providers",
    "tools",
    "permissions",
    "skills",
    "sessions",
    "agent",
    "mcp",
    "paths",
    "process",
    "text",
    "trust",
    "settings",
    "hooks",
    "version",
    "render/present",
  ],
  server: [
    "agents",
    "conversation",
    "providers",
    "tools",
    "permissions",
    "skills",
    "sessions",
    "agent",
    "session",
    "mcp",
    "paths",
    "text",
    "version",
  ],
  // People-facing views of the event stream (render, sessions show, -p progress, chat).
  render: ["conversation", "sessions"],
  api: ["conversation", "providers", "permissions", "session", "sessions", "settings", "trust", "render", "paths", "text", "version"],
  // The interactive chat: a consumer of the library API and the renderer, nothing below them.
  chat: ["api", "render"],
  // The browser UI's server: a consumer of the library API, like the chat (and of the path helpers and the UUID maker).
  web: ["api", "paths", "text"],
  "mock-server": [],
};

const folderOf = (name) => (name === "version" ? "^src/version\\.ts$" : `^src/${name}/`);

const layerRules = Object.entries(layers).map(([folder, allowed]) => ({
  name: `layer-${folder}`,
  comment: `src/${folder} may import only: ${allowed.length > 0 ? allowed.join(", ") : "nothing else in src/"}${folder === "mock-server" ? "" : " (and protocol/, validation/)"}.`,
  severity: "error",
  from: { path: folderOf(folder) },
  to: {
    path: "^(src|protocol)/",
    pathNot: [folderOf(folder), ...allowed.map(folderOf), ...(folder === "mock-server" ? [] : ["^protocol/", "^src/validation/"])],
  },
}));

/**
 * Inner walls: a folder's engines know nothing of the folder around them, so each can be read, tested
 * and replaced alone. `from` sub-folder → the files outside it (same layer) it may still import.
 */
const innerWalls = {
  // Tree walking and text search for Grep and Glob: pure search, no tool plumbing.
  "src/tools/search/": [],
  // bwrap and the confinement of commands judged read-only: how a command is wrapped, not which.
  "src/tools/sandbox/": [],
  // Fetching pages (address guard, HTTP, HTML conversion) is pure web plumbing, loaded only when
  // WebFetch runs: the tool file above it decides; nothing here reaches back into the tools.
  "src/tools/web/": [],
  // The edit engine may fail the way a tool fails and resolve workspace paths, nothing more.
  "src/tools/edit/": ["^src/tools/(define-tool|paths|redact-secrets)\\.ts$"],
  // Notebook parsing, viewing and cell edits: the format alone; paths, permissions and writing stay with the tools.
  "src/tools/notebook/": [],
  // Shell analysis reads commands; the policy above it decides. Its only look up is the protected names.
  "src/permissions/shell/": ["^src/permissions/protected-paths\\.ts$"],
  // Wire translation (agent events to Claude Code's lines, the flat dialect, results, system/init): it
  // knows the session only through the usage it reports, so either side changes without the other.
  "src/session/wire/": ["^src/session/turn-accounting\\.ts$"],
};

const wallRules = Object.entries(innerWalls).map(([inner, allowed]) => {
  const layer = `${inner.split("/").slice(0, 2).join("/")}/`;
  return {
    name: `wall-${inner.slice(4, -1).replace("/", "-")}`,
    comment: `${inner} may import nothing else from ${layer}${allowed.length > 0 ? ` but ${allowed.join(", ")}` : ""}.`,
    severity: "error",
    from: { path: `^${inner}` },
    to: { path: `^${layer}`, pathNot: [`^${inner}`, ...allowed] },
  };
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle ties modules together so that neither can change, be tested or be loaded alone.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "protocol-is-standalone",
      comment: "protocol/ is the public contract: consumers import it without the rest of agentwire.",
      severity: "error",
      from: { path: "^protocol/" },
      to: { path: "^src/" },
    },
    ...layerRules,
    ...wallRules,
    {
      name: "present-runs-in-the-browser",
      // What a call, its result and an answer's markdown say, for the terminal, the chat and the page
      // alike: a leaf, so the page's bundle carries it alone and no view's styling leaks in.
      comment: "src/render/present/ is bundled into the web page: no Node built-ins, no packages, nothing from src/ outside it.",
      severity: "error",
      from: { path: "^src/render/present/" },
      to: { pathNot: "^src/render/present/" },
    },
    {
      name: "library-is-not-the-cli",
      comment: "The library API (src/api) and the session core never reach into the CLI adapter.",
      severity: "error",
      from: { path: "^src/(api|session|server)/" },
      to: { path: "^src/cli" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs"] },
  },
};
