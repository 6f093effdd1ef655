import type { ReviewCounts } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { recordClick } from '../reputation/amplify/click.ts';
import { ingestReviews } from '../reputation/ingest/ingest.ts';
import { FIRST, LAST } from './demo-names.ts';
import { seededRandom } from './random.ts';

/**
 * The demo's public reviews (issue 21, item 7), through the product's own door: `ingestReviews`
 * with source `demo`, so each stored review gets its match-review and evaluate-review-alerts jobs
 * like any other. Three kinds, deterministic (seeded random):
 * - reviews by respondents who were invited to review (the amplifications the thank-you page made;
 *   without any, the demo's survey respondents), more often when they clicked, posted a few hours
 *   to days after the invitation, under the name the site shows (full, or first name and initial);
 * - a few months of other reviews per location on Google, Facebook and Yelp, some answered;
 * - negative ones (1–2 stars, or Facebook "not recommended") in the last two days, which the demo's
 *   review alert rules catch.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;
const PRAISE = [
  'Quick and friendly service, everything explained clearly.',
  'Booked online, in and out on time. Will be back.',
  'The team went out of their way to help us.',
  'Great experience from start to finish.',
  'Fair price and honest advice.',
  '',
];
const MIDDLING = ['It was fine, but we waited longer than promised.', 'Good work, a little pricey.', ''];
const COMPLAINTS = [
  'Waited over an hour past my appointment and nobody called.',
  'Charged for work that was never done. Very disappointed.',
  'Rude at the front desk and the problem is still not fixed.',
];
const REPLIES = [
  'Thank you for the kind words!',
  'Thanks for choosing us, see you next time.',
  'We are sorry to hear this; please call us so we can make it right.',
];

type Candidate = { locationId: string; clientId: number; site: string; name: string; invitedAt: Date; clicked: boolean };
type Item = Record<string, unknown> & { clientId: number };

/**
 * Some invited respondents click their review link (as /r/{token} records it, recordClick), a few
 * minutes to hours after the invitation and before now; its own random stream, so the rest of the
 * demo's draws stay as they were. Without clicks no demo review could reach the match threshold
 * (decision 049: the click is 45 of its points), and the panel would show none posted.
 */
async function clickSome(tx: Db, anchor: Date): Promise<void> {
  const rng = seededRandom(49_2026);
  const open = rowsOf(await tx.execute(sql`select token, invited_at from amplifications where status = 'invited' order by id limit 600`));
  for (const r of open) {
    if (rng.next() >= 0.45) continue;
    const at = Math.min(new Date(String(r.invited_at)).getTime() + rng.int(2, 600) * 60_000, anchor.getTime() - 60_000);
    await recordClick(tx, String(r.token), new Date(at));
  }
}

/** Invited respondents: the amplifications when the demo made some, else the survey respondents. */
async function invited(tx: Db): Promise<Candidate[]> {
  const amplified = rowsOf(
    await tx.execute(sql`select location_id, client_id, site, customer_name, invited_at, clicked_at from amplifications
      where customer_name <> '' order by id limit 600`),
  );
  if (amplified.length > 0) {
    return amplified.map((r) => ({
      locationId: String(r.location_id),
      clientId: Number(r.client_id),
      site: String(r.site),
      name: String(r.customer_name),
      invitedAt: new Date(String(r.invited_at)),
      clicked: r.clicked_at !== null,
    }));
  }
  const responded = rowsOf(
    await tx.execute(sql`select r.location_id, r.client_id, p.first_name, p.last_name, r.submitted_at, r.key_score
      from survey_responses r join survey_processing_items p on p.id = r.processing_item_id
      where r.location_id is not null and not r.test order by r.id limit 600`),
  );
  return responded.map((r) => ({
    locationId: String(r.location_id),
    clientId: Number(r.client_id),
    site: 'google',
    name: [r.first_name, r.last_name].filter((n) => typeof n === 'string' && n !== '').join(' '),
    invitedAt: new Date(String(r.submitted_at)),
    // Promoters are the ones who click through (a stand-in when no amplification exists).
    clicked: Number(r.key_score ?? 0) >= 9,
  }));
}

