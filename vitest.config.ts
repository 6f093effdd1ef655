import { defineConfig } from 'vitest/config';

// One run for every unit and API test; the browser (Playwright) tests run separately.
export default defineConfig({
  test: {
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
          // Each file opens its own database; PGlite start-up and scrypt need more than 5 s.
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
