import { execFile } from "node:child_process";

/** gcloud starts a Python interpreter and may refresh its token over the network first. */
const gcloudTimeoutMs = 15_000;

/**
 * gcloud tokens live about an hour and gcloud refreshes its own cached token before it
 * expires, so asking again every few minutes never hands an expired token to a request.
 */
const tokenReuseMs = 5 * 60_000;

/**
 * Access tokens from the gcloud CLI (`gcloud auth print-access-token`), for people logged in
 * with `gcloud auth login` instead of holding a Gemini API key.
 *
 * Contract: the returned function resolves with a non-empty token, or rejects with an Error
 * whose message tells the user how to get credentials (it is shown to them as the turn's
 * error). `env` is the child's environment; its PATH is where gcloud is looked up.
 */
export function createGcloudTokenSource(env: NodeJS.ProcessEnv, now: () => number = Date.now): () => Promise<string> {
  let cached: { token: string; fetchedAt: number } | undefined;
  return async () => {
    if (cached && now() - cached.fetchedAt < tokenReuseMs) return cached.token;
    const token = await printAccessToken(env);
    cached = { token, fetchedAt: now() };
    return token;
  };
}

function printAccessToken(env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    // The one child that keeps the credentials: gcloud is agentwire's own way to its provider
    // login (CLOUDSDK_*, GOOGLE_APPLICATION_CREDENTIALS), and no model or repository chooses it.
    execFile("gcloud", ["auth", "print-access-token"], { env, timeout: gcloudTimeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      const token = stdout.trim();
      if (!error && token !== "") return resolve(token);
      reject(new Error(describeFailure(error, stderr)));
    });
  });
}

const remedy = "Set GEMINI_API_KEY (or GOOGLE_API_KEY), or install the gcloud CLI and run `gcloud auth login`.";

function describeFailure(error: (Error & { code?: unknown; killed?: boolean }) | null, stderr: string): string {
  if (error?.code === "ENOENT") return `No Gemini credentials: GEMINI_API_KEY is not set and gcloud is not installed. ${remedy}`;
  if (error?.killed) return `gcloud auth print-access-token did not answer within ${gcloudTimeoutMs / 1000} s. ${remedy}`;
  const detail =
    stderr
      .trim()
      .split("\n")
      .find((line) => line.trim() !== "") ?? "it printed no token";
  return `gcloud auth print-access-token failed (${detail}). ${remedy}`;
}
