import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Recipient, recipientsOf, ruleUsers } from '../alerts/recipients.ts';
import { type Db, rowsOf } from '../db/client.ts';
import { reviewAlertRecipients, reviewAlertRules, reviews } from '../db/schema/index.ts';
import { isRecent, ruleIndex } from './matching.ts';

export type ReviewRule = typeof reviewAlertRules.$inferSelect;

/** Review rules reach users, extra e-mails and extra phones only: no personnel or manager of a review. */
const NOBODY_NAMED = { personnel: null, manager: null };

/** One delivery to write: what deliveryRows makes, the columns insertDeliveries writes. */
export type DeliveryRow = {
  ruleId: number;
  clientId: number;
  reviewId: number | null;
  channel: string;
  recipient: string;
  status: 'pending' | 'failed';
  reason: string | null;
  nextRetryAt: Date | null;
  test: boolean;
  createdAt: Date;
};

/** The addresses a rule reaches on its channels: its users (as survey rules', alerts/recipients.ts) and extras. */
export async function recipientsOfRules(db: Db, clientId: number, rules: ReviewRule[]): Promise<Map<number, Recipient[]>> {
  const users = await ruleUsers(
    db,
    clientId,
    rules.map((r) => r.id),
    reviewAlertRecipients,
  );
  const reach = (rule: ReviewRule) => ({ ...rule, notifyAssignedPersonnel: false, notifyLocationManager: false });
  return new Map(rules.map((rule) => [rule.id, recipientsOf(reach(rule), users.get(rule.id) ?? [], NOBODY_NAMED)]));
}

/**
 * One rule's deliveries for one review: one per recipient and channel, due at once when instant
 * (the delivery loop, deliver.ts, sends them), waiting for the digest otherwise (digest.ts); or one
 * `failed` row with reason `no_recipients` when it reaches nobody, so the miss is on record.
 */
export function deliveryRows(
  rule: { id: number; clientId: number; frequency: string; channels: string[] },
  recipients: readonly Recipient[],
  reviewId: number | null,
  now: Date,
  test = false,
): DeliveryRow[] {
  const base = { ruleId: rule.id, clientId: rule.clientId, reviewId, test, createdAt: now };
  if (recipients.length === 0) {
    return [{ ...base, channel: rule.channels[0] ?? 'email', recipient: '', status: 'failed', reason: 'no_recipients', nextRetryAt: null }];
  }
  const due = rule.frequency === 'instant' ? now : null;
  return recipients.map((r) => ({ ...base, channel: r.channel, recipient: r.to, status: 'pending', reason: null, nextRetryAt: due }));
}

/**
 * Inserts deliveries, skipping those that exist (review_alert_deliveries_once_uq: a retried job);
 * answers the new rows' ids. One JSON parameter per thousand rows, as the survey engine does
 * (apps/server/src/alerts/evaluate.ts insertEvents).
 */
export async function insertDeliveries(db: Db, rows: DeliveryRow[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000).map((r) => ({
      rule_id: r.ruleId,
      client_id: r.clientId,
      review_id: r.reviewId,
      channel: r.channel,
      recipient: r.recipient,
      status: r.status,
      reason: r.reason,
      next_retry_at: r.nextRetryAt?.toISOString() ?? null,
      test: r.test,
      created_at: r.createdAt.toISOString(),
    }));
    const inserted = rowsOf(
      await db.execute(sql`
        insert into review_alert_deliveries (rule_id, client_id, review_id, channel, recipient, status, reason, next_retry_at, test,
          created_at, updated_at)
        select rule_id, client_id, review_id, channel, recipient, status, reason, next_retry_at, test, created_at, created_at
        from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as x(rule_id int, client_id int, review_id bigint, channel text,
          recipient text, status text, reason text, next_retry_at timestamptz, test boolean, created_at timestamptz)
        on conflict do nothing
        returning id`),
    );
    ids.push(...inserted.map((r) => Number(r.id)));
  }
  return ids;
}

/**
 * The `evaluate-review-alerts` job for a batch of reviews (pipeline.md "Alerts"; the ingest
 * function enqueues one per review stored or changed): every active rule of the review's client
 * whose filters it passes (matching.ts) gets its deliveries. Reviews written on the site more than
 * RECENT_DAYS before now alert nobody (a first import of a location's history). Answers how many
 * deliveries it created.
 */
export async function evaluateReviews(db: Db, reviewIds: readonly number[], now: Date): Promise<number> {
  if (reviewIds.length === 0) return 0;
  const found = await db
    .select({
      id: reviews.id,
      clientId: reviews.clientId,
      locationId: reviews.locationId,
      site: reviews.site,
      rating: reviews.rating,
      recommend: reviews.recommend,
      text: reviews.text,
      reviewCreatedAt: reviews.reviewCreatedAt,
    })
    .from(reviews)
    .where(inArray(reviews.id, [...new Set(reviewIds)]));
  const recent = found.filter((r) => isRecent(r.reviewCreatedAt, now));
  const rows: DeliveryRow[] = [];
  for (const clientId of new Set(recent.map((r) => r.clientId))) {
    const rules = await db
      .select()
      .from(reviewAlertRules)
      .where(and(eq(reviewAlertRules.clientId, clientId), eq(reviewAlertRules.status, 'active')));
    const passed = ruleIndex(rules);
    const firing = recent
      .filter((r) => r.clientId === clientId)
      .map((review) => ({ review, rules: passed(review) }))
      .filter((f) => f.rules.length > 0);
    if (firing.length === 0) continue;
    const reach = await recipientsOfRules(db, clientId, [...new Set(firing.flatMap((f) => f.rules))]);
    for (const { review, rules: ofReview } of firing) {
      for (const rule of ofReview) rows.push(...deliveryRows(rule, reach.get(rule.id) ?? [], review.id, now));
    }
  }
  return (await insertDeliveries(db, rows)).length;
}
