import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests spawn the built binary; build it once before any test runs.
    globalSetup: ["test/helpers/global-setup.ts"],
    testTimeout: 30_000,
    reporters: ["default", "./test/helpers/plain-summary-reporter.ts"],
    hookTimeout: 60_000,
    // expect.poll waits for something that must come true (a page reconnecting, a line drawn);
    // its default second is too short on a loaded 2-core machine and made web-page tests flaky.
    expect: { poll: { timeout: 10_000 } },
  },
});
