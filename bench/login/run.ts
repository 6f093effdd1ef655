/**
 * bench/login: what an attacker measures at `POST /api/login`, on PGlite (and PostgreSQL).
 *
 *   npx tsx bench/login/run.ts
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/login/run.ts   # also PostgreSQL (creates and drops bench_login)
 *
 * 1. Timing: the answer time of a wrong password for a known account, an unknown account and an
 *    account without a password (a client portal user), interleaved in one run, median and p95.
 *    The throttle's limits are lifted for this part so every attempt reaches the password check;
 *    each attempt comes from its own address (X-Forwarded-For behind a trusted proxy).
 * 2. Flood: with the real limits, BENCH_FLOOD wrong passwords in a row from one address, with
 *    BENCH_BACKGROUND attempts from other addresses already in `login_attempts`: how many reached
 *    the password check, the time of a refused (429) answer, the System Logs rows the flood left,
 *    and the plan of the throttle query.
 *
 * The real server listens on a local port in this process and is called over HTTP. Results:
 * bench/results/login-timing.json (BENCH_OUT to write elsewhere); table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { type Config, testConfig } from '../../apps/server/src/config.ts';
import { type Database, openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { users } from '../../apps/server/src/db/schema/index.ts';
import { PASSWORD_HASH_COST } from '../../apps/server/src/lib/crypto.ts';
import * as identity from '../../apps/server/src/modules/identity/throttle.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPEAT = Number(process.env.BENCH_REPEAT ?? 150);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 1000);
const BACKGROUND = Number(process.env.BENCH_BACKGROUND ?? 200_000);
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench/results/login-timing.json');
const PASSWORD = 'demo-password';

type Stats = { median: number; p95: number; min: number; max: number; n: number };
function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round((s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0) * 100) / 100;
  return { median: at(0.5), p95: at(0.95), min: at(0), max: at(1), n: s.length };
}

async function post(base: string, email: string, password: string, forwardedFor: string) {
  const t = performance.now();
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t };
}

// The production hash cost: tests lower it (docs/decisions/088-password-hash-cost-in-tests.md), this measures sign-in as deployed.
const PRODUCTION = { demoPassword: PASSWORD, passwordHashCost: PASSWORD_HASH_COST };

async function serve(database: Database, overrides: Partial<Config>) {
  const config = testConfig({ ...PRODUCTION, trustProxy: true, ...overrides });
  const app = await buildApp(config, { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app, base: `http://127.0.0.1:${address.port}`, config };
}

async function timing(database: Database) {
  const defaults = testConfig().loginLimits;
  const { app, base } = await serve(database, { loginLimits: { ...defaults, perAccountAndIp: 1e9, perIp: 1e9 } });
  const [portalUser] = await database.db.select({ email: users.email }).from(users).where(isNull(users.passwordHash)).limit(1);
  if (!portalUser) throw new Error('no account without a password in the demo data');
  const cases = {
    knownWrongPassword: 'admin@example.com',
    unknownAccount: 'nobody-here@example.com',
    accountWithoutPassword: portalUser.email,
  } as const;
  type Case = keyof typeof cases;
  const names = Object.keys(cases) as Case[];
  const ms: Record<Case, number[]> = { knownWrongPassword: [], unknownAccount: [], accountWithoutPassword: [] };
  let n = 0;
  const address = () => {
    n += 1;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  };
  for (let i = 0; i < 10; i++) for (const c of names) await post(base, cases[c], 'wrong-password', address());
  for (let i = 0; i < REPEAT; i++) {
    // Rotate the order so no case always runs right after another.
    for (let k = 0; k < names.length; k++) {
      const c = names[(i + k) % names.length] as Case;
      const r = await post(base, cases[c], 'wrong-password', address());
      if (r.status !== 401) throw new Error(`${c}: expected 401, got ${r.status}`);
      ms[c].push(r.ms);
    }
  }
  await app.close();
  return {
    knownWrongPassword: stats(ms.knownWrongPassword),
    unknownAccount: stats(ms.unknownAccount),
    accountWithoutPassword: stats(ms.accountWithoutPassword),
  };
}

async function flood(database: Database) {
  const t0 = performance.now();
  // Other addresses' attempts over the last hour: the throttle must not read them.
  await database.db.execute(sql`
    insert into login_attempts (email, ip, succeeded, at)
    select 'user' || (i % 5000) || '@example.com', '198.51.' || (i % 200) || '.' || (i / 200 % 250),
      i % 10 = 0, now() - (i % 3600) * interval '1 second'
    from generate_series(1, ${BACKGROUND}::int) as i`);
  await database.db.execute(sql`analyze login_attempts`);
  const backgroundSeconds = (performance.now() - t0) / 1000;

  const { app, base, config } = await serve(database, {});
  const ip = '203.0.113.50';
  const results: { status: number; ms: number }[] = [];
  const started = performance.now();
  for (let i = 0; i < FLOOD; i++) results.push(await post(base, 'admin@example.com', `guess-${i}`, ip));
  const seconds = (performance.now() - started) / 1000;
  await app.close();

  const [logRows] = rowsOf(await database.db.execute(sql`select count(*)::int as n from system_logs where ip = ${ip}`));
  let plan: string[] = [];
  if ('throttleStateQuery' in identity) {
    const explained = await database.db.execute(
      sql`explain ${identity.throttleStateQuery('admin@example.com', ip, config.loginLimits.windowMinutes, new Date())}`,
    );
    plan = rowsOf(explained).map((r) => String(Object.values(r)[0]));
  }
  return {
    backgroundAttempts: BACKGROUND,
    backgroundInsertSeconds: Math.round(backgroundSeconds * 10) / 10,
    attempts: FLOOD,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(FLOOD / seconds),
    passwordChecked401: results.filter((r) => r.status === 401).length,
    refused429: results.filter((r) => r.status === 429).length,
    ms401: stats(results.filter((r) => r.status === 401).map((r) => r.ms)),
    ms429: stats(results.filter((r) => r.status === 429).map((r) => r.ms)),
    systemLogRowsForTheAddress: Number(logRows?.n ?? 0),
    throttleQueryPlan: plan,
  };
}

async function run(kind: 'pglite' | 'pg', url?: string) {
  const database = await openDatabase(kind === 'pglite' ? { kind, dataDir: null } : { kind, url: url ?? '' });
  await database.migrate();
  await seedDemoData(database.db, testConfig(PRODUCTION));
  console.log(`${kind}: timing, ${REPEAT} attempts per case…`);
  const t = await timing(database);
  console.table(t);
  console.log(`${kind}: flood of ${FLOOD} attempts from one address over ${BACKGROUND.toLocaleString()} other attempts…`);
  const f = await flood(database);
  console.log(JSON.stringify(f, null, 2));
  await database.close();
  return { database: kind, timing: t, flood: f };
}

async function main() {
  const runs = [await run('pglite')];
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('drop database if exists bench_login with (force)');
    await admin.query('create database bench_login');
    await admin.end();
    const target = new URL(url);
    target.pathname = '/bench_login';
    try {
      runs.push(await run('pg', target.toString()));
    } finally {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query('drop database if exists bench_login with (force)');
      await dropper.end();
    }
  }
  const result = { measuredAt: new Date().toISOString(), node: process.version, repeat: REPEAT, runs };
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written ${OUT}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
