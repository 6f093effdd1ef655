import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import type { WorkerLoop } from '../queue.ts';
import { processRun } from './process.ts';
import { failRun, RUN_LEASE_MS, type RunDeps } from './run-store.ts';

/** Batches a worker admits of one run before the other loops (the send engine) get their turn. */
const BATCHES_PER_TURN = 8;

/**
 * What a stopped worker's arriving rows say on Survey Manager Logs, with how to send them again:
 * an SFTP file was not recorded taken, so the next pull takes it again; an upload's sender, an API
 * caller and whoever re-ran failed rows never had an answer.
 */
function cutOff(source: string, rerunOf: unknown): string {
  const what =
    source === 'sftp'
      ? 'The pull stopped before the file was stored whole'
      : source === 'csv_upload'
        ? 'The file stopped arriving before it was stored whole'
        : 'The rows stopped arriving before they were stored whole';
  const again =
    source === 'sftp'
      ? 'The file is taken again at the next pull.'
      : source === 'api'
        ? 'Send the call again.'
        : source === 'rerun'
          ? `Re-run the failed rows of run ${String(rerunOf)} again.`
          : 'Upload it again.';
  return `${what} (the server or the connection stopped); none of its rows was admitted. ${again}`;
}

/**
 * The feed-run loop, on every worker (docs/decisions/031-feed-runs-resume.md): each turn it fails
 * the runs whose file was still arriving when their holder stopped (lease lapsed), then takes one
 * received run that nobody holds (a new upload or re-run, or one whose worker stopped part-way) and
 * admits up to BATCHES_PER_TURN of its batches. The lease is the run's own, renewed every batch,
 * so several workers share runs without taking the same one, and a run resumes exactly after its
 * last committed batch.
 */
export function feedRunLoop(deps: RunDeps): WorkerLoop {
  const holder = `feed-runs:${randomUUID()}`;
  return {
    name: 'feed-runs',
    async run(now) {
      const at = now.toISOString();
      const abandoned = rowsOf(
        await deps.db.execute(sql`
          select r.id, r.source, r.rerun_of, r.data_feed_id from data_feed_runs r
          where r.status = 'running' and r.received_at is null and r.locked_until < ${at}::timestamptz
          order by r.id limit 20`),
      );
      for (const r of abandoned) {
        await failRun(deps, Number(r.id), cutOff(String(r.source), r.rerun_of), { lease: null, feedId: Number(r.data_feed_id) });
      }
      const until = new Date(now.getTime() + RUN_LEASE_MS).toISOString();
      const [claimed] = rowsOf(
        await deps.db.execute(sql`
          update data_feed_runs set locked_by = ${holder}, locked_until = ${until}::timestamptz
          where id = (
            select id from data_feed_runs
            where status = 'running' and received_at is not null
              and (locked_until is null or locked_until < ${at}::timestamptz or locked_by = ${holder})
            order by id limit 1
            for update skip locked)
          returning id`),
      );
      if (!claimed) return abandoned.length;
      await processRun(deps, Number(claimed.id), { holder }, { maxBatches: BATCHES_PER_TURN });
      return abandoned.length + 1;
    },
  };
}
