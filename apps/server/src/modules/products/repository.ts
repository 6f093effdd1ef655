import { type Product, type ProductCreate, type ProductListQuery, productResource } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { products } from '../../db/schema/index.ts';
import { tableStore } from '../../kit/table-store.ts';

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

/** How products read, write and page, for the kit's resource routes. */
export const productStore = tableStore<Product, ProductRow, ProductCreate, ProductListQuery>({
  table: products,
  def: productResource,
  toRecord: toProduct,
  sorts: {
    name: { expr: sql`lower(${products.name})`, cast: 'text' },
    code: { expr: sql`lower(${products.code})`, cast: 'text' },
    category: { expr: sql`coalesce(lower(${products.category}), '')`, cast: 'text' },
    status: { expr: sql`${products.status}`, cast: 'text' },
  },
  search: [products.name, products.code],
  filterColumns: { status: products.status, category: products.category },
  uniqueColumn: products.code,
  optionColumns: { category: products.category },
});
