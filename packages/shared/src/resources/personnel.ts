import { z } from 'zod';
import { idParamSchema } from '../api/ids.ts';
import { type ColumnDef, exportColumnsSchema, listQuerySchema, multiValue } from '../api/list.ts';
import { STATUSES } from '../constants.ts';
import { LOCATION_ID } from './locations.ts';

/** Personnel (docs/screens.md, Personnel): one definition for the API, the form and the table. */
export const personSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  display_name: z.string().nullable(),
  title: z.string().nullable(),
  employee_code: z.string().nullable(),
  aliases: z.array(z.string()),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  photo_url: z.string().nullable(),
  location_ids: z.array(z.string()),
  location_names: z.array(z.string()),
  status: z.enum(STATUSES),
  merged_into_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Person = z.infer<typeof personSchema>;

export const personnelFieldRules = {
  first_name: 'required|max:60',
  last_name: 'required|max:60',
  display_name: 'max:120',
  title: 'max:80',
  location_ids: { required: true, regex: LOCATION_ID },
  employee_code: 'alpha_dash|max:64',
  aliases: { max: 120, length: [0, 20] },
  email: 'email|max:254',
  phone: { regex: /^\+?[1-9]\d{6,14}$/ },
  photo_url: 'url|max:2048',
} as const;

const text = z.string().max(5000).nullable().optional();
export const personCreateSchema = z.strictObject({
  first_name: text,
  last_name: text,
  display_name: text,
  title: text,
  location_ids: z.array(z.string().max(40)).max(500).optional(),
  employee_code: text,
  aliases: z.array(z.string().max(500)).max(100).optional(),
  email: text,
  phone: text,
  photo_url: text,
});
export type PersonCreate = z.infer<typeof personCreateSchema>;
export const personUpdateSchema = personCreateSchema.extend({ updated_at: z.string().max(40).optional() });
export const personIdParamSchema = idParamSchema;

export const PERSONNEL_COLUMN_KEYS = [
  'name',
  'location_names',
  'title',
  'employee_code',
  'email',
  'phone',
  'aliases_count',
  'status',
] as const;
export const personnelColumns: ColumnDef<(typeof PERSONNEL_COLUMN_KEYS)[number]>[] = [
  { key: 'name', label: 'Name', sortable: true, defaultVisible: true },
  { key: 'location_names', label: 'Locations', defaultVisible: true },
  { key: 'title', label: 'Title', sortable: true, defaultVisible: true },
  { key: 'employee_code', label: 'Employee code', sortable: true, defaultVisible: true },
  { key: 'email', label: 'Email', defaultVisible: true },
  { key: 'phone', label: 'Phone', defaultVisible: false },
  { key: 'aliases_count', label: 'Aliases', defaultVisible: false },
  { key: 'status', label: 'Status', sortable: true, defaultVisible: true },
];

export const PERSONNEL_SORTS = ['name', 'title', 'employee_code', 'status'] as const;
export const personnelFilters = {
  status: multiValue(z.enum(STATUSES)).optional(),
  location: multiValue(z.string().regex(LOCATION_ID)).optional(),
  /** Role: the person's title, from the client's titles (`/api/personnel/filter-options`). */
  title: multiValue(z.string().max(80)).optional(),
  /** `yes`: only people who share a name, email, phone or code with someone else (docs/screens.md, Personnel). */
  duplicates: z.enum(['yes']).optional(),
};
export const personnelListQuerySchema = listQuerySchema(PERSONNEL_SORTS, personnelFilters);
export type PersonnelListQuery = z.infer<typeof personnelListQuerySchema>;
export const personnelExportQuerySchema = listQuerySchema(PERSONNEL_SORTS, {
  ...personnelFilters,
  columns: exportColumnsSchema(PERSONNEL_COLUMN_KEYS).optional(),
});

/**
 * Columns of a personnel CSV import. `locations` and `aliases` hold several values separated by
 * `;`; a location is named by its `_id`, its external code or its exact name.
 */
export const PERSONNEL_IMPORT_COLUMNS = [
  'first_name',
  'last_name',
  'display_name',
  'title',
  'employee_code',
  'email',
  'phone',
  'photo_url',
  'locations',
  'aliases',
] as const;
