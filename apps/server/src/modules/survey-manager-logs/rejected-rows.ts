import { FEED_FIELDS, type FeedMapping } from '@admin/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { dataFeedRowErrors } from '../../db/schema/index.ts';

/** The two columns the rejected-rows CSV adds after the row's own: where the row was, and why it was refused. */
export const REJECTED_EXTRA = { line: 'Line', errors: 'Errors' } as const;

const position = (column: string) => Number(/^column_(\d+)$/.exec(column)?.[1] ?? Number.NaN);

/**
 * The columns of the rejected-rows CSV: the rows' own columns, so the file can be fixed and
 * uploaded to the feed again, then the row's line in the file it came from and its errors.
 *
 * A row is stored as JSON, which keeps no column order. A feed with a header maps columns by
 * name, so their order only has to read well: the feed's mapped columns in the sample template's
 * field order (first name, last name, e-mail, …), then the others by name. A feed without one
 * maps them by position (`column_1`, `column_2`, …), so they keep it. An own column named like an
 * added one is kept, and the added one is renamed, so no value is lost.
 *
 * @example rejectedColumns({ email: 'Mail' }, true, ['Zip', 'Mail']) // ['Mail', 'Zip', 'Line', 'Errors']
 */
export function rejectedColumns(mapping: FeedMapping, hasHeader: boolean, seen: readonly string[]): string[] {
  const received = new Set(seen);
  const own = hasHeader
    ? [...new Set([...FEED_FIELDS.flatMap((f) => mapping[f] ?? []).filter((c) => received.has(c)), ...[...received].sort()])]
    : [...received].sort(
        (a, b) => (position(a) || Number.MAX_SAFE_INTEGER) - (position(b) || Number.MAX_SAFE_INTEGER) || a.localeCompare(b),
      );
  const taken = new Set(own.map((c) => c.toLowerCase()));
  const added = Object.values(REJECTED_EXTRA).map((label) => {
    let name: string = label;
    while (taken.has(name.toLowerCase())) name = `${name} (rejected)`;
    taken.add(name.toLowerCase());
    return name;
  });
  return [...own, ...added];
}

/**
 * A page of a run's refused rows, one per row whatever the number of its errors, in line order
 * after `after` (the last line of the page before), for the rejected-rows CSV
 * (kit/csv-export.ts): the row as received and its errors in one text, each after the column it
 * names (`Mobile: The Phone field must be a valid phone number; Date: …`), with the next cursor.
 */
export async function rejectedRowsPage(db: Db, runId: number, after: string | undefined, limit: number) {
  const afterLine = Number(after ?? 0);
  const e = dataFeedRowErrors;
  const rows = await db
    .select({
      line: e.rowNumber,
      // Every error of a row holds the same row as received: the first one's is the row.
      raw: sql<Record<string, string>>`(array_agg(${e.raw} order by ${e.id}))[1]`,
      errors: sql<string>`string_agg(coalesce(${e.column} || ': ', '') || ${e.message}, '; ' order by ${e.id})`,
    })
    .from(e)
    .where(and(eq(e.runId, runId), after ? sql`${e.rowNumber} > ${Number.isSafeInteger(afterLine) ? afterLine : 0}` : undefined))
    .groupBy(e.rowNumber)
    .orderBy(asc(e.rowNumber))
    .limit(limit);
  const last = rows.at(-1);
  return { rows, nextCursor: rows.length === limit && last ? String(last.line) : null };
}

/** The columns a run's refused rows were received with: every key of their stored rows. */
export async function rowErrorColumns(db: Db, runId: number): Promise<string[]> {
  const result = await db.execute(
    sql`select distinct jsonb_object_keys(${dataFeedRowErrors.raw}) as key from ${dataFeedRowErrors} where ${dataFeedRowErrors.runId} = ${runId}`,
  );
  return rowsOf(result).map((r) => String(r.key));
}
