import type { PerformanceChannel } from '@admin/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, rowsOf } from '../src/db/client.ts';
import { reassign, setExcluded } from '../src/modules/survey-responses/actions.ts';
import { previousPeriod } from '../src/reports/performance/query.ts';
import { type KeyKind, rawCounts, type Scope } from '../src/reports/performance/raw.ts';
import { perKind } from '../src/reports/performance/report.ts';
import { compactReportCounts, rebuildReportCounts } from '../src/reports/rollups/compaction.ts';
import { rollupCounts, rollupReportCounts } from '../src/reports/rollups/read.ts';
import { startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * The reports' rollup (docs/decisions/065) equals the raw tables (performance/raw.ts, the
 * reference) for every key kind and several filters: after the demo seed (written through the
 * triggers), after random mixes of sends, deliveries, opens, exclusions, re-assignments, alerts,
 * review invitations, reviews and a time zone change, before and after the deltas are folded,
 * and after a rebuild.
 */
/** A report's table grouping and chart bucket, as performance/report.ts pairs them. */
const SHAPES: [KeyKind, KeyKind][] = [
  ['location', 'day'],
  ['month', 'month'],
  ['personnel', 'month'],
];
/** Inside the property's runs (where the per-kind checks already take long), the month rows' shape only. */
const MONTHLY: [KeyKind, KeyKind][] = [['month', 'month']];
const KINDS: KeyKind[] = ['total', 'client', 'location', 'personnel', 'survey', 'product', 'referral_source', 'month', 'day'];

type World = { responses: { id: number; itemId: number; clientId: number }[]; items: number[]; logs: number[]; alerts: number[] };
type World2 = { amps: number[]; reviews: number[]; locations: Map<number, string[]>; people: Map<number, number[]>; clients: number[] };

