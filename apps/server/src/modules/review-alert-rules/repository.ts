import {
  type AlertChannel,
  type ReviewAlertRule,
  type ReviewAlertRuleBody,
  type ReviewAlertRuleListQuery,
  reviewAlertRuleResource,
} from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, reviewAlertRecipients, reviewAlertRules } from '../../db/schema/index.ts';
import { clientScopeOf, inClientScope } from '../../kit/current-client.ts';
import { allOf, containsPattern, inList, type KeyColumn } from '../../kit/keyset.ts';
import { keysetPage, resourceSort, whereClause } from '../../kit/keyset-page.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { countMatching } from '../../kit/totals.ts';
import { notFound } from '../../lib/http-error.ts';

import { checkReviewRule } from './checks.ts';
import { extrasOf, noExtras, type ReviewRuleExtras } from './extras.ts';
import { setReviewRecipients } from './recipients.ts';

export type ReviewRuleRow = typeof reviewAlertRules.$inferSelect;

export function toReviewRule(row: ReviewRuleRow, clientName: string | null = null, extras: ReviewRuleExtras = noExtras()): ReviewAlertRule {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: clientName,
    name: row.name,
    location_ids: row.locationIds,
    location_names: row.locationIds.map((id) => extras.locationNames.get(id) ?? id),
    sites: row.sites,
    rating_min: row.ratingMin,
    rating_max: row.ratingMax,
    recommend_filter: row.recommendFilter,
    text_filter: row.textFilter as ReviewAlertRule['text_filter'],
    keywords: row.keywords,
    channels: row.channels as AlertChannel[],
    recipient_user_ids: extras.recipients.map((r) => r.id),
    recipients: extras.recipients,
    extra_emails: row.extraEmails,
    extra_phones: row.extraPhones,
    frequency: row.frequency as ReviewAlertRule['frequency'],
    send_time: row.sendTime,
    weekly_day: row.weeklyDay,
    include_reply_link: row.includeReplyLink,
    last_sent_at: row.lastSentAt?.toISOString() ?? null,
    status: row.status as ReviewAlertRule['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One rule with its client's name and the names it lists. */
export async function loadReviewRule(db: Db, id: number): Promise<ReviewAlertRule> {
  const [found] = await db
    .select({ row: reviewAlertRules, clientName: clients.name })
    .from(reviewAlertRules)
    .leftJoin(clients, eq(clients.id, reviewAlertRules.clientId))
    .where(eq(reviewAlertRules.id, id))
    .limit(1);
  if (!found) throw notFound('Review alert rule');
  return toReviewRule(found.row, found.clientName, (await extrasOf(db, [found.row])).get(id));
}

const SORTS: Record<NonNullable<ReviewAlertRuleListQuery['sort']>, KeyColumn> = {
  name: { expr: sql`lower(${reviewAlertRules.name})`, cast: 'text' },
  frequency: { expr: sql`${reviewAlertRules.frequency}`, cast: 'text' },
  status: { expr: sql`${reviewAlertRules.status}`, cast: 'text' },
  updated_at: { expr: sql`${reviewAlertRules.updatedAt}`, cast: 'timestamptz' },
};
const byId: KeyColumn = { expr: sql`${reviewAlertRules.id}`, cast: 'integer' };

type Filters = Omit<ReviewAlertRuleListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

function where(q: Filters, clientId: number | null): SQL | undefined {
  const like = containsPattern(q.q);
  const recipientIds = (q.recipient ?? []).map(Number);
  return allOf([
    inClientScope(reviewAlertRules.clientId, clientScopeOf(q.client, clientId)),
    inList(sql`${reviewAlertRules.status}`, q.status),
    q.site && q.site.length > 0 ? sql`${reviewAlertRules.sites} && ${sql.param(q.site)}::text[]` : undefined,
    // A rule for every location is a rule for the one chosen too.
    q.location && q.location.length > 0
      ? sql`(${reviewAlertRules.locationIds} = '{}' or ${reviewAlertRules.locationIds} && ${sql.param(q.location)}::text[])`
      : undefined,
    recipientIds.length > 0
      ? sql`exists (select 1 from ${reviewAlertRecipients} r where r.rule_id = ${reviewAlertRules.id} and r.user_id = any(${sql.param(recipientIds)}::integer[]))`
      : undefined,
    like ? sql`${reviewAlertRules.name} ilike ${like}` : undefined,
  ]);
}

async function listRules(db: Db, q: ReviewAlertRuleListQuery, clientId: number | null, limit: number) {
  const sort = resourceSort(SORTS, byId, q, { sort: 'name', order: reviewAlertRuleResource.defaultSort.order });
  const { page, nextCursor } = await keysetPage({ ...sort, where: where(q, clientId), cursor: q.cursor, limit }, (p) =>
    db
      .select({ row: reviewAlertRules, clientName: clients.name, ...p.fields })
      .from(reviewAlertRules)
      .leftJoin(clients, eq(clients.id, reviewAlertRules.clientId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  const extras = await extrasOf(
    db,
    page.map((r) => r.row),
  );
  return { rows: page.map((r) => toReviewRule(r.row, r.clientName, extras.get(r.row.id))), nextCursor };
}

function countRules(db: Db, q: ReviewAlertRuleListQuery, clientId: number | null) {
  return countMatching(db, sql`from ${reviewAlertRules}${whereClause(where(q, clientId))}`);
}

const trimmed = (list: readonly string[] | undefined) =>
  list === undefined ? undefined : [...new Set(list.map((v) => v.trim()).filter((v) => v !== ''))];
const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/** Column values from a (partial) body: text and lists trimmed, blanks and repeats dropped. */
export function reviewRuleValues(body: Partial<ReviewAlertRuleBody>): Partial<typeof reviewAlertRules.$inferInsert> {
  const values: Partial<typeof reviewAlertRules.$inferInsert> = {
    name: body.name?.trim(),
    locationIds: trimmed(body.location_ids),
    sites: trimmed(body.sites),
    ratingMin: body.rating_min,
    ratingMax: body.rating_max,
    recommendFilter: trimmed(body.recommend_filter),
    textFilter: body.text_filter ?? undefined,
    keywords: trimmed(body.keywords),
    channels: trimmed(body.channels),
    extraEmails: trimmed(body.extra_emails)?.map((e) => e.toLowerCase()),
    extraPhones: trimmed(body.extra_phones),
    frequency: body.frequency ?? undefined,
    sendTime: blankToNull(body.send_time),
    weeklyDay: blankToNull(body.weekly_day),
    includeReplyLink: body.include_reply_link,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/**
 * Review alert rules of the current client or of the clients chosen in the filter, as Survey Alert
 * Settings' store (apps/server/src/modules/survey-alert-rules/repository.ts): checks across fields
 * and client (checks.ts), recipient users beside the row, names read per page (extras.ts).
 */
export const reviewAlertRuleStore: ResourceStore<
  ReviewAlertRule,
  ReviewRuleRow,
  ReviewAlertRuleBody,
  ReviewAlertRuleListQuery,
  number | null
> = {
  table: reviewAlertRules,
  toRecord: toReviewRule,
  list: listRules,
  count: countRules,
  values: reviewRuleValues,
  check: checkReviewRule,
  async afterWrite(tx, row, body) {
    if (body.recipient_user_ids) await setReviewRecipients(tx, row.id, body.recipient_user_ids);
  },
  reload: loadReviewRule,
};
