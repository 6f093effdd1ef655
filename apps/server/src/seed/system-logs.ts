import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Deterministic system-log rows, generated inside the database with generate_series so a
 * million rows take seconds on PGlite and PostgreSQL alike. Row i always gets the same level,
 * service, action, actor and client; times spread over `days` before `anchor`.
 * Used by the demo data and by bench/logs.
 */
export async function generateSystemLogs(
  db: Db,
  opts: { count: number; anchor: Date; days: number; userIds: number[]; clientIds: number[]; batch?: number },
): Promise<void> {
  const batch = opts.batch ?? 100_000;
  const users = `{${opts.userIds.join(',')}}`;
  const clientIds = `{${opts.clientIds.join(',')}}`;
  const span = opts.days * 86_400;
  for (let start = 1; start <= opts.count; start += batch) {
    const end = Math.min(opts.count, start + batch - 1);
    await db.execute(sql`
      insert into system_logs (at, level, service, action, message, actor_user_id, client_id, entity_type, entity_id, request_id, ip)
      select
        ${opts.anchor.toISOString()}::timestamptz - make_interval(secs => (i::bigint * 7919 % ${span}) + (i % 1000) / 1000.0),
        l.level,
        a.service,
        a.action,
        -- The message says what the level says: a warning or an error never reads as a success.
        (case l.level when 'warn' then a.warned when 'error' then a.failed else a.done end) || ' #' || (1 + i * 13 % 5000),
        case when a.service in ('api', 'auth') then (${users}::int[])[1 + (i * 17 % ${opts.userIds.length})] end,
        case when i % 9 <> 0 then (${clientIds}::int[])[1 + (i * 11 % ${opts.clientIds.length})] end,
        a.entity,
        (1 + i * 13 % 5000)::text,
        md5(i::text),
        '10.' || (i % 256) || '.' || (i * 7 % 256) || '.' || (i * 13 % 256)
      from generate_series(${start}::int, ${end}::int) as g(i)
      cross join lateral (
        select (array['info','info','info','info','info','debug','debug','warn','warn','error'])[1 + (i * 31 % 10)] as level
      ) l
      cross join lateral (
        select * from (values
          (0, 'api', 'location.update', 'location', 'Updated location', 'Location update took over 2 s: location', 'Could not update location'),
          (1, 'api', 'personnel.create', 'personnel', 'Created person', 'Created a possible duplicate: person', 'Could not create person'),
          (2, 'auth', 'auth.login', 'user', 'Signed in: user', 'Sign-in after two failed attempts: user', 'Sign-in refused: user'),
          (3, 'sender', 'survey.send', 'survey_processing_item', 'Sent survey invitation', 'Survey invitation deferred by the daily cap', 'Survey invitation failed to send'),
          (4, 'feed-worker', 'feed.run', 'data_feed_run', 'Imported data feed run', 'Data feed run skipped invalid rows', 'Data feed run failed'),
          (5, 'reputation-sync', 'review.fetch', 'location', 'Fetched reviews for location', 'Review fetch rate-limited, retrying for location', 'Could not fetch reviews for location'),
          (6, 'listings-scan', 'listing.scan', 'listing', 'Scanned listing', 'Listing scan found mismatched details', 'Listing scan failed'),
          (7, 'reports', 'report.build', 'report', 'Built performance report', 'Performance report built with missing data', 'Could not build performance report'),
          (8, 'api', 'client.update', 'client', 'Updated client', 'Updated client with a stale version, retried', 'Could not update client'),
          (9, 'sender', 'sms.send', 'survey_processing_item', 'Sent SMS invitation', 'SMS invitation deferred by quiet hours', 'SMS invitation failed to send')
        ) as v(k, service, action, entity, done, warned, failed)
        where v.k = (i * 7 % 10)
      ) a
    `);
  }
}
