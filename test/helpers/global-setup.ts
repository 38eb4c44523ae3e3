import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Builds dist/ so the end-to-end tests run the same bundle users run. */
export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
}
