import type { MergeHistoryQuery, MergeRecord } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, personnel, personnelMerges, users } from '../../db/schema/index.ts';
import { afterCursor, allOf, cursorFields, decodeCursor, orderBy, pageOf, type SortSpec } from '../../kit/keyset.ts';
import type { People } from './repository.ts';

/** The SQL of each sortable column of the history's definition (`mergeHistoryResource`). */
const HISTORY_SORTS: Record<NonNullable<MergeHistoryQuery['sort']>, SortSpec> = {
  performed_at: [
    { expr: sql`${personnelMerges.performedAt}`, cast: 'timestamptz' },
    { expr: sql`${personnelMerges.id}`, cast: 'integer' },
  ],
};

export async function listHistory(
  db: Db,
  people: People,
  clientId: number,
  q: Pick<MergeHistoryQuery, 'sort' | 'order' | 'cursor'>,
  limit: number,
): Promise<{ rows: MergeRecord[]; nextCursor: string | null }> {
  const keys = HISTORY_SORTS[q.sort ?? 'performed_at'];
  const order = q.order ?? 'desc';
  const rows = await db
    .select({ merge: personnelMerges, by: users.name, survivor: personnel, timezone: clients.timezone, ...cursorFields(keys) })
    .from(personnelMerges)
    .innerJoin(clients, eq(clients.id, personnelMerges.clientId))
    .innerJoin(users, eq(users.id, personnelMerges.performedBy))
    .innerJoin(personnel, eq(personnel.id, personnelMerges.survivorId))
    .where(allOf([eq(personnelMerges.clientId, clientId), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]))
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return {
    rows: page.map((r) => {
      const resolution = r.merge.fieldResolution as { merged_names?: string[]; aliases_added?: string[] };
      return {
        id: r.merge.id,
        performed_at: r.merge.performedAt.toISOString(),
        client_timezone: r.timezone,
        performed_by: r.by,
        survivor_id: r.merge.survivorId,
        survivor_name: people.toPerson(r.survivor).name,
        merged_ids: r.merge.mergedIds,
        merged_names: resolution.merged_names ?? [],
        moved_counts: r.merge.movedCounts,
        aliases_added: resolution.aliases_added ?? [],
      };
    }),
    nextCursor,
  };
}

export async function countHistory(db: Db, clientId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(personnelMerges).where(eq(personnelMerges.clientId, clientId));
  return Number(row?.n ?? 0);
}
