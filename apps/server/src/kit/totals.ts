import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';

/** Above this many matching rows a list reports the planner's estimate instead of counting. */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * Counts matching rows exactly up to EXACT_COUNT_LIMIT (a bounded scan), and past that
 * returns PostgreSQL's row estimate for the same query, flagged as an estimate.
 * `fromWhere` is the query's `from … where …` part.
 */
export async function countMatching(db: Db, fromWhere: SQL): Promise<{ total: number; totalIsEstimate: boolean }> {
  const capped = rowsOf(await db.execute(sql`select count(*)::int as n from (select 1 ${fromWhere} limit ${EXACT_COUNT_LIMIT + 1}) s`));
  const exact = Number(capped[0]?.n ?? 0);
  if (exact <= EXACT_COUNT_LIMIT) return { total: exact, totalIsEstimate: false };
  const plan = rowsOf(await db.execute(sql`explain (format json) select 1 ${fromWhere}`));
  const json = plan[0]?.['QUERY PLAN'];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  const estimate = Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? exact);
  return { total: Math.max(estimate, exact), totalIsEstimate: true };
}
