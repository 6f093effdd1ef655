/**
 * bench/stall's data: the demo data, one client with `rows` Survey Processing invitations made in
 * SQL (`generate_series`, deterministic), a CSV-upload feed of that client, and the feed's file.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { testConfig } from '../../apps/server/src/config.ts';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import {
  clientSurveySettings,
  dataFeeds,
  locations,
  personnel,
  products,
  referralSources,
  surveys,
} from '../../apps/server/src/db/schema/index.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

export const PASSWORD = 'demo-password';
/** Rows per generating statement: PGlite holds the one in progress in memory. */
const GENERATE_BATCH = 100_000;
/** Statuses no sweep of the send engine touches, so the generated rows stay as made while the bench runs. */
const SETTLED = ['responded', 'expired', 'skipped_duplicate', 'skipped_over_survey', 'skipped_opt_out', 'invalid_contact', 'failed'];
/** The bench feed's columns, in the file's order, and the feed field each one maps to. */
const MAPPING = {
  first_name: 'First',
  last_name: 'Last',
  email: 'Email',
  phone: 'Mobile',
  transaction_id: 'Invoice',
  transaction_date: 'Date',
  location_code: 'Store',
  personnel_code: 'Advisor',
  product_code: 'Product',
  referral_source: 'Source',
  amount: 'Amount',
  opt_in_sms: 'SMS',
} as const;

export type Prepared = { clientId: number; feedId: number; codes: Codes };
type Codes = { stores: string[]; advisors: string[]; products: string[] };

export function open(kind: 'pglite' | 'pg', target: string): Promise<Database> {
  return openDatabase(kind === 'pglite' ? { kind, dataDir: target } : { kind, url: target });
}

/**
 * A fresh database: migrated, the demo data, `rows` invitations of the first client with an active
 * survey at one of its locations, and its feed (no daily cap, so every good row is scheduled).
 */
