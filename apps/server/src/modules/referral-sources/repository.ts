import type { ReferralSource, ReferralSourceCreate, ReferralSourceListQuery } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, referralSources } from '../../db/schema/index.ts';
import {
  afterCursor,
  allOf,
  containsPattern,
  cursorFields,
  decodeCursor,
  inList,
  orderBy,
  pageOf,
  type SortSpec,
} from '../../kit/keyset.ts';
import type { ResourceStore } from '../../kit/resource-routes.ts';
import { countMatching } from '../../kit/totals.ts';

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

const byId = { expr: sql`${referralSources.id}`, cast: 'integer' } as const;
const SORTS: Record<NonNullable<ReferralSourceListQuery['sort']>, SortSpec> = {
  name: [{ expr: sql`lower(${referralSources.name})`, cast: 'text' }, byId],
  code: [{ expr: sql`lower(${referralSources.code})`, cast: 'text' }, byId],
  type: [{ expr: sql`${referralSources.type}`, cast: 'text' }, byId],
  status: [{ expr: sql`${referralSources.status}`, cast: 'text' }, byId],
};

type Filters = Omit<ReferralSourceListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

/** The current client's own sources and the global defaults (or one of the two, by `scope`). */
function sourceWhere(q: Filters, clientId: number): SQL | undefined {
  const like = containsPattern(q.q);
  const own = sql`${referralSources.clientId} = ${clientId}`;
  const global = sql`${referralSources.clientId} is null`;
  return allOf([
    q.scope === 'client' ? own : q.scope === 'global' ? global : sql`(${own} or ${global})`,
    inList(sql`${referralSources.status}`, q.status),
    inList(sql`${referralSources.type}`, q.type),
    like ? sql`(${referralSources.name} ilike ${like} or ${referralSources.code} ilike ${like})` : undefined,
  ]);
}

export async function listReferralSources(
  db: Db,
  q: Filters & { sort?: ReferralSourceListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  clientId: number,
  limit: number,
): Promise<{ rows: ReferralSource[]; nextCursor: string | null }> {
  const keys = SORTS[q.sort ?? 'name'];
  const order = q.order ?? 'asc';
  const where = allOf([sourceWhere(q, clientId), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const rows = await db
    .select({ source: referralSources, clientName: clients.name, ...cursorFields(keys) })
    .from(referralSources)
    .leftJoin(clients, eq(clients.id, referralSources.clientId))
    .where(where)
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return { rows: page.map((r) => toReferralSource(r.source, r.clientName)), nextCursor };
}

export async function countReferralSources(db: Db, q: Filters, clientId: number) {
  const where = sourceWhere(q, clientId);
  return countMatching(db, sql`from ${referralSources}${where ? sql` where ${where}` : sql``}`);
}

export function referralSourceValues(body: Partial<ReferralSourceCreate>): Partial<typeof referralSources.$inferInsert> {
  const v: Partial<typeof referralSources.$inferInsert> = {};
  if (body.name !== undefined) v.name = (body.name ?? '').trim();
  if (body.code !== undefined) v.code = (body.code ?? '').trim();
  if (body.type !== undefined) v.type = body.type ?? 'other';
  return v;
}

/** How referral sources read, write and page, for the kit's resource routes. */
export const referralSourceStore: ResourceStore<ReferralSource, ReferralSourceRow, ReferralSourceCreate, ReferralSourceListQuery> = {
  table: referralSources,
  toRecord: toReferralSource,
  values: referralSourceValues,
  list: listReferralSources,
  count: countReferralSources,
  isGlobal: (body) => body.global === true,
  uniqueColumn: referralSources.code,
};
