/**
 * bench/deliverability/ingest: BENCH_SES_NOTIFICATIONS (10,000) signed SNS notifications of mixed SES
 * events posted over HTTP to `POST /api/v1/ses/events` on a real listening server (signature
 * verification on, the test certificate injected as BuildOptions.snsCertificate) by BENCH_CALLERS
 * (10) concurrent callers, from a worker thread (callers.mjs); on PostgreSQL (BENCH_DATABASE_URL; it creates and drops
 * `bench_ses_ingest`) and on PGlite. Target: ≥ 1,000 events/s on PostgreSQL.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/deliverability/ingest.ts
 *   BENCH_ONLY=pg (or pglite) runs one database only.
 *
 * Each message is one event for one recipient, about a message that has a Tracking Logs row:
 * 30% Send, 30% Delivery, 20% Open, 10% Click, 5% transient and 2% permanent bounces, 3%
 * complaints, over 2,000 addresses (so suppression rows are shared). Signing happens before the
 * clock starts. The ceiling, in the same run: the same ses_events rows inserted by a bare loop
 * (`insert … on conflict do nothing`, one statement per row, BENCH_CALLERS connections on
 * PostgreSQL, PGlite's one), without verification, effects or HTTP. Also timed alone: verifying
 * 10,000 signatures in-process. Results: bench/results/ses-ingest-<db>.json; table: bench/README.md.
 */
import { createVerify, X509Certificate } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { canonicalString, type SnsEnvelope } from '../../apps/server/src/deliverability/ses/sns.ts';
import { snsSigner, TEST_TOPIC_ARN } from '../../apps/server/test/sns-signer.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const N = Number(process.env.BENCH_SES_NOTIFICATIONS ?? 10_000);
const CALLERS = Number(process.env.BENCH_CALLERS ?? 10);
const DB_NAME = 'bench_ses_ingest';

