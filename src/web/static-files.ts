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
 * The page's files, from the package's `web/` folder, read once and kept: a handful of small
 * files. Only names inside that folder are served (no `..`, no absolute paths). Misses are not
 * kept: the files need no token, so anyone who reaches the port could grow a cache of them.
 */
export class StaticFiles {
  private readonly cache = new Map<string, { body: Buffer; type: string }>();

  constructor(private readonly root: string) {}

  async get(name: string): Promise<{ body: Buffer; type: string } | undefined> {
    const cached = this.cache.get(name);
    if (cached) return cached;
    const file = path.resolve(this.root, name);
    const type = CONTENT_TYPES[path.extname(file)];
    if (!type || !file.startsWith(`${this.root}${path.sep}`)) return undefined;
    const found = await readFile(file).then((body) => ({ body, type }), () => undefined);
    if (found) this.cache.set(name, found);
    return found;
  }
}
