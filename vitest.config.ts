import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests spawn the built binary; build it once before any test runs.
    globalSetup: ["test/helpers/global-setup.ts"],
    testTimeout: 30_000,
    reporters: ["default", "./test/helpers/plain-summary-reporter.ts"],
    hookTimeout: 60_000,
  },
});