export async function seedReviews(tx: Db, anchor: Date): Promise<ReviewCounts> {
  await clickSome(tx, anchor);
  const rng = seededRandom(21_2026);
  const latest = anchor.getTime() - 10 * 60_000;
  const items: Item[] = [];
  let n = 0;
  const item = (clientId: number, fields: Record<string, unknown>, at: number, rating: number | null, recommend: boolean | null) => {
    n += 1;
    const created = new Date(Math.min(at, latest)).toISOString();
    const site = String(fields.site ?? 'google');
    const text = rating !== null && rating <= 2 ? rng.pick(COMPLAINTS) : rating === 3 ? rng.pick(MIDDLING) : rng.pick(PRAISE);
    const answered = rng.next() < 0.4;
    items.push({
      clientId,
      reviewId: `demo-${site}-${n.toString(36).padStart(5, '0')}`,
      site,
      ...(rating !== null ? { starRating: STARS[rating - 1] } : { recommend }),
      comment: recommend === false ? rng.pick(COMPLAINTS) : text,
      createTime: created,
      updateTime: created,
      ...(answered
        ? {
            reviewReply: {
              comment: rng.pick(REPLIES),
              updateTime: new Date(Math.min(Date.parse(created) + rng.int(2, 30) * HOUR, latest)).toISOString(),
            },
          }
        : {}),
      ...fields,
    });
  };
  const shownAs = (name: string, site: string) => {
    const [first = name, last = ''] = name.split(' ');
    // Yelp shows first name and last initial; some Google reviewers do the same or use a nickname.
    return site === 'yelp' || rng.next() < 0.3 ? `${first}${last ? ` ${last[0]}.` : ''}` : name;
  };

  for (const c of await invited(tx)) {
    if (rng.next() >= (c.clicked ? 0.7 : 0.2)) continue;
    const at = c.invitedAt.getTime() + rng.int(1, 96) * HOUR;
    const rating = c.site === 'facebook' ? null : rng.next() < 0.85 ? 5 : 4;
    item(
      c.clientId,
      { site: c.site, locationId: c.locationId, reviewer: { displayName: shownAs(c.name, c.site) } },
      at,
      rating,
      rating === null ? true : null,
    );
  }

  const places = rowsOf(
    await tx.execute(sql`select l._id, l.client_id from locations l join clients c on c.id = l.client_id
      where c.status = 'active' and l.status = 'active' order by l.client_id, l._id`),
  );
  const perClient = new Map<number, string[]>();
  for (const p of places) perClient.set(Number(p.client_id), [...(perClient.get(Number(p.client_id)) ?? []), String(p._id)]);
  for (const [clientId, ids] of perClient) {
    for (const locationId of ids.slice(0, 12)) {
      for (let i = rng.int(6, 16); i > 0; i--) {
        const roll = rng.next();
        const site = roll < 0.7 ? 'google' : roll < 0.85 ? 'facebook' : 'yelp';
        const stars = rng.next();
        const rating = stars < 0.55 ? 5 : stars < 0.77 ? 4 : stars < 0.85 ? 3 : stars < 0.91 ? 2 : 1;
        const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
        const at = latest - rng.int(3, 120) * DAY - rng.int(0, 23) * HOUR;
        const fields = { site, locationId, reviewer: { displayName: shownAs(name, site) } };
        if (site === 'facebook') item(clientId, fields, at, null, rating >= 3);
        else item(clientId, fields, at, rating, null);
      }
    }
    // Negative ones in the last two days, for the review alert rules.
    for (const locationId of ids.slice(0, 2)) {
      const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
      item(clientId, { site: 'google', locationId, reviewer: { displayName: name } }, latest - rng.int(1, 40) * HOUR, rng.int(1, 2), null);
    }
  }

  const total: ReviewCounts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const clientId of new Set(items.map((i) => i.clientId))) {
    const mine = items.filter((i) => i.clientId === clientId).map(({ clientId: _, ...rest }) => rest);
    for (let i = 0; i < mine.length; i += 1000) {
      const { counts } = await ingestReviews(tx, { clientId, source: 'demo', now: anchor }, mine.slice(i, i + 1000));
      for (const k of Object.keys(total) as (keyof ReviewCounts)[]) total[k] += counts[k];
    }
  }
  return total;
}
