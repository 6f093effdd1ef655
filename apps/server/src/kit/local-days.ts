import { type SQL, sql } from 'drizzle-orm';

/**
 * A date filter's days as each row's client lives them (docs/decisions/072-client-day-filters.md):
 * from the client's midnight starting `startDate` to its midnight after `endDate`, both optional,
 * as the reports count days (apps/server/src/reports/performance/raw.ts), so a number opened from
 * a report lists its rows. `at` is the row's timestamp, `clientId` its client.
 *
 * Every zone's midnight lies within 14 hours before and 12 after UTC's, so a plain range on `at`
 * (which its index serves) bounds the rows first; the client's zone then decides each one.
 */
export function clientDayRange(at: SQL, clientId: SQL, startDate: string | undefined, endDate: string | undefined): SQL[] {
  const zone = sql`coalesce((select c.timezone from clients c where c.id = ${clientId}), 'UTC')`;
  const out: SQL[] = [];
  if (startDate) {
    out.push(sql`${at} >= (${startDate}::date - interval '14 hours') at time zone 'UTC'`);
    out.push(sql`${at} >= (${startDate}::date)::timestamp at time zone ${zone}`);
  }
  if (endDate) {
    out.push(sql`${at} < (${endDate}::date + interval '1 day 12 hours') at time zone 'UTC'`);
    out.push(sql`${at} < (${endDate}::date + 1)::timestamp at time zone ${zone}`);
  }
  return out;
}
