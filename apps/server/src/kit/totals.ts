import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { buildQuery, namedRows } from '../db/prepared.ts';

/** Above this many matching rows a list reports the planner's estimate instead of counting. */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * When a table's statistics count as stale: autovacuum's own default rule (ANALYZE once more than
 * 50 rows + 10% of the table changed since the last one), so we never analyze more eagerly than
 * a PostgreSQL server with default settings would.
 */
const STALE_ROWS = 50;
const STALE_FRACTION = 0.1;
/** A process refreshes one table's statistics at most this often, whatever the requests say. */
export const ANALYZE_INTERVAL_MS = 60_000;

/**
 * How long an estimate is answered again for the same query without asking the database. It is
 * an estimate already (autovacuum lets statistics lag by 10% of a table), while producing it
 * counts 10,001 rows and plans the query: most of a big list's database work, repeated for every
 * page and every refresh. Exact totals (up to the limit) are never reused.
 */
export const ESTIMATE_TTL_MS = 5_000;
/** Estimates kept per database handle; the oldest go first. */
const MAX_ESTIMATES = 500;

const estimates = new WeakMap<Db, Map<string, { total: number; until: number }>>();

type PlanNode = { 'Plan Rows'?: number; 'Relation Name'?: string; Plans?: PlanNode[] };

/** The planner's row estimate for `select 1 <fromWhere>`, and the tables it reads. */
async function planEstimate(db: Db, fromWhere: SQL): Promise<{ rows: number; tables: string[] }> {
  const result = rowsOf(await db.execute(sql`explain (format json) select 1 ${fromWhere}`));
  const json = result[0]?.['QUERY PLAN'];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan?: PlanNode }[] | undefined;
  const tables = new Set<string>();
  const walk = (node: PlanNode | undefined) => {
    if (!node) return;
    if (node['Relation Name']) tables.add(node['Relation Name']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(parsed?.[0]?.Plan);
  return { rows: Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0), tables: [...tables] };
}

/** Per database handle (tests open many in one process): when each table was last refreshed here, and refreshes under way. */
const refreshes = new WeakMap<Db, { at: Map<string, number>; running: Map<string, Promise<boolean>> }>();

/**
 * ANALYZEs those of `tables` whose statistics are missing or stale; true when any was refreshed.
 *
 * Why a read does this: without statistics the planner guesses, and its guesses for a filter are
 * small (0.5% of the table per `=`), so a list of 20,000 rows read "about 10,001". A PostgreSQL
 * server's autovacuum analyzes a changed table within a minute or so, but the embedded database
 * (PGlite) has no autovacuum at all: left alone, its statistics never exist. Analyzing samples a
 * bounded number of rows (~30,000), so it costs tens of milliseconds even on a big table, and it
 * runs only when an estimate contradicts the rows just counted, the table is stale by
 * autovacuum's rule, and this process has not analyzed it in the last minute. Failures (a read-only
 * replica, a table we do not own) leave the estimate as it was.
 */
async function refreshStatistics(db: Db, tables: string[]): Promise<boolean> {
  if (tables.length === 0) return false;
  let state = refreshes.get(db);
  if (!state) {
    state = { at: new Map(), running: new Map() };
    refreshes.set(db, state);
  }
  const { at, running } = state;
  const now = Date.now();
  const due = tables.filter((t) => running.has(t) || now - (at.get(t) ?? Number.NEGATIVE_INFINITY) >= ANALYZE_INTERVAL_MS);
  if (due.length === 0) return false;
  const results = await Promise.all(
    due.map((table) => {
      const pending = running.get(table);
      if (pending) return pending;
      at.set(table, now);
      const refresh = analyzeIfStale(db, table).finally(() => running.delete(table));
      running.set(table, refresh);
      return refresh;
    }),
  );
  return results.some(Boolean);
}

async function analyzeIfStale(db: Db, table: string): Promise<boolean> {
  try {
    const [row] = rowsOf(
      await db.execute(sql`
        select c.reltuples::float8 as tuples, coalesce(s.n_mod_since_analyze, 0)::float8 as changed
        from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
        where c.oid = to_regclass(quote_ident(${table}::text))`),
    );
    if (!row) return false;
    const tuples = Number(row.tuples);
    // reltuples is -1 until the table is first analyzed (or vacuumed).
    const stale = tuples < 0 || Number(row.changed) > STALE_ROWS + STALE_FRACTION * tuples;
    if (!stale) return false;
    await db.execute(sql`analyze ${sql.identifier(table)}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Counts matching rows exactly up to EXACT_COUNT_LIMIT (a bounded scan), and past that returns
 * PostgreSQL's row estimate for the same query, flagged as an estimate — an estimate of the real
 * count, e.g. `{ total: 20070, totalIsEstimate: true }` for 20,070 rows, not the 10,001 counted —
 * and answers it again for ESTIMATE_TTL_MS. `fromWhere` is the query's `from … where …` part.
 */
export async function countMatching(db: Db, fromWhere: SQL): Promise<{ total: number; totalIsEstimate: boolean }> {
  // Built once: the count statement below is the same text around it, so it keys the cache too.
  const count = buildQuery(sql`select count(*)::int as n from (select 1 ${fromWhere} limit ${EXACT_COUNT_LIMIT + 1}) s`);
  const key = `${count.sql}\u0000${JSON.stringify(count.params)}`;
  let cache = estimates.get(db);
  if (!cache) {
    cache = new Map();
    estimates.set(db, cache);
  }
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && cached.until > now) return { total: cached.total, totalIsEstimate: true };

  const capped = await namedRows(db, count);
  const exact = Number(capped[0]?.n ?? 0);
  if (exact <= EXACT_COUNT_LIMIT) {
    cache.delete(key);
    return { total: exact, totalIsEstimate: false };
  }
  let estimate = await planEstimate(db, fromWhere);
  // Fewer rows than we have just counted: the planner is working from missing or old statistics.
  if (estimate.rows < exact && (await refreshStatistics(db, estimate.tables))) estimate = await planEstimate(db, fromWhere);
  const total = Math.max(estimate.rows, exact);
  cache.delete(key);
  cache.set(key, { total, until: now + ESTIMATE_TTL_MS });
  for (const oldest of cache.keys()) {
    if (cache.size <= MAX_ESTIMATES) break;
    cache.delete(oldest);
  }
  return { total, totalIsEstimate: true };
}
