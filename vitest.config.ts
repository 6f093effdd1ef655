import { defineConfig } from 'vitest/config';

// One run for every unit and API test; the browser (Playwright) tests run separately.
export default defineConfig({
  test: {
    // Two files at a time even on a two-core machine (vitest's default there is one): a file spends much of
    // its time waiting on PostgreSQL, a process of its own. Each file has its own database (decision 063).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          environment: 'node',
          // Migrates one PGlite and one PostgreSQL template per run; each test database is a copy (decision 063).
          globalSetup: ['apps/server/test/setup/databases.ts'],
          // Each file opens its own database; PGlite start-up and scrypt need more than 5 s, and two files share two cores.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
    ],
  },
});
