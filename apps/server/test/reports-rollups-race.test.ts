import type { PerformanceChannel } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, rowsOf } from '../src/db/client.ts';
import { type KeyKind, rawCounts, type Scope } from '../src/reports/performance/raw.ts';
import { compactReportCounts } from '../src/reports/rollups/compaction.ts';
import { rollupCounts } from '../src/reports/rollups/read.ts';
import { startTestApp, type TestContext } from './helpers.ts';

/**
 * The report rollup under concurrent writers on PostgreSQL (docs/decisions/065): the send engine's
 * write of `sent_at` racing a delivery on the same invitation's Tracking Logs row (each transaction
 * held open a moment), exclusions and re-assignments of the same responses, clients' time zones
 * changing under them, and folding passes, all at once on the pool's connections; afterwards the
 * rollup equals the raw tables for every key kind. A lost delta would show here.
 */
const ROUNDS = 8;
const KINDS: KeyKind[] = ['total', 'client', 'location', 'personnel', 'day'];

describe.skipIf(!process.env.TEST_DATABASE_URL)('Report rollups under concurrent writers (pg)', () => {
  let ctx: TestContext;
  let db: Db;
  beforeAll(async () => {
    ctx = await startTestApp('pg');
    db = ctx.database.db;
  });
  afterAll(() => ctx.close());

  const ids = async (statement: ReturnType<typeof sql>) => rowsOf(await db.execute(statement)).map((r) => Number(r.id));

  it('sends racing deliveries, exclusions, re-assignments, zone changes and folding lose nothing', async () => {
    // Invitations with an invite log: their sent_at is cleared, to be set again while a delivery arrives.
    const items = await ids(sql`select distinct i.id from survey_processing_items i join notification_logs n
      on n.related_type = 'survey_processing_item' and n.related_id = i.id::text and n.type = 'survey_invite'
      where i.sent_at is not null order by i.id limit ${ROUNDS * 3}`);
    await db.execute(
      sql`update survey_processing_items set sent_at = null where id in ${sql`(${sql.join(
        items.map((i) => sql`${i}`),
        sql`, `,
      )})`}`,
    );
    await db.execute(sql`update notification_logs set status = 'sent' where type = 'survey_invite' and related_type = 'survey_processing_item'
      and related_id in ${sql`(${sql.join(
        items.map((i) => sql`${String(i)}`),
        sql`, `,
      )})`}`);
    const responses = rowsOf(await db.execute(sql`select id, processing_item_id, client_id from survey_responses order by id limit 40`));
    const clients = await ids(sql`select id from clients order by id`);
    let folding = true;

    const send = async (item: number, k: number) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`update survey_processing_items set sent_at = now() - ${`${k} hours`}::interval where id = ${item}`);
        await tx.execute(sql`select pg_sleep(0.02)`);
      });
    const deliver = async (item: number, k: number) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`update notification_logs set status = ${k % 2 ? 'opened' : 'delivered'}
          where type = 'survey_invite' and related_type = 'survey_processing_item' and related_id = ${String(item)}`);
        await tx.execute(sql`select pg_sleep(0.02)`);
      });
    const shuffle = async (w: number) => {
      for (let k = 0; k < ROUNDS; k++) {
        const r = responses[(w * 7 + k) % responses.length];
        if (!r) continue;
        await db.execute(sql`update survey_responses set excluded = not excluded where id = ${Number(r.id)}`);
        const [other] = rowsOf(
          await db.execute(sql`select _id from locations where client_id = ${Number(r.client_id)} order by _id offset ${k % 3} limit 1`),
        );
        if (other)
          await db.transaction(async (tx) => {
            await tx.execute(sql`update survey_responses set location_id = ${String(other._id)} where id = ${Number(r.id)}`);
            await tx.execute(sql`update survey_processing_items set location_id = ${String(other._id)}, channel = ${k % 2 ? 'sms' : 'email'}
              where id = ${Number(r.processing_item_id)}`);
          });
      }
    };
    const zones = async () => {
      const names = ['UTC', 'Asia/Kolkata', 'America/Denver', 'Pacific/Auckland'];
      for (let k = 0; k < ROUNDS; k++) {
        await db.execute(
          sql`update clients set timezone = ${names[k % names.length] ?? 'UTC'} where id = ${clients[k % clients.length] ?? 0}`,
        );
      }
    };
    const folder = async () => {
      while (folding) {
        await compactReportCounts(db, 50);
        await new Promise((r) => setTimeout(r, 5));
      }
    };

    const folders = [folder(), folder()];
    await Promise.all([
      ...items.map((item, k) => (k % 2 ? Promise.all([deliver(item, k), send(item, k)]) : Promise.all([send(item, k), deliver(item, k)]))),
      shuffle(0),
      shuffle(1),
      zones(),
    ]);
    folding = false;
    await Promise.all(folders);
    await compactReportCounts(db);

    const [span] = rowsOf(
      await db.execute(
        sql`select (min(submitted_at) - interval '3 days')::date::text as first, (now() + interval '2 days')::date::text as last from survey_responses`,
      ),
    );
    const scope: Scope = {
      clients: [],
      locations: [],
      surveys: [],
      personnel: [],
      channel: 'all' as PerformanceChannel,
      from: String(span?.first),
      to: String(span?.last),
    };
    const [delivered] = rowsOf(await db.execute(sql`select sum(delivered) as n from report_day_counts`));
    expect(Number(delivered?.n)).toBeGreaterThanOrEqual(items.length);
    for (const k of KINDS) {
      expect(Object.fromEntries(await rollupCounts(db, scope, k)), k).toEqual(Object.fromEntries(await rawCounts(db, scope, k)));
    }
  });
});
