import type { PerformanceGroupBy, PerformanceQuery } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { whereClause } from '../../kit/keyset-page.ts';
import { COUNT_KEYS, type Counts, zeroCounts } from './figures.ts';

/** What the counts are keyed by: a group-by of the table, a chart bucket, or nothing (the cards). */
export type KeyKind = PerformanceGroupBy | 'day' | 'total';
/** The query's filters and one period (days in each client's zone, both included). */
export type Scope = Omit<PerformanceQuery, 'groupBy' | 'from' | 'to'> & { from: string; to: string };

/**
 * One kind of event and where its dimensions live. A column the event does not carry is null:
 * a review names no survey, personnel, product or referral source, and has no channel, so a
 * filter on those leaves reviews as they are and a group-by on them puts every review in "None"
 * (docs/decisions/065-report-rollups.md).
 */
type Family = {
  from: SQL;
  time: SQL;
  client: SQL;
  location: SQL;
  personnel: SQL | null;
  survey: SQL | null;
  product: SQL | null;
  referral: SQL | null;
  channel: SQL | null;
  where: SQL;
  measures: Partial<Record<(typeof COUNT_KEYS)[number], SQL>>;
  site?: SQL;
};

const INVITE_DELIVERED = sql`('delivered', 'opened', 'clicked', 'complained')`;
const INVITE_OPENED = sql`('opened', 'clicked')`;
/** An invitation's Tracking Logs rows (its first send and any resend; reminders are another type). */
const inviteLogs = (statuses: SQL) =>
  sql`exists (select 1 from notification_logs n where n.related_type = 'survey_processing_item' and n.related_id = i.id::text
    and n.type = 'survey_invite' and n.status in ${statuses})`;

/** Surveys scored 1–5, whose key scores make the CSAT. */
const CSAT_TYPES = sql`('csat', 'star')`;

const FAMILIES: Family[] = [
  {
    // Invitations, on the day first sent; a Send test is no invitation of the client's customers.
    from: sql`survey_processing_items i`,
    time: sql`i.sent_at`,
    client: sql`i.client_id`,
    location: sql`i.location_id`,
    personnel: sql`i.personnel_id`,
    survey: sql`i.survey_id`,
    product: sql`i.product_id`,
    referral: sql`i.referral_source_id`,
    channel: sql`i.channel`,
    where: sql`i.sent_at is not null and i.source <> 'manual_test'`,
    measures: {
      sent: sql`count(*)`,
      delivered: sql`count(*) filter (where ${inviteLogs(INVITE_DELIVERED)})`,
      opened: sql`count(*) filter (where ${inviteLogs(INVITE_OPENED)})`,
    },
  },
  {
    // Responses, on the day submitted, as Survey Manager holds them (location and personnel are the response's own).
    from: sql`survey_responses r join survey_processing_items i on i.id = r.processing_item_id join surveys s on s.id = r.survey_id`,
    time: sql`r.submitted_at`,
    client: sql`r.client_id`,
    location: sql`r.location_id`,
    personnel: sql`r.personnel_id`,
    survey: sql`r.survey_id`,
    product: sql`i.product_id`,
    referral: sql`i.referral_source_id`,
    channel: sql`i.channel`,
    where: sql`not r.excluded and not r.test`,
    measures: {
      responses: sql`count(*)`,
      promoters: sql`count(*) filter (where r.nps_class = 'promoter')`,
      passives: sql`count(*) filter (where r.nps_class = 'passive')`,
      detractors: sql`count(*) filter (where r.nps_class = 'detractor')`,
      scoreSum: sql`coalesce(sum(r.key_score), 0)`,
      scoreCount: sql`count(r.key_score)`,
      csatPositive: sql`count(*) filter (where s.type in ${CSAT_TYPES} and r.key_score between 4 and 5)`,
      csatAnswers: sql`count(*) filter (where s.type in ${CSAT_TYPES} and r.key_score between 1 and 5)`,
    },
  },
  {
    // Survey alert events, on the day raised; their response's (else their invitation's) dimensions.
    from: sql`survey_alert_events e left join survey_responses r on r.id = e.response_id
      left join survey_processing_items i on i.id = coalesce(r.processing_item_id, e.processing_item_id)`,
    time: sql`e.created_at`,
    client: sql`e.client_id`,
    location: sql`coalesce(r.location_id, i.location_id)`,
    personnel: sql`coalesce(r.personnel_id, i.personnel_id)`,
    survey: sql`coalesce(r.survey_id, i.survey_id)`,
    product: sql`i.product_id`,
    referral: sql`i.referral_source_id`,
    channel: sql`i.channel`,
    where: sql`not e.test`,
    measures: { alertsFired: sql`count(*)`, alertsUnsent: sql`count(*) filter (where e.state = 'unsent')` },
  },
  {
    // Review invitations, on the day invited, with their posted review's rating.
    from: sql`amplifications a join survey_responses r on r.id = a.response_id join survey_processing_items i on i.id = r.processing_item_id`,
    time: sql`a.invited_at`,
    client: sql`a.client_id`,
    location: sql`a.location_id`,
    personnel: sql`a.personnel_id`,
    survey: sql`r.survey_id`,
    product: sql`i.product_id`,
    referral: sql`i.referral_source_id`,
    channel: sql`a.channel`,
    where: sql`true`,
    measures: { invites: sql`count(*)`, posted: sql`count(*) filter (where a.status = 'posted')` },
  },
  {
    // Public reviews, on the day written, per site.
    from: sql`reviews v`,
    time: sql`v.review_created_at`,
    client: sql`v.client_id`,
    location: sql`v.location_id`,
    personnel: null,
    survey: null,
    product: null,
    referral: null,
    channel: null,
    where: sql`true`,
    measures: { reviews: sql`count(*)`, ratingSum: sql`coalesce(sum(v.rating), 0)`, rated: sql`count(v.rating)` },
    site: sql`v.site`,
  },
];

