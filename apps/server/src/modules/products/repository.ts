import type { Product, ProductCreate, ProductListQuery } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, products } from '../../db/schema/index.ts';
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

export type ProductRow = typeof products.$inferSelect;

export function toProduct(row: ProductRow, clientName: string | null = null): Product {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: clientName,
    name: row.name,
    code: row.code,
    category: row.category,
    description: row.description,
    status: row.status as Product['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const byId = { expr: sql`${products.id}`, cast: 'integer' } as const;
const SORTS: Record<NonNullable<ProductListQuery['sort']>, SortSpec> = {
  name: [{ expr: sql`lower(${products.name})`, cast: 'text' }, byId],
  code: [{ expr: sql`lower(${products.code})`, cast: 'text' }, byId],
  category: [{ expr: sql`coalesce(lower(${products.category}), '')`, cast: 'text' }, byId],
  status: [{ expr: sql`${products.status}`, cast: 'text' }, byId],
};

type Filters = Omit<ProductListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

function productWhere(q: Filters, clientId: number): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    sql`${products.clientId} = ${clientId}`,
    inList(sql`${products.status}`, q.status),
    inList(sql`${products.category}`, q.category),
    like ? sql`(${products.name} ilike ${like} or ${products.code} ilike ${like})` : undefined,
  ]);
}

export async function listProducts(
  db: Db,
  q: Filters & { sort?: ProductListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  clientId: number,
  limit: number,
): Promise<{ rows: Product[]; nextCursor: string | null }> {
  const keys = SORTS[q.sort ?? 'name'];
  const order = q.order ?? 'asc';
  const where = allOf([productWhere(q, clientId), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const rows = await db
    .select({ product: products, clientName: clients.name, ...cursorFields(keys) })
    .from(products)
    .innerJoin(clients, eq(clients.id, products.clientId))
    .where(where)
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return { rows: page.map((r) => toProduct(r.product, r.clientName)), nextCursor };
}

export async function countProducts(db: Db, q: Filters, clientId: number) {
  const where = productWhere(q, clientId);
  return countMatching(db, sql`from ${products}${where ? sql` where ${where}` : sql``}`);
}

export function productValues(body: Partial<ProductCreate>): Partial<typeof products.$inferInsert> {
  const v: Partial<typeof products.$inferInsert> = {};
  const opt = (x: string | null | undefined) => (x === undefined ? undefined : x === null || x.trim() === '' ? null : x.trim());
  if (body.name !== undefined) v.name = (body.name ?? '').trim();
  if (body.code !== undefined) v.code = (body.code ?? '').trim();
  if (body.category !== undefined) v.category = opt(body.category);
  if (body.description !== undefined) v.description = opt(body.description);
  return v;
}

/** How products read, write and page, for the kit's resource routes. */
export const productStore: ResourceStore<Product, ProductRow, ProductCreate, ProductListQuery> = {
  table: products,
  toRecord: toProduct,
  values: productValues,
  list: listProducts,
  count: countProducts,
  uniqueColumn: products.code,
  optionColumns: { category: products.category },
};
