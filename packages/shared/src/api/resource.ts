import { z } from 'zod';
import { STATUS_LABELS, STATUSES, type Status } from '../constants.ts';
import { cardOf } from './card.ts';
import { type ColumnDef, exportColumnsSchema, isoDate, listQuerySchema, multiValue } from './list.ts';
import { UPDATED_AT_LABEL, versionStamp } from './status.ts';

/**
 * One definition per resource drives its API routes (schemas, sorts, filters, uniqueness), its
 * form (labels, inputs, rules, defaults), its table and its CSV (columns with one format for
 * both). Everything else is derived here, so nothing is written twice (docs/decisions/017).
 *
 * ```ts
 * export const productResource = defineResource({
 *   name: 'product', noun: 'product', path: '/api/product', screen: 'products', scope: 'current-client',
 *   record: productSchema,
 *   fields: { name: { label: 'Name', rules: 'required|max:120' }, … },
 *   columns: { name: { label: 'Name', sortable: true }, … },
 *   filters: { status: statusFilter },
 *   defaultSort: { sort: 'name', order: 'asc' },
 * });
 * ```
 */

/** Field name → vee-validate rules, e.g. `{ name: 'required|max:120', website: 'url' }`. */
export type FieldRules = Record<string, string | Record<string, unknown>>;

export type Option = { value: string; label: string };

export type FieldSpec = {
  /** The form's label; also how messages name the field ("The Store code field is required"). */
  label: string;
  /** `timezone`: every IANA zone, searchable, the common US ones first. */
  input?: 'text' | 'textarea' | 'select' | 'checkbox' | 'timezone';
  rules?: string | Record<string, unknown>;
  options?: readonly Option[];
  /** A hint shown in the empty input; reads as an example, never as a value. */
  placeholder?: string;
  /** What a new record gets when the field is left out (a list for multi-value fields). */
  default?: string | boolean | null | readonly string[];
  /** Accepted on create only (e.g. a record's owner). */
  createOnly?: boolean;
  /** The body's type for this field; nullable text by default (the rules say what is valid). */
  schema?: z.ZodType;
};

export type ColumnSpec<Row> = {
  label: string;
  /** What the table shows and the CSV holds; the row's own value when absent. */
  format?: (row: Row) => string | number | null;
  sortable?: boolean;
  /** Shown until the user chooses columns (default true). */
  defaultVisible?: boolean;
};

/**
 * A list filter. `multi` with `options` offers those; without them the screen loads the options
 * from the server (values the client's records use) and `item` checks each value.
 */
export type FilterSpec =
  | { kind: 'multi'; label: string; options: readonly Option[]; default?: readonly string[] }
  | {
      kind: 'multi';
      label: string;
      item: z.ZodType<string>;
      /** Options served by another collection (`optionsQuerySchema`), e.g. locations by id with their names. */
      optionsPath?: string;
      /**
       * The value sent for Selected All when an omitted parameter means something else (Locations'
       * `client=all`, docs/decisions/018-locations-every-client.md); a whole value, never one of several.
       */
      all?: string;
      /** What an empty choice means ("Any" when absent), e.g. "Current client". */
      emptyLabel?: string;
    }
  | {
      kind: 'choice';
      label: string;
      options: readonly Option[];
      emptyLabel?: string;
      /** One option shown as a checkbox (ticked = that option, unticked = no filter). */
      checkbox?: boolean;
    }
  /** Free text, applied as it is typed (e.g. an entity type); the store decides how it matches. */
  | { kind: 'text'; label: string; placeholder?: string; max?: number }
  /** Whole days from `startDate` to `endDate`, the list contract's names (packages/shared list.ts); either may be left out. */
  | { kind: 'dateRange'; label: string };

/**
 * Whose records a screen shows and writes:
 * - `current-client`: the signed-in user's current client (the client switcher);
 * - `current-client-and-global`: the current client's own plus defaults shared by all clients;
 * - `filterable-clients`: any clients, chosen in a filter (the current client's by default);
 * - `global`: records that belong to no client (clients themselves, staff accounts).
 */
export type Scope = 'current-client' | 'current-client-and-global' | 'filterable-clients' | 'global';

