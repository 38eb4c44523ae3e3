// Writes protocol/schema.json and protocol/flat-schema.json from the zod schemas in protocol/. The protocol is TypeScript, so
// it is bundled to a temporary module first (esbuild is already the build tool).
import { build } from "esbuild";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const directory = await mkdtemp(join(tmpdir(), "agentwire-schema-"));
try {
  const outfile = join(directory, "json-schema.mjs");
  await build({
    absWorkingDir: root,
    entryPoints: ["protocol/json-schema.ts"],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  const { protocolJsonSchema, flatJsonSchema } = await import(pathToFileURL(outfile).href);
  await writeFile(join(root, "protocol", "schema.json"), `${JSON.stringify(protocolJsonSchema(), null, 2)}\n`);
  await writeFile(join(root, "protocol", "flat-schema.json"), `${JSON.stringify(flatJsonSchema(), null, 2)}\n`);
  process.stderr.write("wrote protocol/schema.json and protocol/flat-schema.json\n");
} finally {
  await rm(directory, { recursive: true, force: true });
}
