import type { AcPerformanceQuery } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';

/** What the report reads of one client besides the Performance Report's counts. */
export type ClientFacts = {
  id: number;
  name: string;
  status: string;
  timezone: string;
  coordinatorId: number | null;
  coordinatorName: string | null;
  activeLocations: number;
  reviewAlertsUndelivered: number;
  listingsAccurate: number;
  listingsChecked: number;
  lastFeedAt: Date | null;
};

const intList = (ids: number[]): SQL =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  )}]`;

const num = (v: unknown): number => Number(v ?? 0);
const dateOf = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(String(v)));

/**
 * The clients the filters choose (archived clients only when named), each with its coordinator,
 * active locations, undelivered review alerts of the period (its own days), listings as last
 * scanned and the last feed data it received. One statement; each per-client figure is a lateral
 * read along an index led by client_id (locations, review_alert_deliveries, listings,
 * data_feed_runs, survey_processing_items), so a book costs its own rows, not the platform's.
 */
export async function clientFacts(db: Db, q: AcPerformanceQuery): Promise<ClientFacts[]> {
  const conditions: SQL[] = [q.clients.length > 0 ? sql`c.id = any(${intList(q.clients)})` : sql`c.status <> 'inactive'`];
  if (q.coordinators.length > 0) conditions.push(sql`c.account_coordinator_id = any(${intList(q.coordinators)})`);
  const rows = rowsOf(
    await db.execute(sql`
      select c.id, c.name, c.status, c.timezone, c.account_coordinator_id, u.name as coordinator_name,
        loc.n as active_locations, rad.n as undelivered, lst.accurate, lst.checked,
        greatest(run.at, item.at) as last_feed_at
      from clients c
      left join users u on u.id = c.account_coordinator_id
      cross join lateral (select count(*) as n from locations l where l.client_id = c.id and l.status = 'active') loc
      cross join lateral (
        select count(*) as n from review_alert_deliveries d
        where d.client_id = c.id and not d.test and d.status in ('pending', 'failed')
          and d.created_at >= (${q.from}::date)::timestamp at time zone c.timezone
          and d.created_at < (${q.to}::date + 1)::timestamp at time zone c.timezone) rad
      cross join lateral (
        select count(*) filter (where s.status = 'accurate') as accurate,
          count(*) filter (where s.status in ('accurate', 'needs_update', 'pending_update')) as checked
        from listings s where s.client_id = c.id and s.is_mine is not false) lst
      left join lateral (
        select coalesce(r.received_at, r.started_at) as at from data_feed_runs r where r.client_id = c.id
        order by r.started_at desc limit 1) run on true
      left join lateral (
        select i.created_at as at from survey_processing_items i where i.client_id = c.id
        order by i.created_at desc limit 1) item on true
      where ${sql.join(conditions, sql` and `)}
      order by lower(c.name), c.id`),
  );
  return rows.map((r) => ({
    id: num(r.id),
    name: String(r.name),
    status: String(r.status),
    timezone: String(r.timezone),
    coordinatorId: r.account_coordinator_id === null ? null : num(r.account_coordinator_id),
    coordinatorName: r.coordinator_name === null ? null : String(r.coordinator_name),
    activeLocations: num(r.active_locations),
    reviewAlertsUndelivered: num(r.undelivered),
    listingsAccurate: num(r.accurate),
    listingsChecked: num(r.checked),
    lastFeedAt: dateOf(r.last_feed_at),
  }));
}
