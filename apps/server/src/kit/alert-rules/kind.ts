import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { reviewAlertRules, surveyAlertRules } from '../../db/schema/index.ts';
import type { KeyColumn } from '../keyset.ts';
import type { RecipientTable } from './recipients.ts';

/** A rule kind's table: both have the columns the kit reads (id, client, name, locations, status, times). */
export type AlertRuleTable = typeof surveyAlertRules | typeof reviewAlertRules;

/** What every alert rule body has that the kit writes beside the row. */
export type RuleBodyBase = { recipient_user_ids?: number[] | undefined };
/** What every alert rule list query has that the kit filters on. */
export type RuleQueryBase = {
  q?: string | undefined;
  client?: readonly (string | number)[] | 'all' | undefined;
  status?: string[] | undefined;
  location?: string[] | undefined;
  recipient?: string[] | undefined;
  sort?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
  cursor?: string | undefined;
};

/**
 * One kind of alert rule (Survey Alert Settings, Review Alert Settings) as the alert-rule kit
 * needs it: its tables, how its row reads and writes, what it filters and checks beyond what
 * every rule has (client, status, locations, recipients, name). Each module keeps its own in a
 * small file; the store, checks and routes are the kit's (docs/decisions/054-one-alert-rule-kit.md).
 */
export type AlertRuleKind<T extends AlertRuleTable, Rec, Body extends RuleBodyBase, Query extends RuleQueryBase, Extras> = {
  definition: { name: string; path: string; labels: Record<string, string>; defaultSort: { order: 'asc' | 'desc' } };
  rules: T;
  recipients: RecipientTable;
  /** How a refusal names one ("Alert rule not found") and the audit a Duplicate ("Duplicated alert rule …"). */
  notFound: string;
  what: string;
  sorts: Record<NonNullable<Query['sort']>, KeyColumn> & Record<'name', KeyColumn>;
  /** The list's filters of this kind only (survey, trigger; site), beside the kit's. */
  filters(q: Query): (SQL | undefined)[];
  extrasOf(db: Db, rows: T['$inferSelect'][]): Promise<Map<number, Extras>>;
  toRecord(row: T['$inferSelect'], clientName?: string | null, extras?: Extras): Rec;
  values(body: Partial<Body>): Record<string, unknown>;
  /** The shared field-across rules (packages/shared) on the body over the stored rule. */
  problems(body: Partial<Body>, before: T['$inferSelect'] | null, recipientIds: number[]): Record<string, string[]>;
  /** References beyond locations and users that must be the client's (a survey rule's surveys). */
  foreign?(db: Db, clientId: number, body: Partial<Body>): Promise<Record<string, string[]>>;
  /** A Duplicate's columns from the source's, without what a copy starts afresh (id, times, last sent). */
  copyOf(row: T['$inferSelect']): T['$inferInsert'];
};

/** Text lists trimmed, blanks and repeats dropped; undefined stays undefined (a partial body). */
export const trimmed = (list: readonly string[] | undefined) =>
  list === undefined ? undefined : [...new Set(list.map((v) => v.trim()).filter((v) => v !== ''))];

/** A partial body's values with the fields it left out removed. */
export const defined = (values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
