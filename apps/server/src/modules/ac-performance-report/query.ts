import { AC_PERFORMANCE_LABELS, type AcPerformanceQuery, idFilterItem, isoDate, MAX_REPORT_DAYS, multiValue } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, rowsOf } from '../../db/client.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

const DAY_MS = 86_400_000;
/** Days from `from` to `to`, both included (as apps/server/src/reports/performance/query.ts counts them). */
export const daysIn = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** The previous equal period: as many days, ending the day before `from` (the Performance Report's). */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  return { from: addDays(from, -daysIn(from, to)), to: addDays(from, -1) };
}

type Field = keyof typeof AC_PERFORMANCE_LABELS;
const L = AC_PERFORMANCE_LABELS;

const required = (label: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? `The ${label} field is required` : undefined),
});

/** Read by the handler, not Fastify's schema, so a refusal is the 422 naming the field by its label. */
const shape = z.object({
  coordinators: multiValue(idFilterItem).optional(),
  clients: multiValue(idFilterItem).optional(),
  from: isoDate.or(z.undefined()).refine((v) => v !== undefined, required(L.from)),
  to: isoDate.or(z.undefined()).refine((v) => v !== undefined, required(L.to)),
});

const refuse = (errors: Partial<Record<Field, string[]>>) => fieldsRefused(errors as Record<string, string[]>, L);

/** Reads the query string, or throws the 422 naming each field it refuses (shape, order, length). */
export function parseAcQuery(raw: unknown): AcPerformanceQuery {
  const input = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const errors: Partial<Record<Field, string[]>> = {};
  for (const field of ['from', 'to'] as const) if (Array.isArray(input[field])) errors[field] = [`The ${L[field]} field takes one value`];
  if (Object.keys(errors).length > 0) throw refuse(errors);
  const parsed = shape.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as Field;
      if (!(field in L)) continue;
      const message = issue.message.startsWith('The ') ? issue.message : `The ${L[field]} field ${issue.message}`;
      errors[field] = [...(errors[field] ?? []), message];
    }
    throw refuse(Object.keys(errors).length > 0 ? errors : { from: ['The query is not one the report reads'] });
  }
  const from = parsed.data.from ?? '';
  const to = parsed.data.to ?? '';
  if (to < from) throw refuse({ to: [`The ${L.to} field must be on or after the ${L.from}`] });
  if (daysIn(from, to) > MAX_REPORT_DAYS)
    throw refuse({ to: [`The ${L.to} field must be at most ${MAX_REPORT_DAYS} days after the ${L.from}`] });
  return {
    coordinators: [...new Set((parsed.data.coordinators ?? []).map(Number))],
    clients: [...new Set((parsed.data.clients ?? []).map(Number))],
    from,
    to,
  };
}

/** Ids among `ids` that name no row of `table`. */
async function unknownIds(db: Db, table: 'users' | 'clients', ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const list = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const rows = rowsOf(
    await db.execute(
      sql`select v.id from unnest(array[${list}]) as v(id) left join ${sql.identifier(table)} t on t.id = v.id where t.id is null order by v.id`,
    ),
  );
  return rows.map((r) => Number(r.id));
}

/** Refuses (422 naming the field) AC users or clients that do not exist. */
export async function checkIds(db: Db, q: AcPerformanceQuery): Promise<void> {
  const errors: Partial<Record<Field, string[]>> = {};
  const users = await unknownIds(db, 'users', q.coordinators);
  if (users.length > 0) errors.coordinators = [`The ${L.coordinators} field holds users that do not exist: ${users.join(', ')}`];
  const clients = await unknownIds(db, 'clients', q.clients);
  if (clients.length > 0) errors.clients = [`The ${L.clients} field holds clients that do not exist: ${clients.join(', ')}`];
  if (Object.keys(errors).length > 0) throw refuse(errors);
}
