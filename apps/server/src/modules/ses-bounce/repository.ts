import type { EmailSuppression, EmailSuppressionListQuery } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailSuppressions, users } from '../../db/schema/index.ts';
import { allOf, containsPattern, inList, type SortSpec } from '../../kit/keyset.ts';
import { keysetPage, whereClause } from '../../kit/keyset-page.ts';
import { countMatching } from '../../kit/totals.ts';

type Sort = NonNullable<EmailSuppressionListQuery['sort']>;
type Filters = Omit<EmailSuppressionListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;
export type PageQuery = Filters & { sort?: Sort | undefined; order?: 'asc' | 'desc' | undefined; cursor?: string | undefined };

const byEmail: SortSpec = [{ expr: sql`${emailSuppressions.email}`, cast: 'text' }];
/** Last seen then address: the (last_seen_at, email) index (schema/notifications.ts); the address is the key. */
const SORTS: Record<Sort, SortSpec> = {
  last_seen_at: [{ expr: sql`${emailSuppressions.lastSeenAt}`, cast: 'timestamptz' }, ...byEmail],
  email: byEmail,
};

/** `@Gmail.com`, `gmail.com` → a LIKE pattern for addresses at that domain (its wildcards escaped). */
function domainPattern(domain: string | undefined): string | undefined {
  const bare = (domain ?? '').trim().toLowerCase().replace(/^@+/, '');
  return bare === '' ? undefined : `%@${bare.replace(/[\\%_]/g, (c) => `\\${c}`)}`;
}

/** The WHERE of a list or export; the date range is the Last seen day, in UTC, end date inclusive. */
function filtersWhere(q: Filters): SQL | undefined {
  const like = containsPattern(q.q);
  const domain = domainPattern(q.domain);
  return allOf([
    inList(sql`${emailSuppressions.lastBounceType}`, q.bounce_type),
    inList(sql`${emailSuppressions.lastBounceSubtype}`, q.subtype),
    inList(sql`${emailSuppressions.reason}`, q.reason),
    q.suppressed === undefined ? undefined : sql`${emailSuppressions.suppressed} = ${q.suppressed === 'yes'}`,
    domain ? sql`${emailSuppressions.email} like ${domain}` : undefined,
    like ? sql`${emailSuppressions.email} ilike ${like}` : undefined,
    q.startDate ? sql`${emailSuppressions.lastSeenAt} >= ${q.startDate}::date` : undefined,
    q.endDate ? sql`${emailSuppressions.lastSeenAt} < (${q.endDate}::date + 1)` : undefined,
  ]);
}

/** The row's fields, with its 30-day bounce count from SES Logs (the recipient index) and its clients' names. */
const fieldsAt = (now: Date) => ({
  email: emailSuppressions.email,
  suppressed: emailSuppressions.suppressed,
  reason: emailSuppressions.reason,
  lastBounceType: emailSuppressions.lastBounceType,
  lastBounceSubtype: emailSuppressions.lastBounceSubtype,
  lastDiagnosticCode: emailSuppressions.lastDiagnosticCode,
  bounceCount30d: sql<number>`(select count(*)::int from ses_events e where e.recipient = ${emailSuppressions.email}
    and e.event_type = 'Bounce' and e.event_at > ${now.toISOString()}::timestamptz - interval '30 days')`,
  bounceCount: emailSuppressions.bounceCount,
  complaintCount: emailSuppressions.complaintCount,
  firstSeenAt: emailSuppressions.firstSeenAt,
  lastSeenAt: emailSuppressions.lastSeenAt,
  lastTemplate: emailSuppressions.lastTemplate,
  clients: sql<string[]>`coalesce((select array_agg(c.name order by lower(c.name), c.id) from clients c
    where c.id = any(${emailSuppressions.clientIds})), '{}'::text[])`,
  note: emailSuppressions.note,
  suppressedAt: emailSuppressions.suppressedAt,
  releasedAt: emailSuppressions.releasedAt,
  releasedByName: users.name,
  releaseReason: emailSuppressions.releaseReason,
});

type Row = {
  email: string;
  suppressed: boolean;
  reason: string;
  lastBounceType: string | null;
  lastBounceSubtype: string | null;
  lastDiagnosticCode: string | null;
  bounceCount30d: number;
  bounceCount: number;
  complaintCount: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
  lastTemplate: string | null;
  clients: string[];
  note: string | null;
  suppressedAt: Date | null;
  releasedAt: Date | null;
  releasedByName: string | null;
  releaseReason: string | null;
};

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function toRecord(r: Row): EmailSuppression {
  return {
    id: r.email,
    email: r.email,
    suppressed: r.suppressed,
    // The suppression policy writes one of the three (schema/notifications.ts).
    reason: r.reason as EmailSuppression['reason'],
    last_bounce_type: r.lastBounceType,
    last_bounce_subtype: r.lastBounceSubtype,
    last_diagnostic_code: r.lastDiagnosticCode,
    bounce_count_30d: Number(r.bounceCount30d),
    bounce_count: r.bounceCount,
    complaint_count: r.complaintCount,
    first_seen_at: r.firstSeenAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    last_template: r.lastTemplate,
    clients: r.clients,
    note: r.note,
    suppressed_at: iso(r.suppressedAt),
    released_at: iso(r.releasedAt),
    released_by_name: r.releasedByName,
    release_reason: r.releaseReason,
  };
}

const select = (db: Db, now: Date) =>
  db.select(fieldsAt(now)).from(emailSuppressions).leftJoin(users, eq(users.id, emailSuppressions.releasedBy));

/** One keyset page of addresses, last seen first by default; the 30 days end at `now`. */
export async function listPage(
  db: Db,
  q: PageQuery,
  limit: number,
  now: Date,
): Promise<{ rows: EmailSuppression[]; nextCursor: string | null }> {
  const spec = { keys: SORTS[q.sort ?? 'last_seen_at'], order: q.order ?? 'desc', where: filtersWhere(q), cursor: q.cursor, limit };
  const { page, nextCursor } = await keysetPage(spec, (p) =>
    db
      .select({ ...fieldsAt(now), ...p.fields })
      .from(emailSuppressions)
      .leftJoin(users, eq(users.id, emailSuppressions.releasedBy))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  return { rows: page.map(toRecord), nextCursor };
}

export function countAddresses(db: Db, q: Filters) {
  return countMatching(db, sql`from ${emailSuppressions}${whereClause(filtersWhere(q))}`);
}

/** One address as the list shows it, or undefined. */
export async function findAddress(db: Db, email: string, now: Date): Promise<EmailSuppression | undefined> {
  const [row] = await select(db, now).where(eq(emailSuppressions.email, email)).limit(1);
  return row ? toRecord(row) : undefined;
}
