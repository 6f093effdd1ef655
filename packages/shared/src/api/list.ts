import { z } from 'zod';
import { MAX_PER_PAGE, SELECTED_ALL } from '../constants.ts';
import { idFilterItem, queryInt } from './ids.ts';

/**
 * The one list contract every table speaks (docs/conventions.md, rule 3):
 * `GET <collection>?sort=at&order=desc&q=text&<filters>&perPage=50&cursor=…`
 * → `{ data, total, totalIsEstimate, nextCursor }`; the same query on `<collection>/export`
 * streams CSV of every matching row.
 */

export type ColumnDef<K extends string = string> = {
  key: K;
  /** Header on screen and in the CSV. */
  label: string;
  sortable?: boolean;
  /** Shown until the user chooses columns. */
  defaultVisible?: boolean;
};

/** Splits repeated params or a comma list into trimmed, non-empty values. */
function listOf(v: unknown): unknown {
  if (typeof v !== 'string' && !Array.isArray(v)) return v;
  const parts = (Array.isArray(v) ? v : [v]).flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]));
  return parts.map((s) => (typeof s === 'string' ? s.trim() : s)).filter((s) => s !== '');
}

/** A multi-select filter value: repeated params or a comma list; "selected all" means no filter. */
export function multiValue<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => {
    const values = listOf(v);
    return Array.isArray(values) && values.includes(SELECTED_ALL) ? [] : values;
  }, z.array(item).max(200));
}

/** `yyyy-MM-dd`, a real calendar date. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the format yyyy-MM-dd')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'must be a real date');

/** The query every list accepts, before its own filters. */
export function listQuerySchema<S extends readonly [string, ...string[]], F extends z.ZodRawShape>(sortable: S, filters: F) {
  return z
    .strictObject({
      sort: z.enum(sortable).optional(),
      order: z.enum(['asc', 'desc']).optional(),
      q: z.string().trim().max(200).optional(),
      perPage: queryInt(1, MAX_PER_PAGE).default(50),
      cursor: z.string().max(500).optional(),
      ...filters,
    })
    .superRefine((v, ctx) => {
      const range = v as { startDate?: string; endDate?: string };
      if (range.startDate && range.endDate && range.endDate < range.startDate) {
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'The endDate must be after or equal to startDate' });
      }
    });
}

/** The export query: the list query without paging, plus the visible columns in screen order. */
export function exportColumnsSchema<K extends readonly [string, ...string[]]>(keys: K) {
  return z.preprocess(listOf, z.array(z.enum(keys)).min(1).max(keys.length));
}

export type ListResult<T> = {
  data: T[];
  total: number;
  /** True when `total` is the planner's estimate (large tables), not an exact count. */
  totalIsEstimate: boolean;
  nextCursor: string | null;
};

/** A bulk import's body: CSV text whose header names the columns (`locationname,address1,…`). */
export const csvImportSchema = z.strictObject({ csv: z.string().min(1).max(5_000_000) });
/** What an import answers: how many rows arrived, for which client. */
export const importResultSchema = z.object({ imported: z.number().int(), clientId: z.number().int() });

/**
 * The query of an option list that pages on the server (`GET <collection>/options/<filter>`): what
 * the user typed, how many to show, and the values already chosen (answered too, so their labels
 * show), each checked as its filter checks it (`item`). No option list is capped: a search finds any of them.
 */
export function optionsQuery(item: z.ZodType<string>) {
  return z.strictObject({
    q: z.string().trim().max(200).optional(),
    perPage: queryInt(1, 100).default(50),
    value: multiValue(item).optional(),
  });
}
/**
 * The query of an option list of records chosen by id (clients, surveys, users, templates…), the
 * usual kind: a chosen value is an int4 id (`idFilterItem`), so a repository never compares its id
 * column with a number the column cannot hold. A list of other values (locations' 24-hex ids, a
 * column's text) takes `optionsQuery(<its filter's item>)`.
 */
export const optionsQuerySchema = optionsQuery(idFilterItem);
/** What every option list's query holds, whatever its values are. */
export type OptionsQuery = { q?: string | undefined; perPage: number; value?: string[] | undefined };
/** Options matching the search (at most `perPage`), then the chosen ones; `more` when the search found more. */
export const optionsAnswerSchema = z.object({
  data: z.array(z.object({ value: z.string(), label: z.string() })),
  more: z.boolean(),
});
export type OptionsAnswer = z.infer<typeof optionsAnswerSchema>;
