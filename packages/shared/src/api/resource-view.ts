import type { Status } from '../constants.ts';
import type { CardSpec } from './card.ts';
import type { ColumnDef } from './list.ts';
import type { FieldRules, FieldSpec, FilterSpec, Scope } from './resource.ts';

/** What a screen reads of a definition, for its row type (the browser's kit takes this). */
export type ResourceView<Row> = {
  name: string;
  noun: string;
  plural: string;
  path: string;
  /** The record's id property when it is not `id`. */
  id?: string;
  recordPath?: string;
  screen: string;
  scope: Scope;
  fields: Readonly<Record<string, FieldSpec>>;
  fieldNames: readonly string[];
  // A method, so a view of a resource's rows is also a view of any rows a kit component takes.
  columns: readonly (ColumnDef & { format?(row: Row): string | number | null })[];
  filters: Readonly<Record<string, FilterSpec>>;
  defaultSort: { sort: string; order: 'asc' | 'desc' };
  search: string;
  importColumns?: readonly string[];
  importExtraColumns?: readonly string[];
  rules: FieldRules;
  labels: Record<string, string>;
  defaults: Record<string, string | boolean | null | readonly string[]>;
  statusEffects?: Partial<Record<Status, string>>;
  /** What a row's card shows on a phone. */
  card: CardSpec;
};

/** The value a column shows (and exports) for a row. */
export function cellValue<Row extends object>(column: { key: string; format?: (row: Row) => string | number | null }, row: Row): unknown {
  return column.format ? column.format(row) : Object.entries(row).find(([key]) => key === column.key)?.[1];
}
