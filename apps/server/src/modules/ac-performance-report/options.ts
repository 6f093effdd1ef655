import type { OptionsAnswer, OptionsQuery } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';

/**
 * The AC users filter's options: users who coordinate a client, matching what was typed (at most
 * `perPage`, by name), then the chosen ones with their names. Served as every options list is
 * (packages/shared optionsQuerySchema) so the screen's RemoteMultiFilter pages it on the server.
 */
export async function coordinatorOptions(db: Db, q: OptionsQuery): Promise<OptionsAnswer> {
  const search: SQL = q.q ? sql`and u.name ilike ${`%${q.q.replace(/[\\%_]/g, '\\$&')}%`}` : sql``;
  const found = rowsOf(
    await db.execute(sql`select u.id, u.name from users u
      where exists (select 1 from clients c where c.account_coordinator_id = u.id) ${search}
      order by lower(u.name), u.id limit ${q.perPage + 1}`),
  );
  const chosen = (q.value ?? []).map(Number).filter((v) => Number.isSafeInteger(v));
  const named =
    chosen.length === 0
      ? []
      : rowsOf(
          await db.execute(
            sql`select id, name from users where id = any(array[${sql.join(
              chosen.map((v) => sql`${v}::int`),
              sql`, `,
            )}])`,
          ),
        );
  const seen = new Set<string>();
  const data: OptionsAnswer['data'] = [];
  for (const row of [...found.slice(0, q.perPage), ...named]) {
    const value = String(row.id);
    if (seen.has(value)) continue;
    seen.add(value);
    data.push({ value, label: String(row.name) });
  }
  return { data, more: found.length > q.perPage };
}
