import { readFile } from "node:fs/promises";
import path from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

/**
 * The page's files, read once and kept: a handful of small files. The package's `web/` folder
 * holds the page's sources; its scripts are served from the build's bundle (`dist/web/`, beside
 * `web/` in the package: scripts/build.mjs joins web/app.js with the presentation module it
 * imports from src/), never as the sources, which import TypeScript. Only names inside those
 * folders are served (no `..`, no absolute paths). Misses are not kept: the files need no token,
 * so anyone who reaches the port could grow a cache of them.
 */
export class StaticFiles {
  private readonly cache = new Map<string, { body: Buffer; type: string }>();
  private readonly scripts: string;

  constructor(private readonly root: string) {
    this.scripts = path.resolve(root, "..", "dist", "web");
  }

  async get(name: string): Promise<{ body: Buffer; type: string } | undefined> {
    const cached = this.cache.get(name);
    if (cached) return cached;
    const folder = path.extname(name) === ".js" ? this.scripts : this.root;
    const file = path.resolve(folder, name);
    const type = CONTENT_TYPES[path.extname(file)];
    if (!type || !file.startsWith(`${folder}${path.sep}`)) return undefined;
    const found = await readFile(file).then(
      (body) => ({ body, type }),
      () => undefined,
    );
    if (found) this.cache.set(name, found);
    return found;
  }
}
