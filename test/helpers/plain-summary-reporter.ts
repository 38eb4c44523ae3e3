import type { Reporter } from "vitest/reporters";

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary:
 * CI tooling that does not know vitest's format reads this line to count tests.
 */
export default class PlainSummaryReporter implements Reporter {
  onFinished(files: Task[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const visit = (task: Task): void => {
      if (task.tasks) task.tasks.forEach(visit);
      if (task.type !== "test") return;
      if (task.result?.state === "pass") counts.passed++;
      else if (task.result?.state === "fail") counts.failed++;
      else counts.skipped++;
    };
    files.forEach(visit);
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