/** The `n` whole calendar months before `day`'s month, as a range of days. */
function wholeMonthsBefore(day: string, n: number): { from: string; to: string } {
  const start = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  const from = new Date(start);
  from.setUTCMonth(from.getUTCMonth() - n);
  const to = new Date(start.getTime() - 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

const rows = async (db: Db, statement: ReturnType<typeof sql>) => rowsOf(await db.execute(statement));

for (const kind of testDatabaseKinds()) {
  describe(`Report rollups equal the raw tables (${kind})`, () => {
    let ctx: TestContext;
    let db: Db;
    let scopes: Scope[];
    let w: World & World2;

    const expectEqual = async (label: string, shapes = SHAPES) => {
      for (const scope of scopes) {
        for (const k of KINDS) {
          const raw = Object.fromEntries(await rawCounts(db, scope, k));
          const rolled = Object.fromEntries(await rollupCounts(db, scope, k));
          expect(rolled, `${label}: ${k} ${JSON.stringify(scope)}`).toEqual(raw);
        }
        // The route's one-statement read (grouping sets over the period and the previous one; by month,
        // whole months from report_month_counts and their unfolded deltas) equals three raw reads.
        const previous = previousPeriod(scope.from, scope.to);
        for (const [group, bucket] of shapes) {
          const shape = { group, bucket, previous };
          const raw = await perKind(rawCounts)(db, scope, shape);
          const rolled = await rollupReportCounts(db, scope, shape);
          for (const part of ['grouped', 'byBucket', 'before'] as const)
            expect(Object.fromEntries(rolled[part]), `${label}: ${group}/${bucket} ${part} ${JSON.stringify(scope)}`).toEqual(
              Object.fromEntries(raw[part]),
            );
        }
      }
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      db = ctx.database.db;
      const [span] = await rows(
        db,
        sql`select min(submitted_at)::date - 2 as first, max(sent_at)::date + 2 as last from survey_responses, survey_processing_items`,
      );
      const to = String(span?.last).slice(0, 10);
      // The demo's last four months (its year of history before them would make every raw read of the
      // whole span, dozens per check, scan it all): the previous period then still reaches into that history.
      const first = String(span?.first).slice(0, 10);
      const from = [first, wholeMonthsBefore(to, 4).from].sort()[1] ?? first;
      const [one] = await rows(db, sql`select client_id, survey_id from survey_responses order by id limit 1`);
      const base = { clients: [], locations: [], surveys: [], personnel: [], channel: 'all' as PerformanceChannel, from, to };
      scopes = [
        base,
        { ...base, channel: 'sms' },
        { ...base, clients: [Number(one?.client_id)], surveys: [Number(one?.survey_id)] },
        { ...base, from: `${to.slice(0, 8)}01` },
        // Whole months only (the three before the last one), and a range starting mid-month.
        { ...base, ...wholeMonthsBefore(to, 3) },
        { ...base, from: `${wholeMonthsBefore(to, 3).from.slice(0, 8)}17` },
        // Ending mid-month with rows later in that month (the demo's end has none after it).
        { ...base, to: `${wholeMonthsBefore(to, 1).from.slice(0, 8)}10` },
      ];
      const responses = (await rows(db, sql`select id, processing_item_id, client_id from survey_responses order by id`)).map((r) => ({
        id: Number(r.id),
        itemId: Number(r.processing_item_id),
        clientId: Number(r.client_id),
      }));
      const ids = async (statement: ReturnType<typeof sql>) => (await rows(db, statement)).map((r) => Number(r.id));
      const locations = new Map<number, string[]>();
      for (const l of await rows(db, sql`select _id, client_id from locations`))
        locations.set(Number(l.client_id), [...(locations.get(Number(l.client_id)) ?? []), String(l._id)]);
      const people = new Map<number, number[]>();
      for (const p of await rows(db, sql`select id, client_id from personnel`))
        people.set(Number(p.client_id), [...(people.get(Number(p.client_id)) ?? []), Number(p.id)]);
      // Alerts: the demo raises none, so one per detractor (a rule per client), some unsent.
      await db.execute(sql`insert into survey_alert_rules (client_id, name, trigger) select id, 'Rollup test', 'detractor' from clients`);
      await db.execute(sql`insert into survey_alert_events (rule_id, client_id, response_id, processing_item_id, channel, recipient, state, created_at)
        select (select min(id) from survey_alert_rules where client_id = r.client_id), r.client_id, r.id, r.processing_item_id, 'email',
          'a' || r.id || '@example.com', case when r.id % 4 = 0 then 'unsent' else 'sent' end, r.submitted_at + interval '1 hour'
        from survey_responses r where r.nps_class = 'detractor'`);
      w = {
        responses,
        items: await ids(sql`select id from survey_processing_items where sent_at is not null order by id`),
        logs: await ids(
          sql`select id from notification_logs where type = 'survey_invite' and related_type = 'survey_processing_item' order by id`,
        ),
        alerts: await ids(sql`select id from survey_alert_events order by id`),
        amps: await ids(sql`select id from amplifications order by id`),
        reviews: await ids(sql`select id from reviews order by id`),
        clients: await ids(sql`select id from clients order by id`),
        locations,
        people,
      };
    });
    afterAll(() => ctx.close());

    it('after the demo seed, with every kind of event counted', async () => {
      const [t] = await rows(
        db,
        sql`select sum(sent) s, sum(delivered) d, sum(responses) r, sum(alerts_fired) a, sum(invites) i, sum(reviews) v from report_day_counts`,
      );
      for (const v of Object.values(t ?? {})) expect(Number(v)).toBeGreaterThan(0);
      await expectEqual('seed');
      await compactReportCounts(db);
      await expectEqual('seed, folded');
      // The demo's 13 months (seed/history.ts) read raw for every kind and scope: longer than the default 30 s on a busy machine.
    }, 120_000);

    const pick = <T>(list: T[], n: number): T => list[n % list.length] as T;
    const at = (n: number) => new Date(Date.parse(scopes[0]?.from ?? '') + (n % (60 * 24 * 90)) * 60_000).toISOString();
    const STATUSES = ['queued', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'failed'];
    const ZONES = ['UTC', 'Asia/Kolkata', 'America/Los_Angeles', 'Pacific/Auckland'];

    type Op = (n: number, m: number) => Promise<unknown>;
    const OPS: Record<string, Op> = {
      exclude: (n, m) => setExcluded(db, pick(w.responses, n).id, m % 2 === 0, 'Rollup test', new Date()),
      markTest: (n, m) => db.execute(sql`update survey_responses set test = ${m % 3 === 0} where id = ${pick(w.responses, n).id}`),
      rescore: (n, m) =>
        db.execute(sql`update survey_responses set key_score = ${m % 11}, nps_class = ${m % 11 >= 9 ? 'promoter' : m % 11 >= 7 ? 'passive' : 'detractor'}
          where id = ${pick(w.responses, n).id}`),
      reassignPerson: async (n, m) => {
        const r = pick(w.responses, n);
        const people = w.people.get(r.clientId) ?? [];
        if (people.length > 0) await reassign(db, { id: r.id, processingItemId: r.itemId }, { personnelId: pick(people, m) }, new Date());
      },
      reassignLocation: async (n, m) => {
        const r = pick(w.responses, n);
        const locations = w.locations.get(r.clientId) ?? [];
        if (locations.length > 0)
          await reassign(db, { id: r.id, processingItemId: r.itemId }, { locationId: pick(locations, m) }, new Date());
      },
      itemChannel: (n, m) =>
        db.execute(sql`update survey_processing_items set channel = ${m % 2 === 0 ? 'sms' : 'email'} where id = ${pick(w.items, n)}`),
      itemSent: (n, m) =>
        db.execute(
          sql`update survey_processing_items set sent_at = ${m % 5 === 0 ? null : at(m)}::timestamptz where id = ${pick(w.items, n)}`,
        ),
      logStatus: (n, m) => db.execute(sql`update notification_logs set status = ${pick(STATUSES, m)} where id = ${pick(w.logs, n)}`),
      newLog: (n, m) =>
        db.execute(sql`insert into notification_logs (client_id, channel, type, recipient, subject_or_template, status, related_type, related_id)
          select client_id, 'email', 'survey_invite', 'x@example.com', 'Resent', ${pick(STATUSES, m)}, 'survey_processing_item', id::text
          from survey_processing_items where id = ${pick(w.items, n)}`),
      alertState: (n, m) =>
        db.execute(
          sql`update survey_alert_events set state = ${pick(['sent', 'unsent', 'resent', 'dismissed'], m)} where id = ${pick(w.alerts, n)}`,
        ),
      alertTest: (n, m) => db.execute(sql`update survey_alert_events set test = ${m % 2 === 0} where id = ${pick(w.alerts, n)}`),
      ampStatus: (n, m) =>
        db.execute(
          sql`update amplifications set status = ${pick(['invited', 'clicked', 'posted', 'not_posted'], m)} where id = ${pick(w.amps, n)}`,
        ),
      ampMoved: (n, m) => db.execute(sql`update amplifications set invited_at = ${at(m)}::timestamptz where id = ${pick(w.amps, n)}`),
      reviewRating: (n, m) =>
        db.execute(sql`update reviews set rating = ${m % 6 === 0 ? null : (m % 5) + 1} where id = ${pick(w.reviews, n)}`),
      reviewMoved: (n, m) =>
        db.execute(
          sql`update reviews set review_created_at = ${at(m)}::timestamptz, site = ${pick(['google', 'yelp', 'facebook'], m)} where id = ${pick(w.reviews, n)}`,
        ),
      zone: (n, m) => db.execute(sql`update clients set timezone = ${pick(ZONES, m)} where id = ${pick(w.clients, n)}`),
      fold: () => compactReportCounts(db, 7),
    };
    const names = Object.keys(OPS);

    it('after random mixes of events, exclusions and re-assignments, before and after folding', async () => {
      const op = fc.tuple(fc.constantFrom(...names), fc.nat(100_000), fc.nat(100_000));
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
          for (const [name, n, m] of ops) await OPS[name]?.(n, m);
          await expectEqual(`after ${ops.map((o) => o[0]).join(', ')}`, MONTHLY);
        }),
        { numRuns: kind === 'pglite' ? 6 : 4 },
      );
      await compactReportCounts(db);
      await expectEqual('folded');
      const [left] = await rows(db, sql`select count(*) as n from report_day_counts where not folded`);
      expect(Number(left?.n)).toBe(0);
      // Dozens of raw reads of the whole demo: a minute on a busy two-core machine.
    }, 120_000);

    it('a rebuild of a range and a client leaves the same counts; a rollup emptied by hand is refilled by it', async () => {
      const scope = scopes[0];
      if (!scope) throw new Error('no scope');
      const client = w.clients[0] ?? 0;
      // Only the rebuilt range: the previous period the reports compare with lies before it.
      await db.execute(
        sql`delete from report_day_counts where client_id = ${client} and day between ${scope.from}::date and ${scope.to}::date`,
      );
      const before = Object.fromEntries(await rollupCounts(db, scope, 'client'));
      expect(before[String(client)]).toBeUndefined();
      await rebuildReportCounts(db, { from: scope.from, to: scope.to, clientId: client });
      await expectEqual('rebuilt one client');
      await rebuildReportCounts(db, {});
      await expectEqual('rebuilt all');
    });
  });
}
