import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../apps/server/src/db/client.ts';

/**
 * BENCH_REPORT_TRIGGERS=off: the report rollup's triggers (migration 0039, decision 065) disabled in
 * a bench's own database, so bench/pipeline measures ingest and send without their upkeep and the
 * same bench with them enabled shows what they cost (bench/README.md).
 */
export async function reportTriggersPerEnv(db: Db): Promise<'on' | 'off'> {
  if (process.env.BENCH_REPORT_TRIGGERS !== 'off') return 'on';
  const triggers = rowsOf(
    await db.execute(
      sql`select tgrelid::regclass::text as tab, tgname from pg_trigger where tgname like 'report_counts_%' and not tgisinternal`,
    ),
  );
  for (const t of triggers) await db.execute(sql.raw(`alter table ${String(t.tab)} disable trigger ${String(t.tgname)}`));
  return 'off';
}
