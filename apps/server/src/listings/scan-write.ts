import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { listings } from '../db/schema/index.ts';
import type { ListingRow, Plan } from './scan-plan.ts';

/**
 * The columns a scan rewrites, with their SQL types: an update sets each from its planned row.
 * `is_mine` and `note` are never written by a scan (only people set them); the others a scan
 * plans from the locked row, so the ones it does not change are written back as they were.
 */
const UPDATED = [
  ['listingUrl', 'listing_url', 'text'],
  ['foundName', 'found_name', 'text'],
  ['foundAddress', 'found_address', 'text'],
  ['foundPhone', 'found_phone', 'text'],
  ['foundWebsite', 'found_website', 'text'],
  ['foundHours', 'found_hours', 'jsonb'],
  ['foundAt', 'found_at', 'timestamptz'],
  ['nameMatch', 'name_match', 'boolean'],
  ['addressMatch', 'address_match', 'boolean'],
  ['phoneMatch', 'phone_match', 'boolean'],
  ['websiteMatch', 'website_match', 'boolean'],
  ['hoursMatch', 'hours_match', 'boolean'],
  ['score', 'score', 'integer'],
  ['status', 'status', 'text'],
  ['duplicateOfId', 'duplicate_of_id', 'integer'],
  ['lastCheckedAt', 'last_checked_at', 'timestamptz'],
  ['updatedAt', 'updated_at', 'timestamptz'],
] as const satisfies readonly (readonly [keyof ListingRow, string, string])[];

const SET = sql.raw(UPDATED.map(([, column]) => `${column} = v.${column}`).join(', '));
const RECORD = sql.raw(['id integer', ...UPDATED.map(([, column, type]) => `${column} ${type}`)].join(', '));

/** Every update of a location in one statement: `update … from jsonb_to_recordset(…)`, one JSON parameter. */
async function updateAll(tx: Db, rows: ListingRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((r) => Object.fromEntries([['id', r.id], ...UPDATED.map(([key, column]) => [column, r[key]])]));
  await tx.execute(
    sql`update ${listings} set ${SET} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(${RECORD}) where ${listings.id} = v.id`,
  );
}

/**
 * A location's planned writes, set-based: one delete, one update, one insert of listings and one
 * of their new duplicates (which need the listings' ids), each only when it has rows.
 */
export async function applyPlan(tx: Db, plan: Plan): Promise<void> {
  if (plan.deletes.length > 0) await tx.delete(listings).where(inArray(listings.id, plan.deletes));
  await updateAll(tx, plan.updates);
  // One scan per client at a time (modules/listings/start-scan.ts), and the rows were read first: a
  // conflict here is a row another writer made meanwhile, left as it is.
  const inserted =
    plan.inserts.length === 0
      ? []
      : await tx
          .insert(listings)
          .values(plan.inserts)
          .onConflictDoNothing()
          .returning({ id: listings.id, externalId: listings.externalId });
  const idOf = new Map(inserted.map((r) => [r.externalId, r.id]));
  const duplicates = plan.duplicates.map(({ row, of }) => ({
    ...row,
    duplicateOfId: typeof of === 'number' ? of : (idOf.get(of) ?? null),
  }));
  if (duplicates.length > 0) await tx.insert(listings).values(duplicates).onConflictDoNothing();
}