export async function prepare(database: Database, rows: number, log: (line: string) => void): Promise<Prepared> {
  const { db } = database;
  await database.migrate();
  await seedDemoData(db, testConfig({ demoPassword: PASSWORD }));
  const [survey] = await db
    .select({ id: surveys.id, clientId: surveys.clientId })
    .from(surveys)
    .where(eq(surveys.status, 'active'))
    .limit(1);
  if (!survey) throw new Error('the demo data has no active survey');
  const clientId = survey.clientId;
  const codes = await codesOf(database, clientId);
  const [feed] = await db
    .insert(dataFeeds)
    .values({
      clientId,
      name: 'Stall bench feed',
      sourceType: 'csv_upload',
      triggerEvent: 'invoice_paid',
      surveyId: survey.id,
      locationMode: 'column',
      dateFormat: 'MM/dd/yyyy',
      fieldMapping: MAPPING,
    })
    .returning({ id: dataFeeds.id });
  if (!feed) throw new Error('the bench feed was not made');
  await db
    .insert(clientSurveySettings)
    .values({ clientId, fromName: 'Bench', fromEmail: 'bench@example.com', dailyCapPerLocation: 0 })
    .onConflictDoUpdate({ target: clientSurveySettings.clientId, set: { dailyCapPerLocation: 0 } });

  const ids = async (query: Promise<{ id: number | string }[]>) => (await query).map((r) => `'${String(r.id).replace(/'/g, "''")}'`);
  const locationIds = await ids(db.select({ id: locations.id }).from(locations).where(eq(locations.clientId, clientId)));
  const personIds = await ids(db.select({ id: personnel.id }).from(personnel).where(eq(personnel.clientId, clientId)));
  const productIds = await ids(db.select({ id: products.id }).from(products).where(eq(products.clientId, clientId)));
  const sourceIds = await ids(db.select({ id: referralSources.id }).from(referralSources).where(eq(referralSources.clientId, clientId)));
  if (locationIds.length === 0) throw new Error('the client has no location');
  const pick = (list: string[], type: string) => (list.length ? `(array[${list.join(',')}]::${type}[])[1 + i % ${list.length}]` : 'null');
  const statuses = `(array[${SETTLED.map((s) => `'${s}'`).join(',')}])[1 + (i * 7) % ${SETTLED.length}]`;
  // One invitation every ~30 s back from the start of the month before, so every row is in the past.
  const t0 = performance.now();
  for (let from = 1; from <= rows; from += GENERATE_BATCH) {
    const to = Math.min(rows, from + GENERATE_BATCH - 1);
    await db.execute(
      sql.raw(`insert into survey_processing_items
      (client_id, location_id, survey_id, first_name, last_name, email, phone, transaction_id, transaction_date,
       personnel_id, product_id, referral_source_id, amount, channel, status, skip_reason, scheduled_at, sent_at,
       attempts, last_error, token, expires_at, source, created_at, updated_at)
      select ${clientId}, ${pick(locationIds, 'text')}, ${survey.id}, 'Customer' || i, case when i % 3 = 0 then null else 'O''Bench, "' || (i % 997) || '"' end,
        'customer' || i || '@example.com', '+1303' || lpad((i % 10000000)::text, 7, '0'), 'G' || i, to_char(c.at, 'YYYY-MM-DD'),
        ${pick(personIds, 'int')}, ${pick(productIds, 'int')}, ${pick(sourceIds, 'int')}, (i % 5000) + 0.5,
        case when i % 5 = 0 then 'sms' else 'email' end, s.status,
        case when s.status like 'skipped%' or s.status = 'invalid_contact' then 'bench' end,
        c.at + interval '1 hour', case when s.status in ('responded', 'expired') then c.at + interval '1 hour' end,
        case when s.status = 'failed' then 3 else 1 end, case when s.status = 'failed' then '421 4.3.0 Temporary failure' end,
        md5(i::text) || i, c.at + interval '30 days', 'api', c.at, c.at
      from generate_series(${from}, ${to}) as i
      cross join lateral (select date_trunc('month', now()) - interval '1 month' - i * interval '30 seconds' as at) c
      cross join lateral (select ${statuses} as status) s`),
    );
    log(`  ${to.toLocaleString('en-US')} invitations (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  await db.execute(sql`analyze survey_processing_items`);
  return { clientId, feedId: feed.id, codes };
}

/** The client and feed made by an earlier `prepare`, with the rows a bench's upload added removed. */
export async function reuse(database: Database): Promise<Prepared> {
  const { db } = database;
  const [feed] = await db
    .select({ id: dataFeeds.id, clientId: dataFeeds.clientId })
    .from(dataFeeds)
    .where(eq(dataFeeds.name, 'Stall bench feed'))
    .limit(1);
  if (!feed) throw new Error('BENCH_KEEP=1: no data from an earlier run (run once without it)');
  // An earlier bench's upload cut short would be resumed by the server (its batches are stored): end it.
  await db.execute(sql`delete from data_feed_run_batches where run_id in (select id from data_feed_runs where data_feed_id = ${feed.id})`);
  await db.execute(
    sql`update data_feed_runs set status = 'failed', finished_at = now(), error = 'Ended by bench/stall before a new run', locked_by = null, locked_until = null
      where data_feed_id = ${feed.id} and status = 'running'`,
  );
  await db.execute(sql`delete from survey_processing_items where data_feed_id = ${feed.id}`);
  return { clientId: feed.clientId, feedId: feed.id, codes: await codesOf(database, feed.clientId) };
}

async function codesOf({ db }: Database, clientId: number): Promise<Codes> {
  const stores = await db
    .select({ code: locations.externalCode })
    .from(locations)
    .where(and(eq(locations.clientId, clientId), isNotNull(locations.externalCode)));
  const advisors = await db
    .select({ code: personnel.employeeCode })
    .from(personnel)
    .where(and(eq(personnel.clientId, clientId), isNotNull(personnel.employeeCode)));
  const productCodes = await db.select({ code: products.code }).from(products).where(eq(products.clientId, clientId));
  return {
    stores: stores.map((s) => s.code ?? ''),
    advisors: advisors.map((a) => a.code ?? ''),
    products: productCodes.map((p) => p.code),
  };
}

/**
 * The feed's file, as big as `bytes` allows: header from the mapping, then rows like a dealer
 * system's export (a store, an advisor, a product and a source on every row, one row in a hundred
 * with a bad phone, which the rules refuse). Transaction dates are yesterday's.
 */
export function feedFile(codes: Codes, bytes: number): { csv: Buffer; rows: number } {
  const header = Object.values(MAPPING).join(',');
  const parts: string[] = [`${header}\r\n`];
  let size = Buffer.byteLength(parts[0] ?? '');
  const yesterday = new Date(Date.now() - 86_400_000);
  const date = `${String(yesterday.getUTCMonth() + 1).padStart(2, '0')}/${String(yesterday.getUTCDate()).padStart(2, '0')}/${yesterday.getUTCFullYear()}`;
  const pick = (list: string[], i: number) => list[i % Math.max(1, list.length)] ?? '';
  let rows = 0;
  for (let i = 1; ; i++) {
    const phone = i % 100 === 0 ? '555-12' : `(303) ${200 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
    const line = `First${i},Last${i},${i % 3 === 0 ? '' : `stall.${i}@example.com`},${phone},STALL-${i},${date},${pick(codes.stores, i)},${pick(codes.advisors, i)},${pick(codes.products, i)},${i % 2 === 0 ? 'GOOGLE' : 'FRIEND'},${(i % 5000) + 0.5},${i % 4 === 0 ? 'no' : 'yes'}\r\n`;
    size += line.length;
    if (size > bytes) break;
    parts.push(line);
    rows = i;
  }
  return { csv: Buffer.from(parts.join('')), rows };
}
