import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject, onTestFinished, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, testConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { createMessenger, type Messenger } from '../src/messaging/send.ts';
import { createSession, findUserByEmail } from '../src/modules/identity/repository.ts';
import type { NormalRow } from '../src/pipeline/types.ts';
import { seedDemoData } from '../src/seed/demo.ts';
import { dataDirCopy } from './setup/data-dir.ts';
import { DEMO_PASSWORD, seedsLikeTemplate } from './setup/demo-seed.ts';

export type DbKind = 'pglite' | 'pg';

/** The databases API tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabaseKinds(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
}

/**
 * A fresh, migrated database. On PostgreSQL each call creates its own database (dropped on
 * close) so test files never see each other's rows. Both start from the run's migrated template
 * (setup/databases.ts, decision 063) when there is one; `migrate()` then finds nothing to apply,
 * and is still called so a database is never used short of a migration.
 */
export async function openTestDatabase(kind: DbKind): Promise<Database> {
  return openCopy(kind, 'migrated');
}

/**
 * A copy of the run's template with the demo seeded (decision 064), or null when the run made
 * none (helpers used outside this vitest config): the caller seeds.
 */
async function openDemoCopy(kind: DbKind): Promise<Database | null> {
  if (!inject(kind === 'pglite' ? 'pgliteDemoTemplate' : 'pgDemoTemplate')) return null;
  return openCopy(kind, 'demo');
}

async function openCopy(kind: DbKind, from: 'migrated' | 'demo'): Promise<Database> {
  if (kind === 'pglite') {
    const template = inject(from === 'demo' ? 'pgliteDemoTemplate' : 'pgliteTemplate');
    if (!template) {
      const database = await openDatabase({ kind: 'pglite', dataDir: null });
      await database.migrate();
      return database;
    }
    const copy = await dataDirCopy(template);
    const database = await openDatabase({ kind: 'pglite', dataDir: copy.dataDir });
    await database.migrate();
    return {
      ...database,
      async close() {
        await database.close();
        await copy.remove();
      },
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const template = inject(from === 'demo' ? 'pgDemoTemplate' : 'pgTemplate');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'pg', url: url.toString() });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** A database with the demo seeded, for tests that build their own app: a copy of the run's template, else seeded here. */
export async function openDemoDatabase(kind: DbKind): Promise<Database> {
  const copy = await openDemoCopy(kind);
  if (copy) return copy;
  const database = await openTestDatabase(kind);
  await seedDemoData(database.db, testConfig({ demoPassword: DEMO_PASSWORD }));
  return database;
}

export { DEMO_PASSWORD };

export type TestContext = { app: FastifyInstance; database: Database; config: Config; close(): Promise<void> };

/**
 * The whole server on a fresh database with the demo data, for `app.inject()`: a copy of the run's
 * seeded template, or seeded here when the overrides change what the seed reads (decision 064).
 * `demo: 'template'` copies the template even then, for a test that needs the overrides only in
 * the running app (an SMTP transport, say) and not in how the demo was seeded.
 */
export async function startTestApp(
  kind: DbKind,
  overrides: Partial<Config> = {},
  options: { demo?: 'template' } = {},
): Promise<TestContext> {
  const config = testConfig({ demoPassword: DEMO_PASSWORD, ...overrides });
  const copy = options.demo === 'template' || seedsLikeTemplate(overrides) ? await openDemoCopy(kind) : null;
  const database = copy ?? (await openTestDatabase(kind));
  if (!copy) await seedDemoData(database.db, config);
  const app = await buildApp(config, { database });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Signs in through the API and returns the bearer token. */
export async function login(app: FastifyInstance, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: { token: string } }).data.token;
}

/**
 * A session for any account, made directly: the API never issues one to a refused account,
 * but a token can outlive a demotion, and the server must still refuse it.
 */
export async function sessionFor(ctx: TestContext, email: string): Promise<string> {
  const user = await findUserByEmail(ctx.database.db, email);
  if (!user) throw new Error(`no user ${email}`);
  const { token } = await createSession(ctx.database.db, user.id, '127.0.0.1', ctx.config.session);
  return token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * One scheduled report (the demo has none), so tests that walk every route find a record for
 * /api/report-schedules/:id (Send now, Delete, edit, status).
 */
export async function addScheduledReport(app: FastifyInstance, headers: Record<string, string>): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/report-schedules',
    headers,
    payload: {
      report: 'performance',
      name: 'Weekly results',
      recipients: ['owner@example.com'],
      frequency: 'weekly',
      hour: 7,
      timezone: 'America/Chicago',
    },
  });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`scheduled report: ${res.statusCode} ${res.body}`);
}

/** A messenger whose e-mail transport always fails with a provider's temporary error (retries, Retry failed). */
export function failingMessenger(db: Database['db'], now: () => Date): Messenger {
  return createMessenger(db, testConfig().messaging, {
    now,
    email: {
      name: 'broken',
      send: async () => {
        throw new Error('421 4.3.0 Temporary failure');
      },
      close: () => undefined,
    },
  });
}

/** A feed row after normalize, as `admitRows` takes it: a customer with an e-mail only, unless told otherwise. */
export function normalRow(
  row: Pick<NormalRow, 'rowNumber' | 'email' | 'transactionId' | 'transactionDate' | 'locationId'> & Partial<NormalRow>,
): NormalRow {
  return {
    firstName: `Pat${row.rowNumber}`,
    lastName: null,
    phone: null,
    personnelId: null,
    productId: null,
    referralSourceId: null,
    amount: null,
    smsOptIn: false,
    raw: {},
    ...row,
  };
}

/**
 * A fake clock for a test of time windows (sign-in back-off): Date stands two hours ahead and moves
 * 10 ms at each call of the returned function, so what lapses between two calls never depends on
 * the machine's speed. The real clock is back when the test ends.
 */
export function steppingClock(): () => void {
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const t0 = Date.now() + 7_200_000;
  let step = 0;
  return () => {
    vi.setSystemTime(new Date(t0 + 10 * step++));
  };
}
