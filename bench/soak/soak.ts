import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { snsTestKey, TEST_TOPIC_ARN } from '../../apps/server/test/sns-signer.ts';
import { bundleServer } from './bundle.ts';
import { type Check, checkInvariants, type Produced } from './checks.ts';
import { copyDatabase, createCluster } from './cluster.ts';
import { killAndRestart, lapseOrphanedLeases, type Outage, restartPostgres } from './faults.ts';
import { soakHttp, type Tally } from './http.ts';
import { type Ledger, newLedger, runLoad } from './load.ts';
import { ROOT, type SoakProcess, soakProcess } from './processes.ts';
import { prepareTarget } from './setup.ts';

export type SoakOptions = {
  /** How long the load runs. */
  minutes: number;
  /** PostgreSQL listens on it, the two APIs on the next two ports. */
  portBase: number;
  /** PostgreSQL's binaries (cluster.ts postgresBinaries). */
  bin: string;
  /**
   * A database with the demo already seeded (with the test run's password and secret key) to copy
   * instead of seeding through the first API; the 10-minute run seeds.
   */
  seededFrom?: string;
  log?: (line: string) => void;
};

export type SoakSummary = {
  minutes: number;
  startedAt: string;
  /** `os.loadavg()` at the start and at the end: the machine may be busy with other work. */
  loadAverage: { start: number[]; end: number[] };
  seedSeconds: number;
  faults: { atSecond: number; what: string; detail: unknown }[];
  http: Tally;
  outage: Outage | null;
  acknowledged: { ingestRows: number; uploads: number; responses: number; sesEvents: number; reads: number; unacknowledged: number };
  produced: Produced | null;
  throughput: { callsPerSecond: number; acknowledgedWritesPerSecond: number; readsPerSecond: number; rowsAdmittedPerSecond: number };
  drain: { seconds: number; leasesLapsed: number };
  /** Processes that were not running at the end (none killed by the script stays down): must be empty. */
  exited: string[];
  /** Each exit the script did not cause, with the process's last lines: must be empty. */
  unexpectedExits: string[];
  checks: Check[];
  passed: boolean;
};

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The test run's demo password and secret key (apps/server/src/config.ts testConfig), so a copied test demo opens as seeded. */
const DEMO_PASSWORD = 'demo-password';
const SECRET_KEY = 'test-secret-key-of-at-least-32-characters';

/**
 * The soak (bench/README.md, Soak): its own PostgreSQL, two API and two worker processes, the mixed
 * load for `minutes`, one API and one worker killed (SIGKILL) and started again, PostgreSQL
 * restarted once; then the drain and the invariants. bench/soak/run.ts runs it for 10 minutes,
 * apps/server/test/soak-short.test.ts for about one.
 */
