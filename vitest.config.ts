import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests spawn the built binary; build it once before any test runs.
    globalSetup: ["test/helpers/global-setup.ts"],
    // Most of a test file's time is spent waiting for the processes it spawns, not in the worker:
    // vitest's default (cores - 1) ran one file at a time on 2 cores. Measured on a loaded 2-core
    // machine, a full run took 658 s with one worker, 410 s with three, 281 s with four.
    maxWorkers: Math.max(4, availableParallelism() - 1),
    testTimeout: 30_000,
    reporters: ["default", "./test/helpers/plain-summary-reporter.ts"],
    hookTimeout: 60_000,
    // expect.poll waits for something that must come true (a page reconnecting, a line drawn);
    // its default second is too short on a loaded 2-core machine and made web-page tests flaky.
    expect: { poll: { timeout: 10_000 } },
  },
});
