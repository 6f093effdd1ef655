import { isIdText, type OptionsAnswer, type OptionsQuery } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { clients, dataFeeds, locations, personnel, surveys, users } from '../db/schema/index.ts';
import { containsPattern } from './keyset.ts';

/**
 * Option lists of filters over every client's records, paged on the server (`optionsQuerySchema`):
 * at most `perPage` labels matching what was typed, in name order, then the values already chosen
 * (so their labels show). Survey Manager, Survey Processing and Survey Manager Logs serve their filters with these.
 */
export async function pagedOptions(
  db: Db,
  q: OptionsQuery,
  table: { value: SQL; label: SQL; from: SQL; where?: SQL },
  valid: (v: string) => boolean,
): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const select = sql`select ${table.value}::text as value, ${table.label} as label from ${table.from}`;
  const scope = table.where ? sql` and ${table.where}` : sql``;
  const asOptions = (result: unknown) => rowsOf(result).map((r) => ({ value: String(r.value), label: String(r.label) }));
  const found = asOptions(
    await db.execute(
      sql`${select} where true${scope}${like ? sql` and ${table.label} ilike ${like}` : sql``} order by lower(${table.label}), 1 limit ${q.perPage + 1}`,
    ),
  );
  const rows = found.slice(0, q.perPage);
  // Only values the column can hold are looked up: anything else chosen matches no record.
  const missing = (q.value ?? []).filter((v) => valid(v) && !rows.some((o) => o.value === v));
  const chosen =
    missing.length === 0
      ? []
      : asOptions(
          await db.execute(
            sql`${select} where ${table.value}::text in (${sql.join(
              missing.map((m) => sql`${m}`),
              sql`, `,
            )})${scope}`,
          ),
        );
  return { data: [...rows, ...chosen], more: found.length > q.perPage };
}

const byId = (value: SQL, label: SQL, from: SQL, where?: SQL) => (db: Db, q: OptionsQuery) =>
  pagedOptions(db, q, { value, label, from, ...(where ? { where } : {}) }, isIdText);

export const everyClient = byId(sql`${clients.id}`, sql`${clients.name}`, sql`${clients}`);
export const everySurvey = byId(sql`${surveys.id}`, sql`${surveys.name}`, sql`${surveys}`);
export const everyFeed = byId(sql`${dataFeeds.id}`, sql`${dataFeeds.name}`, sql`${dataFeeds}`);
/** People who act in the console: the accounts that can sign in. */
export const everyUser = byId(sql`${users.id}`, sql`${users.name}`, sql`${users}`, sql`${users.passwordHash} is not null`);
/** How a person is named in option lists: the display name, else first and last name. */
export const personLabel = sql<string | null>`coalesce(${personnel.displayName}, ${personnel.firstName} || ' ' || ${personnel.lastName})`;
export const everyPerson = byId(sql`${personnel.id}`, personLabel, sql`${personnel}`);
export const everyLocation = (db: Db, q: OptionsQuery) =>
  pagedOptions(db, q, { value: sql`${locations.id}`, label: sql`${locations.locationname}`, from: sql`${locations}` }, (v) =>
    /^[a-f0-9]{24}$/.test(v),
  );