export async function runSoak(options: SoakOptions): Promise<SoakSummary> {
  const log = options.log ?? (() => undefined);
  const startedAt = new Date();
  const start = loadavg();
  const cluster = createCluster(options.bin, options.portBase);
  const processes: SoakProcess[] = [];
  try {
    cluster.start();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('create database soak');
    await admin.end();
    const databaseUrl = cluster.adminUrl.replace(/\/postgres$/, '/soak');
    const signer = snsTestKey();
    const common = { DATABASE_URL: databaseUrl, SECRET_KEY, DEMO_PASSWORD };
    const apiEnv = {
      ...common,
      WORKERS: '0',
      DEMO_DATA: 'on',
      SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN,
      SNS_TEST_CERT_FILE: signer.certFile,
    };
    const preload = [join(ROOT, 'apps/web/e2e/fake-sns-certificate.mjs')];
    const bundle = await bundleServer(`soak-${options.portBase}`);
    const apis = [1, 2].map((i) => soakProcess(`api-${i}`, 'api', bundle.server, apiEnv, { port: options.portBase + i, preload }));
    const workers = [1, 2].map((i) => soakProcess(`worker-${i}`, 'worker', bundle.worker, common));
    processes.push(...apis, ...workers);

    // The first API migrates and seeds the demo alone; the others start on a seeded database.
    const seedStarted = Date.now();
    if (options.seededFrom) copyDatabase(options.bin, options.seededFrom, databaseUrl);
    await apis[0]?.start();
    const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);
    log(`demo ${options.seededFrom ? 'copied' : 'seeded'} and ${apis[0]?.name} up in ${seedSeconds} s`);
    await Promise.all([apis[1]?.start(), ...workers.map((w) => w.start())]);
    const http = soakHttp(apis.map((a) => a.url ?? ''));
    const target = await prepareTarget(http, databaseUrl, DEMO_PASSWORD);
    log(`target: client ${target.clientId}, survey ${target.surveyId}, location ${target.locationId}`);

    const ledger: Ledger = newLedger();
    const durationMs = options.minutes * 60_000;
    const loadStarted = Date.now();
    // The load runs its minutes and, on a slow machine, on until the last fault is over.
    let scriptDone = false;
    const ended = () => scriptDone && Date.now() - loadStarted >= durationMs;
    const load = runLoad({ http, target, databaseUrl, ledger, until: ended, signerDir: signer.dir });

    const faults: SoakSummary['faults'] = [];
    const at = (fraction: number) => pause(Math.max(0, loadStarted + durationMs * fraction - Date.now()));
    const second = () => Math.round((Date.now() - loadStarted) / 1000);
    let outage: Outage | null = null;
    const script = (async () => {
      await at(0.2);
      log(`${second()} s: SIGKILL ${apis[1]?.name}`);
      faults.push({
        atSecond: second(),
        what: `SIGKILL ${apis[1]?.name}, restarted`,
        detail: await killAndRestart(apis[1] as SoakProcess, 2_000),
      });
      await at(0.35);
      log(`${second()} s: SIGKILL ${workers[0]?.name}`);
      faults.push({
        atSecond: second(),
        what: `SIGKILL ${workers[0]?.name}, restarted`,
        detail: await killAndRestart(workers[0] as SoakProcess, 2_000),
      });
      await at(0.6);
      log(`${second()} s: PostgreSQL restart`);
      outage = await restartPostgres(cluster, apis, 3_000);
      faults.push({ atSecond: second(), what: 'PostgreSQL stopped (fast), restarted 3 s later', detail: outage });
      log(`${second()} s: PostgreSQL back; recovery ${JSON.stringify(outage.recoveryMs)} ms`);
    })().finally(() => {
      scriptDone = true;
    });
    await Promise.all([load, script]);
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    log(`load stopped after ${Math.round(loadSeconds)} s: ${JSON.stringify(http.tally)}`);

    const exited = processes.filter((p) => !p.alive()).map((p) => p.name);
    const drain = await drainWork(databaseUrl, options.minutes < 3 ? 90_000 : 180_000, log);
    log(`drained in ${drain.seconds} s; ${drain.leasesLapsed} leases of killed processes lapsed`);
    const { checks, produced } = await checkInvariants(databaseUrl, ledger);
    const writes = ledger.ingested.length / 5 + ledger.uploads.length + ledger.responses.length + ledger.sesMessages.length;
    const rows = ledger.ingested.length + ledger.uploads.reduce((s, u) => s + u.rows, 0);
    const round = (n: number) => Math.round(n * 10) / 10;
    const summary: SoakSummary = {
      minutes: options.minutes,
      startedAt: startedAt.toISOString(),
      loadAverage: { start: start.map(round), end: loadavg().map(round) },
      seedSeconds,
      faults,
      http: http.tally,
      outage,
      acknowledged: {
        ingestRows: ledger.ingested.length,
        uploads: ledger.uploads.length,
        responses: ledger.responses.length,
        sesEvents: ledger.sesMessages.length,
        reads: ledger.reads,
        unacknowledged: ledger.unacknowledged,
      },
      produced,
      throughput: {
        callsPerSecond: round(http.tally.calls / loadSeconds),
        acknowledgedWritesPerSecond: round(writes / loadSeconds),
        readsPerSecond: round(ledger.reads / loadSeconds),
        rowsAdmittedPerSecond: round(rows / loadSeconds),
      },
      drain,
      exited,
      unexpectedExits: processes.flatMap((p) => p.unexpectedExits),
      checks,
      passed: false,
    };
    const outageFine = (o: Outage | null) =>
      o !== null &&
      o.answeredOther5xx === 0 &&
      o.answered503WithoutRetryAfter === 0 &&
      o.recoveryMs.length === 2 &&
      Math.max(...o.recoveryMs) <= 5_000;
    summary.passed =
      checks.every((c) => c.violations === 0) &&
      exited.length === 0 &&
      summary.unexpectedExits.length === 0 &&
      http.tally.serverErrors === 0 &&
      http.tally.unavailableWithoutRetryAfter === 0 &&
      outageFine(outage);
    return summary;
  } catch (err) {
    for (const p of processes) log(`--- ${p.name} ---\n${p.tail()}`);
    throw err;
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    cluster.destroy();
  }
}

/**
 * After the load: waits until nothing is due (invitations, jobs, feed runs), lapsing the leases
 * the killed worker left (faults.ts) once they are seen unchanged.
 */
async function drainWork(databaseUrl: string, timeoutMs: number, log: (line: string) => void) {
  const started = Date.now();
  let leasesLapsed = 0;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const result = await client.query<{ n: number }>(`
        select (select count(*) from survey_processing_items where status in ('queued', 'scheduled') and scheduled_at <= now() + interval '5 minutes' and transaction_id like 'SOAK-%')
             + (select count(*) from jobs where status = 'running' or (status = 'pending' and run_at <= now()))
             + (select count(*) from data_feed_runs where status = 'running') as n`);
      const left = Number(result.rows[0]?.n ?? 0);
      if (left === 0) break;
      if (Date.now() - started > timeoutMs) {
        log(`drain: ${left} still due after ${timeoutMs / 1000} s`);
        break;
      }
      leasesLapsed += await lapseOrphanedLeases(databaseUrl, 5_000);
      await pause(1_000);
    }
  } finally {
    await client.end();
  }
  return { seconds: Math.round((Date.now() - started) / 1000), leasesLapsed };
}
