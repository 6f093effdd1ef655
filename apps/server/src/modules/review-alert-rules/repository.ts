import {
  type AlertChannel,
  type ReviewAlertRule,
  type ReviewAlertRuleBody,
  type ReviewAlertRuleListQuery,
  reviewAlertRuleResource,
} from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reviewAlertRecipients, reviewAlertRules } from '../../db/schema/index.ts';
import { type AlertRuleKind, defined, trimmed } from '../../kit/alert-rules/kind.ts';
import { alertRuleStore, loadAlertRule } from '../../kit/alert-rules/store.ts';
import { reviewRuleProblems } from './checks.ts';
import { extrasOf, noExtras, type ReviewRuleExtras } from './extras.ts';

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

const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/** Column values from a (partial) body: text and lists trimmed, blanks and repeats dropped. */
export function reviewRuleValues(body: Partial<ReviewAlertRuleBody>): Record<string, unknown> {
  return defined({
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
  });
}

/**
 * Review Alert Settings as a kind of alert rule (apps/server/src/kit/alert-rules/, as Survey Alert
 * Settings): what it adds to every rule — sites, rating range, Facebook recommendation, text and
 * keywords, send time and weekday, reply link — and its filter by site. Last sent is the
 * engine's; a copy starts without it.
 */
export const reviewAlertRuleKind: AlertRuleKind<
  typeof reviewAlertRules,
  ReviewAlertRule,
  ReviewAlertRuleBody,
  ReviewAlertRuleListQuery,
  ReviewRuleExtras
> = {
  definition: reviewAlertRuleResource,
  rules: reviewAlertRules,
  recipients: reviewAlertRecipients,
  notFound: 'Review alert rule',
  what: 'review alert rule',
  sorts: {
    name: { expr: sql`lower(${reviewAlertRules.name})`, cast: 'text' },
    frequency: { expr: sql`${reviewAlertRules.frequency}`, cast: 'text' },
    status: { expr: sql`${reviewAlertRules.status}`, cast: 'text' },
    updated_at: { expr: sql`${reviewAlertRules.updatedAt}`, cast: 'timestamptz' },
  },
  filters: (q) => [q.site && q.site.length > 0 ? sql`${reviewAlertRules.sites} && ${sql.param(q.site)}::text[]` : undefined],
  extrasOf,
  toRecord: toReviewRule,
  values: reviewRuleValues,
  problems: reviewRuleProblems,
  copyOf: ({ id: _id, createdAt: _c, updatedAt: _u, lastSentAt: _l, ...rest }) => rest,
};

export const reviewAlertRuleStore = alertRuleStore(reviewAlertRuleKind);
export const loadReviewRule = (db: Db, id: number) => loadAlertRule(reviewAlertRuleKind, db, id);
