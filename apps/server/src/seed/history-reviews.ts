import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { amplifications, reviewAlertRules } from '../db/schema/index.ts';
import type { Messenger } from '../messaging/send.ts';
import { matchReviews } from '../reputation/amplify/match.ts';
import { ingestReviews } from '../reputation/ingest/ingest.ts';
import { deliverDue } from '../review-alerts/deliver.ts';
import { deliveryRows, insertDeliveries, recipientsOfRules } from '../review-alerts/evaluate.ts';
import { FIRST, LAST } from './demo-names.ts';
import type { HistoryClient } from './history-invitations.ts';
import { DAY_MS, type Period } from './history-plan.ts';
import { inChunks, iso, recordset } from './history-sql.ts';
import type { seededRandom } from './random.ts';

type Rnd = ReturnType<typeof seededRandom>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WEEK_MS = 7 * DAY_MS;
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;
const PRAISE = ['Friendly team, quick work.', 'On time and fairly priced.', 'Helpful from start to finish.', ''];
const MIDDLING = ['Okay, but slow to call back.', 'Decent, a bit pricey.'];
const COMPLAINTS = [
  'Waited all afternoon and nobody called.',
  'Billed for work that was not done.',
  'Rude on the phone, problem not fixed.',
];
/** The client whose instant review rule reached nobody in its first months (its recipients came later): its alerts failed, "No recipients". */
const NO_RECIPIENTS_UNTIL_PERIOD = 6;

/** A review to write: where, when, by whom, and its stars (null: a Facebook recommendation). */
export type Planned = { clientId: number; at: number; site: string; locationId: string; name: string; rating: number | null };

/** A review in the shape the ingest reads (reviews.ts writes the same), by the name the site shows. */
function reviewItem(rnd: Rnd, n: number, fields: Planned) {
  const { site, rating } = fields;
  const recommend = rating === null ? rnd.next() < 0.85 : null;
  const negative = (rating !== null && rating <= 2) || recommend === false;
  const text = negative ? rnd.pick(COMPLAINTS) : rating === 3 ? rnd.pick(MIDDLING) : rnd.pick(PRAISE);
  const [first = fields.name, last = ''] = fields.name.split(' ');
  const shown = site === 'yelp' || rnd.next() < 0.3 ? `${first}${last ? ` ${last[0]}.` : ''}` : fields.name;
  // Two negative reviews in three get an answer, some within the 48 hours the Review Alerts Report measures, some later.
  const replyAfter = negative ? (rnd.next() < 0.67 ? rnd.int(2, 90) * HOUR : null) : rnd.next() < 0.4 ? rnd.int(2, 30) * HOUR : null;
  return {
    reviewId: `demo-h-${site}-${n.toString(36).padStart(5, '0')}`,
    site,
    locationId: fields.locationId,
    reviewer: { displayName: shown },
    ...(rating !== null ? { starRating: STARS[rating - 1] } : { recommend }),
    comment: text,
    createTime: iso(fields.at),
    updateTime: iso(fields.at),
    ...(replyAfter !== null ? { reviewReply: { comment: 'Thank you for telling us.', updateTime: iso(fields.at + replyAfter) } } : {}),
  };
}

/**
 * Some invited respondents click their review link (what `recordClick` writes: `clicked`, the
 * first click's time, one click), promoters more often; of those, most post a five- or four-star
 * review on that site within four days, under the name the site shows.
 */
export async function clickSome(db: Db, firstAmplification: number, end: number, rnd: Rnd): Promise<Planned[]> {
  const invited = await db
    .select({
      id: amplifications.id,
      clientId: amplifications.clientId,
      locationId: amplifications.locationId,
      site: amplifications.site,
      name: amplifications.customerName,
      score: amplifications.surveyScore,
      at: amplifications.invitedAt,
    })
    .from(amplifications)
    .where(gt(amplifications.id, firstAmplification))
    .orderBy(asc(amplifications.id));
  const clicks: { id: number; at: string }[] = [];
  const items: Planned[] = [];
  for (const a of invited) {
    const promoter = (a.score ?? 0) >= 9 || a.score === 5;
    if (rnd.next() >= (promoter ? 0.45 : 0.1)) continue;
    const clicked = Math.min(a.at.getTime() + rnd.int(2, 600) * MINUTE, end - MINUTE);
    clicks.push({ id: a.id, at: iso(clicked) });
    if (rnd.next() >= 0.6) continue;
    const at = clicked + rnd.int(1, 96) * HOUR;
    if (at >= end) continue;
    items.push({ clientId: a.clientId, at, site: a.site, locationId: a.locationId, name: a.name, rating: rnd.next() < 0.85 ? 5 : 4 });
  }
  await inChunks(
    db,
    clicks,
    (json) => sql`update amplifications a set click_count = 1, clicked_at = v.at, status = 'clicked', updated_at = v.at
      from ${recordset(json, 'id bigint, at timestamptz')} where a.id = v.id`,
  );
  return items;
}

