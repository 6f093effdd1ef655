import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiRefusalSummaries, systemLogs } from '../../db/schema/index.ts';

/**
 * Ingest calls refused before a credential was established — no token, an unknown or unusable
 * one, a wrong webhook secret — are nobody's calls: they get no call-log row (they would push an
 * endpoint's real calls out of its recent calls) but a count in one summary per caller address and
 * window, shown by one System Logs row, as refused sign-ins are (modules/identity/throttle.ts,
 * recordRefusal). An address refused REFUSALS_PER_WINDOW times in a window is answered 429 for the
 * rest of it without any credential lookup, and its throttled calls are written at most once every
 * FLUSH_MS. The tallies live in this process's memory, like the endpoints' rate limit (ingest.ts):
 * several processes each allow the limit, which is enough for a guard against a flood.
 */

export const REFUSAL_WINDOW_MINUTES = 10;
const WINDOW_MS = REFUSAL_WINDOW_MINUTES * 60_000;
/** Calls whose credential is checked and refused before an address is throttled for the rest of its window. */
export const REFUSALS_PER_WINDOW = 60;
/** While an address is throttled, its count reaches the summary at most this often. */
const FLUSH_MS = 10_000;
/** Endpoint ids a summary lists; past it, `more_endpoints` says there were others. */
export const API_REFUSAL_MAX_ENDPOINTS = 20;
/** Addresses tallied before the past windows' tallies are dropped (and all of them, past twice that). */
const PRUNE_AT = 10_000;

type Tally = { windowStart: number; refused: number; throttled: number; endpoints: Set<string>; lastWrite: number };
export type RefusalKind = 'refused' | 'throttled';

export function refusalTracker(db: Db) {
  const tallies = new Map<string, Tally>();

  function tallyOf(ip: string, now: Date): Tally {
    const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
    const found = tallies.get(ip);
    if (found && found.windowStart === windowStart) return found;
    if (tallies.size > PRUNE_AT) {
      for (const [key, t] of tallies) if (t.windowStart < windowStart) tallies.delete(key);
      if (tallies.size > 2 * PRUNE_AT) tallies.clear();
    }
    const fresh: Tally = { windowStart, refused: 0, throttled: 0, endpoints: new Set(), lastWrite: 0 };
    tallies.set(ip, fresh);
    return fresh;
  }

  return {
    /** Null when the address's next call may have its credential checked, else the whole seconds to wait (Retry-After). */
    waitFor(ip: string, now: Date): number | null {
      // Read only: an address that was never refused gets no tally.
      const tally = tallies.get(ip);
      const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
      if (!tally || tally.windowStart !== windowStart || tally.refused < REFUSALS_PER_WINDOW) return null;
      return Math.max(1, Math.ceil((tally.windowStart + WINDOW_MS - now.getTime()) / 1000));
    },

    /** Counts a refused call; writes its address's summary unless the address is throttled and was written less than FLUSH_MS ago. */
    async record(ip: string, endpointId: string, kind: RefusalKind, now: Date, requestId: string): Promise<void> {
      const past = tallies.get(ip);
      const tally = tallyOf(ip, now);
      // Throttled calls of the address's past window not written yet go to that window's summary.
      if (past && past !== tally && past.throttled > 0) {
        const delta = { refused: 0, throttled: past.throttled, endpoints: [...past.endpoints] };
        past.throttled = 0;
        await writeSummary(db, { ip, windowStart: new Date(past.windowStart), now, requestId, ...delta });
      }
      if (kind === 'refused') tally.refused += 1;
      else tally.throttled += 1;
      tally.endpoints.add(endpointId);
      if (kind === 'throttled' && now.getTime() - tally.lastWrite < FLUSH_MS) return;
      const counts = { refused: kind === 'refused' ? 1 : 0, throttled: tally.throttled, endpoints: [...tally.endpoints] };
      tally.throttled = 0;
      tally.endpoints.clear();
      tally.lastWrite = now.getTime();
      await writeSummary(db, { ip, windowStart: new Date(tally.windowStart), now, requestId, ...counts });
    },
  };
}

type SummaryDelta = {
  ip: string;
  windowStart: Date;
  now: Date;
  requestId: string;
  refused: number;
  throttled: number;
  endpoints: string[];
};

/**
 * Adds to the address's summary of the window and shows the totals in its one System Logs row, in
 * one statement: the summary's primary key serialises parallel refusals from one address, so there
 * is exactly one summary (and one log row) per address and window whatever the races.
 */
async function writeSummary(db: Db, d: SummaryDelta): Promise<void> {
  const max = API_REFUSAL_MAX_ENDPOINTS;
  const listed = d.endpoints.slice(0, max);
  const endpoints = sql`array[${sql.join(
    listed.map((e) => sql`${e}::text`),
    sql`, `,
  )}]::text[]`;
  const at = d.now.toISOString();
  await db.execute(sql`
    with summary as (
      insert into ${apiRefusalSummaries} as s
        (ip, window_start, system_log_id, refused, throttled, endpoints, more_endpoints, first_at, last_at)
      values (${d.ip}, ${d.windowStart.toISOString()}::timestamptz, nextval(pg_get_serial_sequence('system_logs', 'id')),
        ${d.refused}::int, ${d.throttled}::int, ${endpoints}, ${d.endpoints.length > max}, ${at}::timestamptz, ${at}::timestamptz)
      on conflict (ip, window_start) do update set
        refused = s.refused + excluded.refused,
        throttled = s.throttled + excluded.throttled,
        endpoints = array(select e from (select distinct unnest(s.endpoints || excluded.endpoints) as e) u order by e limit ${max}::int),
        more_endpoints = s.more_endpoints or excluded.more_endpoints
          or cardinality(array(select distinct unnest(s.endpoints || excluded.endpoints))) > ${max}::int,
        first_at = least(s.first_at, excluded.first_at),
        last_at = greatest(s.last_at, excluded.last_at)
      returning s.*
    )
    insert into ${systemLogs} (id, at, level, service, action, message, after, request_id, ip)
    select system_log_id, first_at, 'warn', 'api', 'api.ingest.refused_summary',
      format('Refused ingest calls from %s in the %s minutes from %s: %s without a valid credential, %s throttled (answered 429 unchecked); endpoints: %s%s',
        ip, ${REFUSAL_WINDOW_MINUTES}::int, to_char(window_start at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'),
        refused, throttled, array_to_string(endpoints, ', '), case when more_endpoints then ', and others' else '' end),
      jsonb_build_object(
        'windowStart', window_start, 'windowMinutes', ${REFUSAL_WINDOW_MINUTES}::int,
        'refused', refused, 'throttled', throttled,
        'endpoints', to_jsonb(endpoints), 'moreEndpoints', more_endpoints,
        'firstAt', first_at, 'lastAt', last_at),
      ${d.requestId}::text, ip
    from summary
    on conflict (id) do update set message = excluded.message, after = excluded.after`);
}
