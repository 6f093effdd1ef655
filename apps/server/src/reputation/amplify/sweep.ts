import { AMPLIFICATION_WINDOW_DAYS } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';

/** Invitations closed per statement: the loop runs again at once while there is work. */
export const SWEEP_BATCH = 1000;
const DAY_MS = 86_400_000;

/**
 * Open invitations (invited, clicked) AMPLIFICATION_WINDOW_DAYS after `invited_at` without a match
 * become `not_posted` (issue 21, item 2): the oldest first, a batch at a time, read from the partial
 * index amplifications_open_age_idx. `skip locked` lets two workers sweep side by side. Answers how
 * many were closed.
 */
export async function sweepNotPosted(db: Db, now: Date, batch = SWEEP_BATCH): Promise<number> {
  const cutoff = new Date(now.getTime() - AMPLIFICATION_WINDOW_DAYS * DAY_MS).toISOString();
  const rows = rowsOf(
    await db.execute(sql`
      update amplifications a
         set status = 'not_posted', updated_at = ${now.toISOString()}::timestamptz
       where a.id in (
         select id from amplifications
          where status in ('invited', 'clicked') and invited_at <= ${cutoff}::timestamptz
          order by invited_at
          limit ${batch}
          for update skip locked)
         and a.status in ('invited', 'clicked')
      returning a.id`),
  );
  return rows.length;
}
