import {
  idFilterItem,
  isoDate,
  LOCATION_ID,
  MAX_REPORT_DAYS,
  multiValue,
  PERFORMANCE_CHANNELS,
  PERFORMANCE_GROUP_BY,
  type PerformanceQuery,
} from '@admin/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, rowsOf } from '../../db/client.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

/** The query's fields as the report's filters label them: every 422 names a field by these. */
export const PERFORMANCE_LABELS = {
  clients: 'Clients',
  locations: 'Locations',
  surveys: 'Surveys',
  personnel: 'Personnel',
  from: 'Date from',
  to: 'Date to',
  groupBy: 'Group by',
  channel: 'Channel',
} as const;
type Field = keyof typeof PERFORMANCE_LABELS;

const required = (label: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? `The ${label} field is required` : undefined),
});

/**
 * The query string as sent (repeated ids or comma lists, as every list filter takes them). Read by
 * the handler, not by Fastify's schema, so a refusal is the 422 naming the field by its label
 * rather than the 400 of a malformed query.
 */
const shape = z.object({
  clients: multiValue(idFilterItem).optional(),
  locations: multiValue(z.string().regex(LOCATION_ID, 'must hold location ids')).optional(),
  surveys: multiValue(idFilterItem).optional(),
  personnel: multiValue(idFilterItem).optional(),
  from: isoDate.or(z.undefined()).refine((v) => v !== undefined, required(PERFORMANCE_LABELS.from)),
  to: isoDate.or(z.undefined()).refine((v) => v !== undefined, required(PERFORMANCE_LABELS.to)),
  groupBy: z.enum(PERFORMANCE_GROUP_BY).default('location'),
  channel: z.enum(PERFORMANCE_CHANNELS).default('all'),
});

const DAY_MS = 86_400_000;
/** Days from `from` to `to`, both included. */
export const daysIn = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
/** A calendar day moved by `n` days. */
export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** The previous equal period: as many days, ending the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const days = daysIn(from, to);
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

const refuse = (errors: Partial<Record<Field, string[]>>) => fieldsRefused(errors as Record<string, string[]>, PERFORMANCE_LABELS);

/** A single-valued parameter sent twice is a mistake, not a choice of one. */
function single(raw: Record<string, unknown>, field: Field): string[] | undefined {
  return Array.isArray(raw[field]) ? [`The ${PERFORMANCE_LABELS[field]} field takes one value`] : undefined;
}

/** Reads the query string, or throws the 422 naming each field it refuses (shape, range, order). */
export function parsePerformanceQuery(raw: unknown): PerformanceQuery {
  const input = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const errors: Partial<Record<Field, string[]>> = {};
  for (const field of ['from', 'to', 'groupBy', 'channel'] as const) {
    const problem = single(input, field);
    if (problem) errors[field] = problem;
  }
  if (Object.keys(errors).length > 0) throw refuse(errors);
  const parsed = shape.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as Field;
      if (!(field in PERFORMANCE_LABELS)) continue;
      const message = issue.message.startsWith('The ') ? issue.message : `The ${PERFORMANCE_LABELS[field]} field ${issue.message}`;
      errors[field] = [...(errors[field] ?? []), message];
    }
    throw refuse(Object.keys(errors).length > 0 ? errors : { from: ['The query is not one the report reads'] });
  }
  const q = parsed.data;
  const from = q.from ?? '';
  const to = q.to ?? '';
  if (to < from) throw refuse({ to: [`The ${PERFORMANCE_LABELS.to} field must be on or after the ${PERFORMANCE_LABELS.from}`] });
  if (daysIn(from, to) > MAX_REPORT_DAYS)
    throw refuse({
      to: [`The ${PERFORMANCE_LABELS.to} field must be at most ${MAX_REPORT_DAYS} days after the ${PERFORMANCE_LABELS.from}`],
    });
  return {
    clients: [...new Set((q.clients ?? []).map(Number))],
    locations: [...new Set(q.locations ?? [])],
    surveys: [...new Set((q.surveys ?? []).map(Number))],
    personnel: [...new Set((q.personnel ?? []).map(Number))],
    from,
    to,
    groupBy: q.groupBy,
    channel: q.channel,
  };
}

/**
 * Refuses (422 naming the field) ids that name nothing, or (clients chosen) something of another
 * client: a report never mixes in rows the Clients filter left out.
 */
export async function checkOwnership(db: Db, q: PerformanceQuery): Promise<void> {
  const errors: Partial<Record<Field, string[]>> = {};
  const clientList =
    q.clients.length > 0
      ? sql`array[${sql.join(
          q.clients.map((c) => sql`${c}::int`),
          sql`, `,
        )}]`
      : null;
  const check = async (field: Field, table: string, idColumn: string, ids: readonly (string | number)[], what: string) => {
    if (ids.length === 0) return;
    const list = sql.join(
      ids.map((v) => sql`${String(v)}`),
      sql`, `,
    );
    const rows = rowsOf(
      await db.execute(sql`select v.id from unnest(array[${list}]::text[]) as v(id)
        left join ${sql.identifier(table)} t on t.${sql.identifier(idColumn)}::text = v.id
        where t.client_id is null${clientList ? sql` or not (t.client_id = any(${clientList}))` : sql``}`),
    );
    if (rows.length > 0)
      errors[field] = [
        `The ${PERFORMANCE_LABELS[field]} field holds ${rows.length === 1 ? `a ${what}` : `${rows.length} ${what}s`} ${clientList ? 'of no chosen client' : 'that does not exist'}: ${rows.map((r) => String(r.id)).join(', ')}`,
      ];
  };
  if (clientList) {
    const rows = rowsOf(
      await db.execute(sql`select v.id from unnest(${clientList}) as v(id) left join clients c on c.id = v.id where c.id is null`),
    );
    if (rows.length > 0)
      errors.clients = [
        `The ${PERFORMANCE_LABELS.clients} field holds clients that do not exist: ${rows.map((r) => String(r.id)).join(', ')}`,
      ];
  }
  await check('locations', 'locations', '_id', q.locations, 'location');
  await check('surveys', 'surveys', 'id', q.surveys, 'survey');
  await check('personnel', 'personnel', 'id', q.personnel, 'person');
  if (Object.keys(errors).length > 0) throw refuse(errors);
}
