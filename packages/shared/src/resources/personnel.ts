import { z } from 'zod';
import { defineResource, statusFilter, statusLabel } from '../api/resource.ts';
import { STATUSES } from '../constants.ts';
import { LOCATION_ID } from './locations.ts';

/** Personnel (docs/screens.md, Personnel): one definition for the API, the form, the table and the CSV. */
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

/** Several values in one CSV cell (locations, aliases), as the import reads them and the export writes them. */
export const LIST_SEPARATOR = ';';
export const MAX_ALIASES = 20;

export const personnelResource = defineResource({
  name: 'personnel',
  noun: 'person',
  plural: 'personnel',
  path: '/api/personnel',
  screen: 'personnel',
  scope: 'current-client',
  record: personSchema,
  fields: {
    first_name: { label: 'First name', rules: 'required|max:60' },
    last_name: { label: 'Last name', rules: 'required|max:60' },
    display_name: { label: 'Display name', rules: 'max:120' },
    title: { label: 'Title', rules: 'max:80' },
    location_ids: {
      label: 'Locations',
      rules: { required: true, regex: LOCATION_ID },
      schema: z.array(z.string().max(40)).max(500).optional(),
    },
    employee_code: { label: 'Employee code', rules: 'alpha_dash|max:64' },
    aliases: {
      label: 'Aliases',
      rules: { max: 120, length: [0, MAX_ALIASES] },
      schema: z.array(z.string().max(500)).max(100).optional(),
    },
    email: { label: 'Email', rules: 'email|max:254' },
    phone: { label: 'Phone', rules: { regex: /^\+?[1-9]\d{6,14}$/ }, placeholder: 'e.g. +1 555 123 4567' },
    photo_url: { label: 'Photo URL', rules: 'url|max:2048' },
  },
  columns: {
    name: { label: 'Name', sortable: true },
    location_names: { label: 'Locations', format: (p) => p.location_names.join(`${LIST_SEPARATOR} `) },
    title: { label: 'Title', sortable: true },
    employee_code: { label: 'Employee code', sortable: true },
    email: { label: 'Email' },
    phone: { label: 'Phone', defaultVisible: false },
    aliases_count: { label: 'Aliases', defaultVisible: false, format: (p) => p.aliases.length },
    status: { label: 'Status', sortable: true, format: (p) => statusLabel(p.status) },
  },
  filters: {
    status: statusFilter,
    /** Locations by id, their names from the Locations collection (paged there, never capped). */
    location: { kind: 'multi', label: 'Locations', item: z.string().regex(LOCATION_ID), optionsPath: '/api/endpoints/options' },
    /** Role: the titles the client's personnel have. */
    title: { kind: 'multi', label: 'Role', item: z.string().max(80) },
    /** `yes`: only people who share a name, email, phone or code with someone else (docs/screens.md, Personnel). */
    duplicates: { kind: 'choice', label: 'Possible duplicates', options: [{ value: 'yes', label: 'Possible duplicates' }], checkbox: true },
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Name, alias, code or email',
  importColumns: ['first_name', 'last_name', 'display_name', 'title', 'employee_code', 'email', 'phone', 'photo_url'],
  /** Lists separated by `;`: a location by its id, its external code or its exact name; name variants. */
  importExtraColumns: ['locations', 'aliases'],
  unique: 'employee_code',
  statusEffects: {
    paused: 'Surveys stop crediting this person until they are resumed.',
    inactive: 'The person is archived and hidden by default. You can restore them later.',
  },
});

export type PersonCreate = z.infer<typeof personnelResource.createSchema>;
export type PersonnelListQuery = z.infer<typeof personnelResource.listQuerySchema>;
