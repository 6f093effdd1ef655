import type { PerformanceGroupBy } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-11" → "November 2026". */
export function monthLabel(key: string): string {
  const [year, month] = key.split('-');
  return `${MONTHS[Number(month) - 1] ?? month} ${year}`;
}

/** The label of each group's name, as a person reads it, by the table it comes from. */
const NAMES: Record<Exclude<PerformanceGroupBy, 'month'>, { table: string; id: string; name: string; idType: string }> = {
  client: { table: 'clients', id: 'id', name: 'name', idType: 'int' },
  location: { table: 'locations', id: '_id', name: 'locationname', idType: 'text' },
  personnel: { table: 'personnel', id: 'id', name: `first_name || ' ' || coalesce(last_name, '')`, idType: 'int' },
  survey: { table: 'surveys', id: 'id', name: 'name', idType: 'int' },
  product: { table: 'products', id: 'id', name: 'name', idType: 'int' },
  referral_source: { table: 'referral_sources', id: 'id', name: 'name', idType: 'int' },
};

/** The label of each key ('' reads "None"; a month "November 2026"; an id its record's name). */
export async function labelsOf(db: Db, groupBy: PerformanceGroupBy, keys: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const ids = keys.filter((k) => k !== '');
  if (keys.includes('')) out.set('', 'None');
  if (groupBy === 'month') {
    for (const k of ids) out.set(k, monthLabel(k));
    return out;
  }
  if (ids.length === 0) return out;
  const n = NAMES[groupBy];
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = rowsOf(
    await db.execute(
      sql`select ${sql.identifier(n.id)}::text as id, trim(${sql.raw(n.name)}) as label from ${sql.identifier(n.table)} where ${sql.identifier(n.id)} in (select unnest(array[${list}]::text[])::${sql.raw(n.idType)})`,
    ),
  );
  for (const r of rows) out.set(String(r.id), String(r.label ?? ''));
  // A group whose record has gone (never expected: ids are foreign keys) still reads as something.
  for (const k of ids) if (!out.has(k)) out.set(k, `#${k}`);
  return out;
}
