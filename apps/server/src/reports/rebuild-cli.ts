import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase, rowsOf } from '../db/client.ts';
import { parseRebuildArgs } from './rebuild-args.ts';
import { rebuildReportCounts } from './rollups/compaction.ts';

/**
 * `npm run reports:rebuild -- --from 2026-01-01 --to 2026-03-31 [--client 3]`: rebuilds the
 * reports' rollup (report_day_counts) from the raw tables for those days (each client's own) of
 * one client or all, against the database the configuration names (docs/decisions/065). Writers
 * of those clients wait while it runs. The embedded database is one process's: stop the server first.
 */
async function main() {
  const args = parseRebuildArgs(process.argv.slice(2));
  if ('error' in args) {
    console.error(args.error);
    process.exit(2);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const database = await openDatabase(config.database, (err) => console.error('database pool error', err));
  try {
    await database.migrate();
    if (args.clientId !== null) {
      const [found] = rowsOf(await database.db.execute(sql`select id from clients where id = ${args.clientId}`));
      if (!found) {
        console.error(`No client has the id ${args.clientId}.`);
        process.exitCode = 1;
        return;
      }
    }
    const started = Date.now();
    await rebuildReportCounts(database.db, args);
    const who = args.clientId === null ? 'every client' : `client ${args.clientId}`;
    console.log(`Rebuilt the report rollup of ${who} from ${args.from} to ${args.to} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
