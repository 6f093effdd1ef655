import { FEED_FIELDS, type FeedMapping } from '@admin/shared';

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
