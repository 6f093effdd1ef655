import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Browser tests drive Debian's Chromium against the built console served by the real server,
// on a fresh embedded database with the demo data.
const port = Number(process.env.E2E_PORT ?? 3210);
// One server, with a database of its own, per worker: a worker's files run one after another on its
// server as they did on the single one, and two workers never share a database or the server's clock.
// Playwright gives each worker process its slot (0 … workers − 1) as TEST_PARALLEL_INDEX. Two workers
// by default: on two cores they finish about a fifth sooner than one (decision 092); each test starts
// from the demo's client and the real time whatever ran before it on its server (signInAsAdmin).
// E2E_WORKERS=n sets another count.
const workers = Number(process.env.E2E_WORKERS ?? 2);
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
// Debian's headless shell (package chromium-headless-shell) is the same Chromium without the
// desktop browser around it, and runs the suite about a sixth faster on two cores (decision 086).
// Without it, the full browser in its headless mode.
const chromium =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  // Two workers, each with a browser and a server, share two cores: a long flow needs more than 30 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port + slot}`,
    // Recording a trace costs every action a snapshot, and retain-on-failure records every test to
    // keep a few: CI (one retry) records only the retry of a test that failed, which is the trace a
    // failure is read from; a local run, without retries, keeps the failures' traces (decision 082).
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The browser asks for reduced motion, so the console opens menus and dialogs without their
    // transitions (mantine-root.tsx): each action waits for a still element, not for an animation.
    reducedMotion: 'reduce',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromium,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: Array.from({ length: workers }, (_, i) => ({
    command: 'node apps/server/dist/server.js',
    cwd: join(import.meta.dirname, '..', '..'),
    url: `http://127.0.0.1:${port + i}/healthz`,
    // Two servers seed their demo at once on two cores.
    timeout: 180_000,
    reuseExistingServer: false,
    // CLOCK_CONTROL: the feed flow moves the server's clock to an invitation's send time (docs/decisions/030-test-clock.md).
    // SFTP_ALLOW_PRIVATE: the SFTP feed flow pulls from a test server on 127.0.0.1 (docs/decisions/034-outbound-addresses.md).
    env: {
      PORT: String(port + i),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'admin-console-e2e-')),
      DEMO_DATA: 'on',
      // The lowest password hash cost: the run signs in a few hundred times (docs/decisions/088-password-hash-cost-in-tests.md).
      PASSWORD_HASH_COST: '10',
      LOG_LEVEL: 'warn',
      CLOCK_CONTROL: 'on',
      SFTP_ALLOW_PRIVATE: 'on',
      // SMS_AUTH_TOKEN: the opt-out flow posts a signed inbound STOP (docs/decisions/061-sms-callbacks-and-stop.md).
      SMS_AUTH_TOKEN: 'e2e-sms-auth-token',
    },
  })),
});