/** A moment as the client's local calendar day or month. */
const localText = (f: Family, format: string) => sql`to_char(${f.time} at time zone c.timezone, ${format})`;

function keyOf(f: Family, kind: KeyKind): SQL {
  const text = (e: SQL | null) => (e ? sql`(${e})::text` : sql`null::text`);
  switch (kind) {
    case 'total':
      return sql`''`;
    case 'client':
      return text(f.client);
    case 'location':
      return text(f.location);
    case 'personnel':
      return text(f.personnel);
    case 'survey':
      return text(f.survey);
    case 'product':
      return text(f.product);
    case 'referral_source':
      return text(f.referral);
    case 'month':
      return localText(f, 'YYYY-MM');
    case 'day':
      return localText(f, 'YYYY-MM-DD');
  }
}

function familySql(f: Family, scope: Scope, kind: KeyKind): SQL {
  const where = allOf([
    f.where,
    inList(f.client, scope.clients),
    inList(f.location, scope.locations),
    f.survey ? inList(f.survey, scope.surveys) : undefined,
    f.personnel ? inList(f.personnel, scope.personnel) : undefined,
    f.channel && scope.channel !== 'all' ? sql`${f.channel} = ${scope.channel}` : undefined,
    // The period in the client's own zone: from its first day's midnight to the midnight after its last.
    sql`${f.time} >= (${scope.from}::date)::timestamp at time zone c.timezone`,
    sql`${f.time} < (${scope.to}::date + 1)::timestamp at time zone c.timezone`,
  ]);
  const columns = COUNT_KEYS.map((k) => sql`(${f.measures[k] ?? sql`0`})::bigint`);
  return sql`select coalesce(${keyOf(f, kind)}, '') as key, ${f.site ?? sql`null::text`} as site, ${sql.join(columns, sql`, `)}
    from ${f.from} join clients c on c.id = ${f.client}${whereClause(where)} group by 1, 2`;
}

/**
 * The counts of a period from the raw tables, keyed by `kind` ('' = no value, or the cards'
 * one key): the reference the rollups are proved against, and the bench's "computed from the
 * raw tables" number.
 */
export async function rawCounts(db: Db, scope: Scope, kind: KeyKind): Promise<Map<string, Counts>> {
  const names = COUNT_KEYS.map((k) => sql.identifier(k));
  const parts = FAMILIES.map((f) => sql`(${familySql(f, scope, kind)})`);
  const statement = sql`select * from (${sql.join(parts, sql` union all `)}) t(key, site, ${sql.join(names, sql`, `)})`;
  const out = new Map<string, Counts>();
  for (const row of rowsOf(await db.execute(statement))) {
    const key = String(row.key ?? '');
    const counts = out.get(key) ?? zeroCounts();
    for (const k of COUNT_KEYS) counts[k] += Number(row[k] ?? 0);
    if (typeof row.site === 'string') counts.bySite[row.site] = (counts.bySite[row.site] ?? 0) + Number(row.reviews ?? 0);
    out.set(key, counts);
  }
  return out;
}
