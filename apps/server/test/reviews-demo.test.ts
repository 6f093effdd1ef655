import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { startTestApp, type TestContext } from './helpers.ts';

/**
 * The demo's reviews (issue 21, item 7) arrive through the ingest function: every one with its
 * review jobs, on Google, Facebook and Yelp with the rating kind of each, some by invited
 * respondents, negative ones in the last two days for the review alert rules. PGlite only, as the
 * other demo tests.
 */
describe('Demo reviews', () => {
  let ctx: TestContext;
  const one = async (query: ReturnType<typeof sql>) => rowsOf(await ctx.database.db.execute(query))[0] ?? {};
  beforeAll(async () => {
    ctx = await startTestApp('pglite');
  });
  afterAll(() => ctx.close());

  it('are stored through ingestReviews with their jobs, the rating kind of each site, and recent negative ones', async () => {
    const counts = await one(sql`select count(*)::int as n,
        count(*) filter (where site = 'google')::int as google, count(*) filter (where site = 'facebook')::int as facebook,
        count(*) filter (where site = 'yelp')::int as yelp,
        count(*) filter (where site = 'facebook' and (rating is not null or recommend is null))::int as bad_facebook,
        count(*) filter (where site <> 'facebook' and (rating is null or recommend is not null))::int as bad_stars,
        count(*) filter (where reply_text is not null)::int as replied,
        count(*) filter (where source <> 'demo')::int as other_source
      from reviews`);
    expect(counts.n).toBeGreaterThan(100);
    expect(counts.facebook).toBeGreaterThan(0);
    expect(counts.yelp).toBeGreaterThan(0);
    expect(counts.google).toBeGreaterThan(counts.facebook as number);
    expect(counts).toMatchObject({ bad_facebook: 0, bad_stars: 0, other_source: 0 });
    expect(counts.replied).toBeGreaterThan(0);
    const jobs = await one(sql`select count(distinct payload->>'reviewId')::int as n from jobs where queue = 'match-review'`);
    expect(jobs.n).toBe(counts.n);
    const recentNegative = await one(sql`select count(*)::int as n from reviews
      where rating <= 2 and review_created_at > now() - interval '3 days'`);
    expect(recentNegative.n).toBeGreaterThan(0);
    // Some are by the demo's respondents (the names their invitations carry, in full or first name and initial).
    const byRespondents = await one(sql`select count(*)::int as n from reviews r
      where exists (select 1 from survey_processing_items p where p.location_id = r.location_id
        and r.author_name in (p.first_name || ' ' || coalesce(p.last_name, ''), p.first_name || ' ' || left(coalesce(p.last_name, ''), 1) || '.'))`);
    expect(byRespondents.n).toBeGreaterThan(0);
    // Some respondents clicked their review link (recordClick), so their reviews can reach the match threshold.
    const clicked = await one(sql`select count(*) filter (where clicked_at is not null and click_count > 0)::int as clicked,
        count(*) filter (where clicked_at > now())::int as future from amplifications`);
    expect(clicked.clicked).toBeGreaterThan(0);
    expect(clicked.future).toBe(0);
  });
});
