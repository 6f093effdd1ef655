import type { FeedField, FeedTemplateCodes } from '@admin/shared';
import { and, asc, eq, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { locations, personnel, products, referralSources } from '../../db/schema/index.ts';
import type { DataFeedRow } from '../../pipeline/ingest/run.ts';

/** The first code of a query's rows: current ones before archived, then by `order`. */
async function firstCode(
  db: Db,
  table: typeof locations | typeof personnel | typeof products | typeof referralSources,
  code: PgColumn,
  where: SQL | undefined,
  order: SQL[],
) {
  const [row] = await db
    .select({ code: sql<string | null>`${code}` })
    .from(table)
    .where(and(where, isNotNull(code), sql`trim(${code}) <> ''`))
    .orderBy(sql`${table.status} <> 'active'`, ...order)
    .limit(1);
  return row?.code ?? undefined;
}

/**
 * The client's own codes for the sample template's code columns (`feedTemplateCsv`), so its row
 * passes Validate on the feed: a store code when the location comes from a column, an employee
 * code, a product code and a referral source (the client's or a global one), each only when the
 * feed maps that field.
 */
export async function templateCodes(db: Db, feed: DataFeedRow): Promise<FeedTemplateCodes> {
  const mapped = (field: FeedField) => Boolean(feed.fieldMapping[field]?.trim());
  const codes: FeedTemplateCodes = {};
  const set = (key: keyof FeedTemplateCodes, value: string | undefined) => {
    if (value !== undefined) codes[key] = value.trim();
  };
  if (feed.locationMode === 'column' && mapped('location_code')) {
    set(
      'location_code',
      await firstCode(db, locations, locations.externalCode, eq(locations.clientId, feed.clientId), [asc(locations.locationname)]),
    );
  }
  if (mapped('personnel_code')) {
    set(
      'personnel_code',
      await firstCode(db, personnel, personnel.employeeCode, eq(personnel.clientId, feed.clientId), [asc(personnel.id)]),
    );
  }
  if (mapped('product_code')) {
    set('product_code', await firstCode(db, products, products.code, eq(products.clientId, feed.clientId), [asc(products.id)]));
  }
  if (mapped('referral_source')) {
    const own = or(eq(referralSources.clientId, feed.clientId), isNull(referralSources.clientId));
    set(
      'referral_source',
      await firstCode(db, referralSources, referralSources.code, own, [sql`${referralSources.clientId} is null`, asc(referralSources.id)]),
    );
  }
  return codes;
}
