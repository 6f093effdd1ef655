import { type ReferralSource, type ReferralSourceCreate, type ReferralSourceListQuery, referralSourceResource } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { referralSources } from '../../db/schema/index.ts';
import { tableStore } from '../../kit/table-store.ts';

export type ReferralSourceRow = typeof referralSources.$inferSelect;

export function toReferralSource(row: ReferralSourceRow, clientName: string | null = null): ReferralSource {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: row.clientId === null ? 'All clients' : clientName,
    name: row.name,
    code: row.code,
    type: row.type as ReferralSource['type'],
    status: row.status as ReferralSource['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The current client's own sources and the global defaults (or one of the two, by `scope`). */
export const referralSourceStore = tableStore<ReferralSource, ReferralSourceRow, ReferralSourceCreate, ReferralSourceListQuery>({
  table: referralSources,
  def: referralSourceResource,
  toRecord: toReferralSource,
  sorts: {
    name: { expr: sql`lower(${referralSources.name})`, cast: 'text' },
    code: { expr: sql`lower(${referralSources.code})`, cast: 'text' },
    type: { expr: sql`${referralSources.type}`, cast: 'text' },
    status: { expr: sql`${referralSources.status}`, cast: 'text' },
  },
  search: [referralSources.name, referralSources.code],
  filterColumns: { status: referralSources.status, type: referralSources.type },
  isGlobal: (body) => body.global === true,
  uniqueColumn: referralSources.code,
});
