import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import type { Reporter, TestCase } from 'vitest/node';

// One run for every unit and API test; the browser (Playwright) tests run separately.

/**
 * The server's test files that replace one of its modules (`vi.mock`), found by reading them: they
 * run isolated, as their own project, so a new one cannot leak its mock into a shared module graph.
 */
const MOCKING = ['apps/server/test', 'apps/server/src'].flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(dir, file))
    .filter((path) => readFileSync(path, 'utf8').includes('vi.mock(')),
);

/**
 * In CI a failed test runs once more, as the browser tests do (apps/web/playwright.config.ts): the
 * kill -9 and timeout tests share two cores with everything else there. RetriedReporter still names
 * a test that passed only on its retry (decision 085). A project option: each project sets it.
 */
const retry = process.env.CI ? 1 : 0;

/** Names, at the end of a run, each test that passed only on its retry (CI retries once: decision 085). */
class RetriedReporter implements Reporter {
  private readonly retried: string[] = [];
  onTestCaseResult(testCase: TestCase) {
    if (testCase.diagnostic()?.retryCount && testCase.result().state === 'passed') {
      this.retried.push(`${testCase.module.relativeModuleId} > ${testCase.fullName}`);
    }
  }
  onTestRunEnd() {
    if (this.retried.length === 0) return;
    console.log(`\nPassed only on a retry (${this.retried.length}):\n${this.retried.map((name) => `  ${name}`).join('\n')}\n`);
  }
}

const server = {
  include: ['apps/server/test/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
  environment: 'node',
  retry,
  // Migrates one PGlite and one PostgreSQL template per run; each test database is a copy (decision 063).
  globalSetup: ['apps/server/test/setup/databases.ts'],
  // Each file opens its own database; PGlite start-up and scrypt need more than 5 s, and two files share two cores.
  testTimeout: 60_000,
  hookTimeout: 120_000,
} as const;

export default defineConfig({
  test: {
    // Two files at a time even on a two-core machine (vitest's default there is one): a file spends much of
    // its time waiting on PostgreSQL, a process of its own. Each file has its own database (decision 063).
    maxWorkers: 2,
    reporters: ['default', new RetriedReporter()],
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
          retry,
        },
      },
      {
        test: {
          ...server,
          name: 'server',
          exclude: MOCKING,
          // One module graph per worker, not per file: evaluating the server's modules took about 5 s per
          // file, over a third of the run (docs/decisions/083-server-tests-share-modules.md). Each file
          // still opens its own database and app and closes them.
          isolate: false,
        },
      },
      {
        // Files that replace a module with vi.mock keep a module graph of their own.
        test: { ...server, name: 'server-mocks', include: MOCKING },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          retry,
          // As the server's (decision 083): 48 s → 13 s; test-setup.ts unmounts after each test.
          isolate: false,
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
    ],
  },
});