async function pgUrl(create: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  if (create) await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round = (n: number) => Math.round(n * 10) / 10;

/** The i-th SES event: its type by fixed shares, its recipient one of 2,000, a minute apart. */
function eventOf(i: number): Record<string, unknown> {
  const to = `person${i % 2000}@bench.test`;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const mail = {
    timestamp: at,
    messageId: `bench-${i}`,
    source: 'surveys@bench.test',
    destination: [to],
    commonHeaders: { subject: 'How did we do?' },
  };
  const share = i % 100;
  if (share < 30) return { eventType: 'Send', mail, send: {} };
  if (share < 60) return { eventType: 'Delivery', mail, delivery: { timestamp: at, recipients: [to], smtpResponse: '250 ok' } };
  if (share < 80) return { eventType: 'Open', mail, open: { timestamp: at, userAgent: 'bench' } };
  if (share < 90) return { eventType: 'Click', mail, click: { timestamp: at, link: 'https://bench.test' } };
  if (share < 97) {
    const permanent = share >= 95;
    return {
      eventType: 'Bounce',
      mail,
      bounce: {
        timestamp: at,
        bounceType: permanent ? 'Permanent' : 'Transient',
        bounceSubType: permanent ? 'General' : 'MailboxFull',
        bouncedRecipients: [{ emailAddress: to, diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
      },
    };
  }
  return {
    eventType: 'Complaint',
    mail,
    complaint: { timestamp: at, complainedRecipients: [{ emailAddress: to }], complaintFeedbackType: 'abuse' },
  };
}

async function run(kind: 'pglite' | 'pg') {
  // A pool client still finishing when the database is dropped at the end must not crash the run.
  const database = await openDatabase(kind === 'pglite' ? { kind, dataDir: null } : { kind, url: await pgUrl(true) }, () => undefined);
  await database.migrate();
  const db = database.db;
  await db.execute(sql`insert into notification_logs (channel, type, recipient, subject_or_template, provider_message_id, status)
    select 'email', 'survey_invite', 'person' || (i % 2000) || '@bench.test', 'How did we do?', 'bench-' || i, 'sent'
    from generate_series(0, ${N - 1}) i`);
  // A table in service has statistics (autovacuum analyzes after a bulk insert): without them the
  // planner reads the message lookup's `order by id limit 1` as a walk of the primary key.
  await db.execute(sql`analyze notification_logs`);
  const signer = snsSigner();
  const envelopes = Array.from({ length: N }, (_, i) =>
    JSON.stringify(signer.notification(eventOf(i), { version: i % 2 === 0 ? '2' : '1' })),
  );

  const app = await buildApp(testConfig({ sesSnsTopicArns: [TEST_TOPIC_ARN] }), { database, snsCertificate: signer.fetcher });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/ses/events`;
  const posted = await new Promise<{ seconds: number; latencies: number[]; failures: string[] }>((resolve, reject) => {
    const worker = new Worker(new URL('./callers.mjs', import.meta.url), { workerData: { url, envelopes, callers: CALLERS } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const { seconds, latencies, failures } = posted;
  await app.close();
  if (failures.length > 0) throw new Error(`refused: ${failures.join(' | ')}`);
  latencies.sort((a, b) => a - b);
  const [counts] = rowsOf(
    await db.execute(sql`select (select count(*) from ses_events)::int as events,
      (select count(*) from email_suppressions where suppressed)::int as suppressed,
      (select count(*) from notification_events)::int as timeline`),
  );

  // The ceiling: the same rows by a bare loop, into an emptied table.
  const rows = rowsOf(await db.execute(sql`select message_id, event_type, recipient, source, event_at, raw from ses_events`));
  await db.execute(sql`truncate ses_events`);
  const insert = `insert into ses_events (message_id, event_type, recipient, source, event_at, raw) values ($1, $2, $3, $4, $5, $6)
    on conflict (message_id, event_type, recipient, event_at) do nothing`;
  const values = (r: Record<string, unknown>) => [r.message_id, r.event_type, r.recipient, r.source, r.event_at, JSON.stringify(r.raw)];
  const b0 = performance.now();
  if (kind === 'pg') {
    const pool = new pg.Pool({ connectionString: await pgUrlOf(), max: CALLERS });
    // pool.end() can resolve before a client's socket is closed; the drop at the end then ends it.
    pool.on('error', () => undefined);
    let k = 0;
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        for (let i = k++; i < rows.length; i = k++) {
          const r = rows[i];
          if (r) await pool.query(insert, values(r));
        }
      }),
    );
    await pool.end();
  } else {
    for (const r of rows) {
      await db.execute(sql`insert into ses_events (message_id, event_type, recipient, source, event_at, raw)
        values (${r.message_id}, ${r.event_type}, ${r.recipient}, ${r.source}, ${new Date(String(r.event_at)).toISOString()}::timestamptz, ${JSON.stringify(r.raw)}::jsonb)
        on conflict (message_id, event_type, recipient, event_at) do nothing`);
    }
  }
  const bareSeconds = (performance.now() - b0) / 1000;
  await database.close();
  if (kind === 'pg') await pgUrl(false);

  // Verification alone: 10,000 signatures (half v1, half v2) against the parsed certificate.
  const certificate = new X509Certificate(signer.certificatePem);
  const v0 = performance.now();
  for (const text of envelopes) {
    const e = JSON.parse(text) as SnsEnvelope;
    createVerify(e.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(canonicalString(e))
      .verify(certificate.publicKey, e.Signature, 'base64');
  }
  const verifySeconds = (performance.now() - v0) / 1000;

  return {
    database: kind,
    notifications: N,
    callers: CALLERS,
    seconds: round(seconds),
    eventsPerSecond: Math.round(N / seconds),
    latencyMs: { p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)), max: round(latencies.at(-1) ?? 0) },
    written: counts,
    bareInsert: { seconds: round(bareSeconds), rowsPerSecond: Math.round(rows.length / bareSeconds) },
    verifyOnly: { seconds: round(verifySeconds), perSecond: Math.round(N / verifySeconds) },
    target: kind === 'pg' ? '≥ 1,000 events/s' : 'none (reported)',
    met: kind === 'pg' ? N / seconds >= 1000 : null,
  };
}

async function pgUrlOf(): Promise<string> {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

const only = process.env.BENCH_ONLY;
const kinds = (['pg', 'pglite'] as const).filter(
  (k) => (k === 'pg' ? Boolean(process.env.BENCH_DATABASE_URL) : true) && (!only || only === k),
);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
for (const kind of kinds) {
  const result = await run(kind);
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    join(ROOT, 'bench', 'results', `ses-ingest-${kind}.json`),
    `${JSON.stringify({ ...result, measuredAt: new Date().toISOString() }, null, 2)}\n`,
  );
}
