import pg from 'pg';
import type { Cluster } from './cluster.ts';
import type { SoakProcess } from './processes.ts';

/** What a PostgreSQL restart looked like from the APIs: statuses of /healthz, and the time to the first 200 after it was back. */
export type Outage = {
  downMs: number;
  probes: number;
  answered503: number;
  answered503WithoutRetryAfter: number;
  /** Any other 5xx while it was down or starting: must stay 0. */
  answeredOther5xx: number;
  /** Per API: ms from PostgreSQL accepting again to its first 200. */
  recoveryMs: number[];
};

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGKILL, a short wait, the same process started again. */
export async function killAndRestart(process: SoakProcess, downMs: number): Promise<{ restartMs: number }> {
  await process.kill();
  await pause(downMs);
  const started = Date.now();
  await process.start();
  return { restartMs: Date.now() - started };
}

/**
 * Stops PostgreSQL (fast: every connection ended), keeps it down `downMs`, starts it, and probes
 * `/healthz` on every API every 100 ms throughout and until each answered 200 again (at most 60 s).
 */
export async function restartPostgres(cluster: Cluster, apis: readonly SoakProcess[], downMs: number): Promise<Outage> {
  const outage: Outage = { downMs, probes: 0, answered503: 0, answered503WithoutRetryAfter: 0, answeredOther5xx: 0, recoveryMs: [] };
  let upAt: number | null = null;
  let stopProbing = false;
  const probe = async (base: string) => {
    for (;;) {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
      outage.probes++;
      if (res) {
        await res.arrayBuffer().catch(() => undefined);
        if (res.status === 503) {
          outage.answered503++;
          if (!res.headers.get('retry-after')) outage.answered503WithoutRetryAfter++;
        } else if (res.status >= 500) outage.answeredOther5xx++;
        else if (res.status === 200 && upAt !== null) {
          outage.recoveryMs.push(Date.now() - upAt);
          return;
        }
      }
      if (stopProbing) return;
      await pause(100);
    }
  };
  const probing = Promise.all(apis.flatMap((a) => (a.url ? [probe(a.url)] : [])));
  cluster.stop();
  await pause(downMs);
  cluster.start();
  upAt = Date.now();
  const timeout = setTimeout(() => {
    stopProbing = true;
  }, 60_000);
  await probing;
  clearTimeout(timeout);
  return outage;
}

/**
 * Leases a killed worker held (jobs, a send batch's invitations, feed runs) last 5 minutes
 * (pipeline/queue.ts, pipeline/send.ts), an alert event's 10 (alerts/deliver.ts) — longer than the short soak. Those still held after the load
 * stopped and unchanged over `stableMs` belong to no live worker: they are moved to their end, as if
 * the time had passed, the way the crash tests (feed-run-crash.test.ts) lapse a killed server's
 * leases. A live worker's lease is renewed or released within that time, so it is not touched.
 */
export async function lapseOrphanedLeases(databaseUrl: string, stableMs: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const held = async () => {
    const jobs = await client.query(`select id, locked_until from jobs where status = 'running' and locked_until > now()`);
    const items = await client.query(
      `select id, claimed_until from survey_processing_items where status = 'scheduled' and claimed_until > now()`,
    );
    const runs = await client.query(`select id, locked_until from data_feed_runs where status = 'running' and locked_until > now()`);
    // An alert event's claim moves next_retry_at its 10-minute lease past the attempt (alerts/deliver.ts).
    const alerts = await client.query(
      `select id, next_retry_at as locked_until from survey_alert_events where state in ('pending', 'retrying')
       and next_retry_at > now() and next_retry_at = last_attempt_at + interval '10 minutes'`,
    );
    const key = (table: string, rows: { id: unknown; locked_until?: unknown; claimed_until?: unknown }[]) =>
      rows.map((r) => `${table}:${String(r.id)}:${String(r.locked_until ?? r.claimed_until)}`);
    return new Set([...key('jobs', jobs.rows), ...key('items', items.rows), ...key('runs', runs.rows), ...key('alerts', alerts.rows)]);
  };
  try {
    const before = await held();
    if (before.size === 0) return 0;
    await pause(stableMs);
    const after = await held();
    const stale = [...before].filter((k) => after.has(k)).map((k) => k.split(':'));
    const idsOf = (table: string) => stale.filter(([t]) => t === table).map(([, id]) => Number(id));
    await client.query(`update jobs set locked_until = now() - interval '1 second' where id = any($1::bigint[]) and status = 'running'`, [
      idsOf('jobs'),
    ]);
    await client.query(
      `update survey_processing_items set claimed_until = now() - interval '1 second', scheduled_at = now() - interval '1 second'
       where id = any($1::int[]) and status = 'scheduled'`,
      [idsOf('items')],
    );
    await client.query(
      `update data_feed_runs set locked_until = now() - interval '1 second' where id = any($1::int[]) and status = 'running'`,
      [idsOf('runs')],
    );
    await client.query(
      `update survey_alert_events set next_retry_at = now() - interval '1 second' where id = any($1::bigint[]) and state in ('pending', 'retrying')`,
      [idsOf('alerts')],
    );
    return stale.length;
  } finally {
    await client.end();
  }
}
