import type { SmsOptOut, SmsOptOutListQuery } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, smsOptOuts } from '../../db/schema/index.ts';
import { containsPattern, type SortSpec } from '../../kit/keyset.ts';
import { keysetPage, whereClause } from '../../kit/keyset-page.ts';
import { countMatching } from '../../kit/totals.ts';

type Sort = NonNullable<SmsOptOutListQuery['sort']>;
export type PageQuery = {
  q?: string | undefined;
  sort?: Sort | undefined;
  order?: 'asc' | 'desc' | undefined;
  cursor?: string | undefined;
};

const byPhone: SortSpec = [{ expr: sql`${smsOptOuts.phone}`, cast: 'text' }];
/** Newest first walks the (created_at, phone) index (schema/sms.ts); the phone is the key. */
const SORTS: Record<Sort, SortSpec> = {
  created_at: [{ expr: sql`${smsOptOuts.createdAt}`, cast: 'timestamptz' }, ...byPhone],
  phone: byPhone,
};

/** The search matches the phone as typed, or its digits alone ("555 0142" finds +15555550142). */
function filtersWhere(q: Pick<PageQuery, 'q'>): SQL | undefined {
  const text = q.q?.trim();
  if (!text) return undefined;
  const digits = text.replace(/\D/g, '');
  const typed = sql`${smsOptOuts.phone} ilike ${containsPattern(text)}`;
  return digits === '' ? typed : sql`(${typed} or ${smsOptOuts.phone} like ${containsPattern(digits)})`;
}

const fields = {
  phone: smsOptOuts.phone,
  keyword: smsOptOuts.keyword,
  source: smsOptOuts.source,
  clientId: smsOptOuts.clientId,
  clientName: clients.name,
  createdAt: smsOptOuts.createdAt,
};

type Row = { phone: string; keyword: string; source: string; clientId: number | null; clientName: string | null; createdAt: Date };

function toRecord(r: Row): SmsOptOut {
  return {
    id: r.phone,
    phone: r.phone,
    keyword: r.keyword,
    source: r.source,
    client_id: r.clientId,
    client_name: r.clientName,
    created_at: r.createdAt.toISOString(),
  };
}

/** One keyset page of opted-out phones, newest first by default. */
export async function listPage(db: Db, q: PageQuery, limit: number): Promise<{ rows: SmsOptOut[]; nextCursor: string | null }> {
  const spec = { keys: SORTS[q.sort ?? 'created_at'], order: q.order ?? 'desc', where: filtersWhere(q), cursor: q.cursor, limit };
  const { page, nextCursor } = await keysetPage(spec, (p) =>
    db
      .select({ ...fields, ...p.fields })
      .from(smsOptOuts)
      .leftJoin(clients, eq(clients.id, smsOptOuts.clientId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  return { rows: page.map(toRecord), nextCursor };
}

export function countOptOuts(db: Db, q: Pick<PageQuery, 'q'>) {
  return countMatching(db, sql`from ${smsOptOuts}${whereClause(filtersWhere(q))}`);
}