export type ResourceSpec<
  Row,
  F extends Record<string, FieldSpec>,
  C extends Record<string, ColumnSpec<Row>>,
  FL extends Record<string, FilterSpec>,
> = {
  /** Audit and message noun, e.g. `product` → actions `product.create`, "Created product X". */
  name: string;
  /** How buttons and messages name one ("person"); the name with spaces when absent. */
  noun?: string;
  /** How the screen names many of them ("referral sources", "personnel"); the noun + "s" when absent. */
  plural?: string;
  /** The collection's path, e.g. `/api/product`. */
  path: string;
  /** The record's id property when it is not `id` (Locations answer `_id`); used in the record's paths. */
  id?: Extract<keyof Row, string>;
  /** Where one record lives when not under the collection (`/api/clients` for `/api/create-client`): `<recordPath>/<id>`. */
  recordPath?: string;
  /** The screen's key: CSV file names (`products-2026-11-23.csv`) and column preferences. */
  screen: string;
  scope: Scope;
  record: z.ZodType<Row>;
  fields: F;
  columns: C;
  filters: FL;
  defaultSort: { sort: Extract<keyof C, string>; order: 'asc' | 'desc' };
  /** Placeholder of the quick search, naming what it searches. */
  search: string;
  /** Columns a CSV import may have (field names); no import when absent. */
  importColumns?: readonly Extract<keyof F, string>[];
  /** Import columns that are not fields (e.g. lists of linked records), read by the store's `importer`. */
  importExtraColumns?: readonly string[];
  /** A field unique per owner (client, or the global defaults), e.g. a code. */
  unique?: Extract<keyof F, string>;
  /** What a status change does, said in the dialog that confirms it. */
  statusEffects?: Partial<Record<Status, string>>;
  /** What a row's card shows on a phone (title, two or three facts; `cardOf` when absent; docs/decisions/040). */
  card?: { title?: Extract<keyof C, string>; facts?: readonly Extract<keyof C, string>[] };
};

const text = z.string().max(5000).nullable().optional();

/** A filter's Selected All value when it has its own (`all`). */
type AllValue<S> = S extends { all: infer A extends string } ? A : never;
type FilterValue<S> = S extends { kind: 'multi'; item: z.ZodType<infer T> }
  ? T[] | AllValue<S>
  : S extends { kind: 'multi'; options: readonly { value: infer V }[] }
    ? V[]
    : S extends { options: readonly { value: infer V }[] }
      ? V
      : S extends { kind: 'text' }
        ? string
        : never;
/** `startDate` and `endDate` when a `dateRange` filter is defined. */
type DateRangeQuery<FL> = { [K in keyof FL]: FL[K] extends { kind: 'dateRange' } ? K : never }[keyof FL] extends never
  ? unknown
  : { startDate?: string; endDate?: string };
/** Keys of the sortable columns. */
export type SortKey<C> = Extract<{ [K in keyof C]: C[K] extends { sortable: true } ? K : never }[keyof C], string>;
/** A parsed list query: paging, sort, search and each filter's values. */
export type ResourceListQuery<C, FL> = {
  sort?: SortKey<C>;
  order?: 'asc' | 'desc';
  q?: string;
  perPage: number;
  cursor?: string;
} & { [K in keyof FL]?: FilterValue<FL[K]> } & DateRangeQuery<FL>;

type FieldValue<S> = S extends { schema: z.ZodType<infer T> } ? T : string | null;
/** A create body: any subset of the fields, each of its field's type. */
export type ResourceBody<F> = { [K in keyof F]?: FieldValue<F[K]> };

/** The status filter every resource with a status has. */
export const statusFilter = {
  kind: 'multi',
  label: 'Status',
  options: STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
  /** Archived records are hidden until the filter asks for them. */
  default: ['active', 'paused'],
} as const satisfies FilterSpec;

/** `inactive` → "Archived": the one display of a status, on screen and in CSV. */
export const statusLabel = (status: Status): string => STATUS_LABELS[status];

/** Label of an option value, or the value itself when unknown. */
export function optionLabel(options: readonly Option[], value: string | null): string {
  if (value === null) return '';
  return options.find((o) => o.value === value)?.label ?? value;
}

export function defineResource<
  Row extends Record<string, unknown>,
  const F extends Record<string, FieldSpec>,
  const C extends Record<string, ColumnSpec<Row>>,
  const FL extends Record<string, FilterSpec>,
