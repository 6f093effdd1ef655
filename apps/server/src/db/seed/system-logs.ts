import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';

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
        (array['info','info','info','info','info','debug','debug','warn','warn','error'])[1 + (i * 31 % 10)],
        a.service,
        a.action,
        a.verb || ' ' || a.entity || ' #' || (1 + i * 13 % 5000),
        case when a.service in ('api', 'auth') then (${users}::int[])[1 + (i * 17 % ${opts.userIds.length})] end,
        case when i % 9 <> 0 then (${clientIds}::int[])[1 + (i * 11 % ${opts.clientIds.length})] end,
        a.entity,
        (1 + i * 13 % 5000)::text,
        md5(i::text),
        '10.' || (i % 256) || '.' || (i * 7 % 256) || '.' || (i * 13 % 256)
      from generate_series(${start}::int, ${end}::int) as g(i)
      cross join lateral (
        select * from (values
          (0, 'api', 'location.update', 'Updated location', 'location'),
          (1, 'api', 'personnel.create', 'Created personnel', 'personnel'),
          (2, 'auth', 'auth.login', 'Signed in as user', 'user'),
          (3, 'sender', 'survey.send', 'Sent survey invitation', 'survey_processing_item'),
          (4, 'feed-worker', 'feed.run', 'Imported data feed run', 'data_feed_run'),
          (5, 'reputation-sync', 'review.fetch', 'Fetched reviews for location', 'location'),
          (6, 'listings-scan', 'listing.scan', 'Scanned listing', 'listing'),
          (7, 'reports', 'report.build', 'Built performance report', 'report'),
          (8, 'api', 'client.update', 'Updated client', 'client'),
          (9, 'sender', 'sms.send', 'Sent SMS to recipient for item', 'survey_processing_item')
        ) as v(k, service, action, verb, entity)
        where v.k = (i * 7 % 10)
      ) a
    `);
  }
}
