import { z } from 'zod';
import { bodyId, idText } from '../api/ids.ts';
import { type ColumnDef, exportColumnsSchema, listQuerySchema, multiValue } from '../api/list.ts';
import { REVIEW_SITES, STATUSES } from '../constants.ts';
import { TIME_ZONES } from './clients.ts';

/**
 * Locations (domain.md §13), served as the spec's `endpoints` collection. One definition for
 * the API, the form and the table.
 */
export const LOCATION_ID = /^[a-f0-9]{24}$/;

export const locationSchema = z.object({
  _id: z.string(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  locationname: z.string(),
  external_code: z.string().nullable(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  postal_code: z.string(),
  country: z.string(),
  phone: z.string(),
  website: z.string().nullable(),
  timezone: z.string(),
  google_place_id: z.string().nullable(),
  manager_user_id: z.number().int().nullable(),
  team_id: z.number().int().nullable(),
  hours: z.record(z.string(), z.object({ open: z.string(), close: z.string() }).nullable()).nullable(),
  review_links: z.record(z.string(), z.string()),
  /** Active and paused people linked to the location; null in answers to writes. */
  personnel_count: z.number().int().nullable(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Location = z.infer<typeof locationSchema>;

/** The location form's rules (domain.md §13), on the form and on the server. */
export const locationFieldRules = {
  locationname: 'required|max:120',
  external_code: 'alpha_dash|max:64',
  address1: 'required|max:120',
  address2: 'max:120',
  city: 'required|max:80',
  state: { required: true, regex: /^[A-Z]{2}$/ },
  postal_code: { required: true, regex: /^\d{5}(-\d{4})?$/ },
  country: 'length:2',
  phone: { required: true, regex: /^\+?[1-9]\d{6,14}$/ },
  website: 'url|max:2048',
  timezone: { required: true, included: TIME_ZONES },
  google_place_id: 'alpha_dash|min:10|max:255',
} as const;
/** Rules of the form's other fields, which CSV imports do not take. */
export const locationManagerRules = { manager_user_id: 'integer' } as const;

export const LOCATION_FIELDS = Object.keys(locationFieldRules) as (keyof typeof locationFieldRules)[];

const text = z.string().max(5000).nullable().optional();
export const locationCreateSchema = z.strictObject({
  client_id: bodyId.optional(),
  locationname: text,
  external_code: text,
  address1: text,
  address2: text,
  city: text,
  state: text,
  postal_code: text,
  country: text,
  phone: text,
  website: text,
  timezone: text,
  google_place_id: text,
  manager_user_id: bodyId.nullable().optional(),
  /** Weekday → `{ open, close }` (`HH:mm`), or null when closed; see location-extras.ts. */
  hours: z
    .partialRecord(
      z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
      z.object({ open: z.string().max(10), close: z.string().max(10) }).nullable(),
    )
    .nullable()
    .optional(),
  /** Review site code → profile URL; null or empty removes the link. */
  review_links: z
    .partialRecord(z.enum(REVIEW_SITES.map((s) => s.value) as [string, ...string[]]), z.string().max(5000).nullable())
    .optional(),
});
export type LocationCreate = z.infer<typeof locationCreateSchema>;
export const locationUpdateSchema = locationCreateSchema.omit({ client_id: true }).extend({ updated_at: z.string().max(40).optional() });

export const locationIdParamSchema = z.object({
  id: z.string().regex(LOCATION_ID, 'must be 24 lower-case hex characters'),
});

export const LOCATION_COLUMN_KEYS = [
  '_id',
  'locationname',
  'client_name',
  'external_code',
  'city_state',
  'phone',
  'google_place_id',
  'personnel_count',
  'review_sites',
  'status',
] as const;
export const locationColumns: ColumnDef<(typeof LOCATION_COLUMN_KEYS)[number]>[] = [
  { key: '_id', label: 'Endpoint id', defaultVisible: false },
  { key: 'locationname', label: 'Location name', sortable: true, defaultVisible: true },
  { key: 'client_name', label: 'Client', defaultVisible: true },
  { key: 'external_code', label: 'Store code', sortable: true, defaultVisible: true },
  { key: 'city_state', label: 'City/State', sortable: true, defaultVisible: true },
  { key: 'phone', label: 'Phone', defaultVisible: true },
  { key: 'google_place_id', label: 'Google Place ID', defaultVisible: false },
  { key: 'personnel_count', label: '# Personnel', defaultVisible: true },
  { key: 'review_sites', label: 'Review sites linked', defaultVisible: false },
  { key: 'status', label: 'Status', sortable: true, defaultVisible: true },
];

export const LOCATION_SORTS = ['locationname', 'external_code', 'city_state', 'status'] as const;
const positiveId = idText;
/**
 * The Clients filter's value meaning every client: `GET /api/endpoints?client=all`.
 * "Selected All" cannot be sent as an omitted parameter here, because no `client` means the
 * current client (docs/screens.md, Locations).
 */
export const ALL_CLIENTS = 'all';
export const locationFilters = {
  /** Clients to list: ids (`client=2,3`), `all` for every client; absent = the current client. */
  client: z.union([z.literal(ALL_CLIENTS), multiValue(positiveId)]).optional(),
  status: multiValue(z.enum(STATUSES)).optional(),
  state: multiValue(z.string().regex(/^[A-Z]{2}$/)).optional(),
  hasGoogle: z.enum(['yes', 'no']).optional(),
};
export const locationListQuerySchema = listQuerySchema(LOCATION_SORTS, locationFilters);
export type LocationListQuery = z.infer<typeof locationListQuerySchema>;
export const locationExportQuerySchema = listQuerySchema(LOCATION_SORTS, {
  ...locationFilters,
  columns: exportColumnsSchema(LOCATION_COLUMN_KEYS).optional(),
});
