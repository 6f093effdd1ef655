import { REVIEW_JOBS } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { clientUsers, locations } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

/**
 * Two review systems posting overlapping batches at once (issue 21, finishing list item 10;
 * docs/decisions/057): the same site and review ids with different content. On PostgreSQL only —
 * PGlite runs one transaction at a time, so nothing overlaps there — where the app's pool holds
 * ten connections and both requests are written at the same moment. Every review exists once, each
 * caller gets an answer per item and no 5xx, the newest copy wins whatever the order, and each
 * review written holds one pending set of review jobs (an unchanged one none).
 */

type Answer = { index: number; externalId: string | null; outcome: string; id: number | null; errors: Record<string, string[]> };
type Batch = { counts: Record<string, number>; reviews: Answer[] };

const PER_CALLER = 600;
/** Reviews each caller's batch shares with the other's. */
const SHARED = 300;
/** Reviews stored before the race, sent identical by both callers: `unchanged` for both. */
const STORED = 50;

describe.runIf(process.env.TEST_DATABASE_URL)('Two ingest callers with overlapping batches (pg)', { timeout: 240_000 }, () => {
  let ctx: TestContext;
  let tokens: [string, string];
  let locationId: string;
  const createTime = '2026-01-10T09:00:00.000Z';
  const review = (id: string, comment: string, updateTime = '2026-01-10T10:00:00.000Z') => ({
    reviewId: id,
    locationId,
    reviewer: { displayName: 'Casey Marsh' },
    starRating: 'FOUR',
    comment,
    createTime,
    updateTime,
  });
  const post = (token: string, items: unknown[]) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reviews',
      remoteAddress: '127.0.0.1',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ reviews: items }),
    });
  const query = async (text: ReturnType<typeof sql>) => rowsOf(await ctx.database.db.execute(text));

  beforeAll(async () => {
    ctx = await startTestApp('pg');
    const headers = bearer(await login(ctx.app, 'admin@example.com'));
    const [location] = await ctx.database.db.select().from(locations).limit(1);
    locationId = location?.id ?? '';
    const users = await ctx.database.db
      .select()
      .from(clientUsers)
      .where(eq(clientUsers.clientId, location?.clientId ?? 0))
      .limit(2);
    expect(users.length, 'two users of one client').toBe(2);
    const made = await Promise.all(
      users.map((u, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/api-token',
          headers,
          payload: { user_id: u.userId, name: `Review system ${i + 1}`, scopes: ['reviews:write'] },
        }),
      ),
    );
    const [a, b] = made.map((m) => {
      expect(m.statusCode, m.body).toBe(201);
      return (m.json() as { data: { token: string } }).data.token;
    });
    tokens = [a ?? '', b ?? ''];
  });
  afterAll(() => ctx?.close());

  /**
   * One race: stored reviews first (their jobs marked done), then caller A sends the stored ones
   * identical plus A0…A599 and caller B the stored ones plus A300…A899, at the same moment.
   * `olderB`: B's copies are an hour older than A's, so A's content must end up stored either way.
   */
  async function race(round: string, olderB: boolean) {
    const id = (i: number) => `race-${round}-${i}`;
    const stored = Array.from({ length: STORED }, (_, i) => review(`${id(i)}-stored`, `Stored ${i}`));
    const before = await post(tokens[0], stored);
    expect(before.statusCode, before.body).toBe(200);
    await ctx.database.db.execute(sql`update jobs set status = 'done' where queue in ('match-review', 'evaluate-review-alerts')`);
    const audits = async () =>
      Number((await query(sql`select count(*)::int as n from system_logs where action = 'reviews.ingest'`))[0]?.n ?? 0);
    const auditsBefore = await audits();

    const itemsA = [...stored, ...Array.from({ length: PER_CALLER }, (_, i) => review(id(i), `A says ${i}`))];
    // B sends its batch in the opposite order: the writer's own ordering must keep the two from deadlocking.
    const itemsB = [
      ...stored,
      ...Array.from({ length: PER_CALLER }, (_, k) => {
        const i = k + PER_CALLER - SHARED;
        return review(id(i), `B says ${i}`, olderB ? '2026-01-10T09:30:00.000Z' : undefined);
      }),
    ].reverse();
    const [resA, resB] = await Promise.all([post(tokens[0], itemsA), post(tokens[1], itemsB)]);
    expect(resA.statusCode, resA.body).toBe(200);
    expect(resB.statusCode, resB.body).toBe(200);
    const a = (resA.json() as { data: Batch }).data;
    const b = (resB.json() as { data: Batch }).data;

    // An answer per item, in the order sent, none refused.
    for (const [answer, items] of [
      [a, itemsA],
      [b, itemsB],
    ] as const) {
      expect(answer.reviews.map((r) => r.index)).toEqual(items.map((_, i) => i));
      expect(answer.reviews.map((r) => r.externalId)).toEqual(items.map((r) => r.reviewId));
      expect(answer.reviews.filter((r) => r.outcome === 'refused' || r.id === null)).toEqual([]);
    }
    const outcomeOf = (batch: Batch) => new Map(batch.reviews.map((r) => [r.externalId ?? '', r]));
    const ofA = outcomeOf(a);
    const ofB = outcomeOf(b);

    // Every review once; each shared one answered with the same id to both callers.
    const rows = await query(sql`select external_id, text, id from reviews where external_id like ${`race-${round}-%`}`);
    const total = STORED + 2 * PER_CALLER - SHARED;
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.external_id)).size).toBe(total);
    const textOf = new Map(rows.map((r) => [String(r.external_id), String(r.text)]));

    for (let i = 0; i < 2 * PER_CALLER - SHARED; i++) {
      const x = ofA.get(id(i));
      const y = ofB.get(id(i));
      if (!y) expect(x?.outcome).toBe('created');
      else if (!x) expect(y.outcome).toBe('created');
      else {
        expect(x.id).toBe(y.id);
        // One of the two created it; the other found it and updated it, or left it as the newer copy.
        const outcomes = [x.outcome, y.outcome].sort();
        expect(
          olderB
            ? [
                ['created', 'updated'],
                ['created', 'unchanged'],
              ]
            : [['created', 'updated']],
        ).toContainEqual(outcomes);
        const expected = olderB ? `A says ${i}` : y.outcome === 'updated' ? `B says ${i}` : `A says ${i}`;
        expect(textOf.get(id(i))).toBe(expected);
      }
    }
    for (let i = 0; i < STORED; i++) {
      expect(ofA.get(`${id(i)}-stored`)?.outcome).toBe('unchanged');
      expect(ofB.get(`${id(i)}-stored`)?.outcome).toBe('unchanged');
    }

    // One pending set of review jobs per review written, none for the unchanged ones.
    const jobs = await query(sql`
      select r.external_id, j.queue, count(*)::int as n
        from reviews r join jobs j on j.payload->>'reviewId' = r.id::text and j.status = 'pending'
       where r.external_id like ${`race-${round}-%`}
       group by r.external_id, j.queue`);
    expect(jobs.filter((j) => String(j.external_id).endsWith('-stored'))).toEqual([]);
    expect(jobs.filter((j) => Number(j.n) !== 1)).toEqual([]);
    expect(jobs).toHaveLength((total - STORED) * REVIEW_JOBS.length);
    // Each caller's write audited once.
    expect((await audits()) - auditsBefore).toBe(2);
  }

  it('same times, different content: one row each, the later writer updates, one set of jobs each', async () => {
    for (const round of ['s1', 's2', 's3']) await race(round, false);
  });

  it("one caller's copies older: the newer content is kept whichever is written first", async () => {
    for (const round of ['o1', 'o2']) await race(round, true);
  });
});