/**
 * The year's public reviews and their alerts. Reviews: up to two a period per location (one on average) on
 * Google, Facebook and Yelp (about one in twelve negative), and the respondents' own. They go in
 * through `ingestReviews` a week at a time, at the week's end, as a weekly pull would bring them;
 * then the two jobs the ingest queued for each run as the worker would have run them that day:
 * `matchReviews` (respondents' reviews become `posted` invitations) and the alert evaluation of
 * the instant "1–2 star" rule (`recipientsOfRules`, `deliveryRows`, `insertDeliveries`), its
 * deliveries sent by `deliverDue` through the messenger on the seed's clock; the jobs are then
 * marked done. Only the instant rule alerts: the weekly digest rule was made with the last month
 * (review-alerts.ts), and the evaluation job itself would apply it.
 */
export async function seedHistoryReviews(
  db: Db,
  options: {
    clients: readonly HistoryClient[];
    periods: readonly Period[];
    /** The respondents' reviews to write (clickSome). */
    clicked: Planned[];
    messenger: Messenger;
    clock: { at: Date };
  },
  rnd: Rnd,
): Promise<void> {
  const { periods, clients, messenger, clock } = options;
  const start = periods[0]?.start ?? 0;
  const end = periods.at(-1)?.end ?? 0;
  const planned: Planned[] = [...options.clicked];
  for (const client of clients) {
    for (const period of periods) {
      for (const location of client.locations) {
        for (let i = rnd.int(0, 2); i > 0; i--) {
          const roll = rnd.next();
          const site = roll < 0.7 ? 'google' : roll < 0.85 ? 'facebook' : 'yelp';
          const stars = rnd.next();
          const rating = site === 'facebook' ? null : stars < 0.58 ? 5 : stars < 0.82 ? 4 : stars < 0.93 ? 3 : stars < 0.97 ? 2 : 1;
          const name = `${rnd.pick(FIRST)} ${rnd.pick(LAST)}`;
          const at = Math.floor(period.start + rnd.next() * (period.end - period.start));
          planned.push({ clientId: client.id, at, site, locationId: location.id, name, rating });
        }
      }
    }
  }
  const items = planned.map((p, n) => ({ ...reviewItem(rnd, n + 1, p), at: p.at }));

  const instant = await db
    .select()
    .from(reviewAlertRules)
    .where(and(eq(reviewAlertRules.frequency, 'instant')));
  const reachOf = new Map<number, Awaited<ReturnType<typeof recipientsOfRules>>>();
  for (const rule of instant) reachOf.set(rule.id, await recipientsOfRules(db, rule.clientId, [rule]));
  const silentClient = clients[1]?.id;
  const silentUntil = periods[NO_RECIPIENTS_UNTIL_PERIOD]?.end ?? start;

  for (let weekStart = start; weekStart < end; weekStart += WEEK_MS) {
    const weekEnd = Math.min(weekStart + WEEK_MS, end);
    const now = new Date(weekEnd);
    const week = items.filter((i) => i.at >= weekStart && i.at < weekEnd).map(({ at: _, ...rest }) => rest);
    if (week.length === 0) continue;
    const { reviews } = await ingestReviews(db, { clientId: null, source: 'demo', now }, week);
    const ids = reviews.flatMap((r) => (r.id === null ? [] : [r.id]));
    await matchReviews(db, ids, now, 1);
    const negative = rowsOf(
      await db.execute(sql`select id, client_id from reviews where id = any(${sql.param(ids)}::bigint[])
        and (rating <= 2 or recommend = false) order by id`),
    );
    const rows = negative.flatMap((r) => {
      const clientId = Number(r.client_id);
      const rule = instant.find((x) => x.clientId === clientId);
      if (!rule) return [];
      const reach = clientId === silentClient && weekEnd <= silentUntil ? [] : (reachOf.get(rule.id)?.get(rule.id) ?? []);
      return deliveryRows(rule, reach, Number(r.id), now);
    });
    await insertDeliveries(db, rows);
    clock.at = now;
    while ((await deliverDue(db, messenger, now)) > 0) {}
    await db.execute(sql`update jobs set status = 'done', attempts = 1, finished_at = ${now.toISOString()}::timestamptz
      where status = 'pending' and queue in ('match-review', 'evaluate-review-alerts')
        and (payload ->> 'reviewId')::bigint = any(${sql.param(ids)}::bigint[])`);
  }
}