>(spec: ResourceSpec<Row, F, C, FL>) {
  const noun = spec.noun ?? spec.name.replace(/_/g, ' ');
  const fieldNames = Object.keys(spec.fields) as Extract<keyof F, string>[];
  const columnKeys = Object.keys(spec.columns) as Extract<keyof C, string>[];
  const sortKeys = columnKeys.filter((k): k is SortKey<C> => spec.columns[k]?.sortable === true);

  const rules: FieldRules = {};
  const labels: Record<string, string> = {};
  const bodyShape: Record<string, z.ZodType> = {};
  const defaults: Record<string, string | boolean | null | readonly string[]> = {};
  for (const name of fieldNames) {
    const field = spec.fields[name];
    if (!field) continue;
    if (field.rules !== undefined) rules[name] = field.rules;
    labels[name] = field.label;
    bodyShape[name] = field.schema ?? text;
    if (field.default !== undefined) defaults[name] = field.default;
  }
  // Edits and status changes carry the version stamp beside the fields; a refusal names it too.
  labels.updated_at ??= UPDATED_AT_LABEL;
  const createOnly = fieldNames.filter((n) => spec.fields[n]?.createOnly);

  const filterShape: Record<string, z.ZodType> = {};
  for (const [key, filter] of Object.entries(spec.filters)) {
    if ('item' in filter) {
      const values = multiValue(filter.item);
      filterShape[key] = (filter.all === undefined ? values : z.union([z.literal(filter.all), values])).optional();
      continue;
    }
    if (filter.kind === 'text') {
      filterShape[key] = z
        .string()
        .trim()
        .max(filter.max ?? 200)
        .optional();
      continue;
    }
    if (filter.kind === 'dateRange') {
      filterShape.startDate = isoDate.optional();
      filterShape.endDate = isoDate.optional();
      continue;
    }
    const values = z.enum(filter.options.map((o) => o.value));
    filterShape[key] = filter.kind === 'multi' ? multiValue(values).optional() : values.optional();
  }

  const columns: (ColumnDef<Extract<keyof C, string>> & { format?: (row: Row) => string | number | null })[] = columnKeys.map((key) => {
    const c = spec.columns[key];
    return {
      key,
      label: c?.label ?? key,
      sortable: c?.sortable ?? false,
      defaultVisible: c?.defaultVisible ?? true,
      ...(c?.format ? { format: c.format } : {}),
    };
  });

  // Built from the fields at run time, so its static type is stated here, once.
  const createSchema = z.strictObject(bodyShape) as unknown as z.ZodType<ResourceBody<F>>;
  return {
    ...spec,
    /** `referral_source` → "referral source", for messages and buttons. */
    noun,
    plural: spec.plural ?? `${noun}s`,
    fieldNames,
    columnKeys,
    sortKeys,
    /** The form's and the server's rules, by field. */
    rules,
    /** Field → label, for messages that name fields as the form labels them. */
    labels,
    /** Values of fields a new record gets when they are left out. */
    defaults,
    columns,
    card: cardOf(columns, spec.card),
    createSchema,
    updateSchema: z.strictObject({
      ...Object.fromEntries(Object.entries(bodyShape).filter(([name]) => !createOnly.some((n) => n === name))),
      updated_at: versionStamp,
    }) as unknown as z.ZodType<ResourceBody<F> & { updated_at?: string }>,
    listQuerySchema: listQuerySchema(nonEmpty(sortKeys), filterShape) as unknown as z.ZodType<ResourceListQuery<C, FL>>,
    exportQuerySchema: listQuerySchema(nonEmpty(sortKeys), {
      ...filterShape,
      columns: exportColumnsSchema(nonEmpty(columnKeys)).optional(),
    }) as unknown as z.ZodType<ResourceListQuery<C, FL> & { columns?: Extract<keyof C, string>[] }>,
  };
}

export type ResourceDefinition = ReturnType<typeof defineResource>;

function nonEmpty<T extends string>(values: T[]): readonly [T, ...T[]] {
  const [first, ...rest] = values;
  if (first === undefined) throw new Error('A resource needs at least one sortable column and one column');
  return [first, ...rest];
}
