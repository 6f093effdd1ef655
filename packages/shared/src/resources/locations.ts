import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { optionsQuery } from '../api/list.ts';
import { defineResource, statusFilter, statusLabel } from '../api/resource.ts';
import { REVIEW_SITES, STATUSES } from '../constants.ts';
import { TIME_ZONES } from './clients.ts';

/**
 * Locations (docs/screens.md, Locations), served as the original console's `endpoints` collection. One definition for
 * the API, the form, the table and the CSV.
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
  /** Active and paused people linked to the location. */
  personnel_count: z.number().int().nullable(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Location = z.infer<typeof locationSchema>;

/** A location's id in a path, a query or a body: 24 lower-case hex characters. */
export const locationIdText = z.string().regex(LOCATION_ID, 'must be 24 lower-case hex characters');

export const locationIdParamSchema = z.object({ id: locationIdText });

/** The query of an option list of locations (`GET /api/endpoints/options`): chosen values are location ids. */
export const locationOptionsQuerySchema = optionsQuery(locationIdText);

/**
 * The Clients filter's value meaning every client: `GET /api/endpoints?client=all`.
 * "Selected All" cannot be sent as an omitted parameter here, because no `client` means the
 * current client (docs/decisions/018-locations-every-client.md).
 */
export const ALL_CLIENTS = 'all';

/** Weekday → `{ open, close }` (`HH:mm`), or null when closed; checked by location-extras.ts. */
const hoursBody = z
  .partialRecord(
    z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
    z.object({ open: z.string().max(10), close: z.string().max(10) }).nullable(),
  )
  .nullable()
  .optional();
/** Review site code → profile URL; null or empty removes the link. */
const reviewLinksBody = z
  .partialRecord(z.enum(REVIEW_SITES.map((s) => s.value) as [string, ...string[]]), z.string().max(5000).nullable())
  .optional();

/** The fields a CSV import may have: the form's text fields. */
export const LOCATION_IMPORT_COLUMNS = [
  'locationname',
  'external_code',
  'address1',
  'address2',
  'city',
  'state',
  'postal_code',
  'country',
  'phone',
  'website',
  'timezone',
  'google_place_id',
] as const;

export const locationResource = defineResource({
  name: 'location',
  path: '/api/endpoints',
  id: '_id',
  screen: 'locations',
  scope: 'filterable-clients',
  record: locationSchema,
  fields: {
    /** Another client than the current one (API only; the screen writes to the current client). */
    client_id: { label: 'Client', createOnly: true, schema: bodyId.optional() },
    locationname: { label: 'Location name', rules: 'required|max:120', placeholder: 'e.g. Summit Heating Lakewood' },
    external_code: { label: 'Store code', rules: 'alpha_dash|max:64', placeholder: 'e.g. SUM-014' },
    address1: { label: 'Address line 1', rules: 'required|max:120', placeholder: 'e.g. 12 Union Blvd' },
    address2: { label: 'Address line 2', rules: 'max:120', placeholder: 'e.g. Suite 200' },
    city: { label: 'City', rules: 'required|max:80', placeholder: 'e.g. Lakewood' },
    state: { label: 'State', rules: { required: true, regex: /^[A-Z]{2}$/ }, placeholder: 'e.g. CO' },
    postal_code: { label: 'Postal code', rules: { required: true, regex: /^\d{5}(-\d{4})?$/ }, placeholder: 'e.g. 80228' },
    country: { label: 'Country', rules: 'length:2', default: 'US', placeholder: 'e.g. US' },
    phone: { label: 'Phone', rules: { required: true, regex: /^\+?[1-9]\d{6,14}$/ }, placeholder: 'e.g. +1 555 123 4567' },
    website: { label: 'Website', rules: 'url|max:2048', placeholder: 'e.g. https://example.com' },
    timezone: { label: 'Time zone', input: 'timezone', rules: { required: true, included: TIME_ZONES } },
    google_place_id: { label: 'Google Place ID', rules: 'alpha_dash|min:10|max:255', placeholder: 'e.g. ChIJN1t_tDeuEmsR' },
    manager_user_id: { label: 'Manager', rules: 'integer', schema: bodyId.nullable().optional() },
    hours: { label: 'Opening hours', schema: hoursBody },
    review_links: { label: 'Review links', schema: reviewLinksBody },
  },
  columns: {
    _id: { label: 'Endpoint id', defaultVisible: false },
    locationname: { label: 'Location name', sortable: true },
    client_name: { label: 'Client' },
    external_code: { label: 'Store code', sortable: true },
    city_state: { label: 'City/State', sortable: true, format: (l) => `${l.city}, ${l.state}` },
    phone: { label: 'Phone' },
    google_place_id: { label: 'Google Place ID', defaultVisible: false },
    personnel_count: { label: '# Personnel' },
    review_sites: {
      label: 'Review sites linked',
      defaultVisible: false,
      format: (l) =>
        REVIEW_SITES.filter((s) => l.review_links[s.value])
          .map((s) => s.label)
          .join(', '),
    },
    status: { label: 'Status', sortable: true, format: (l) => statusLabel(l.status) },
  },
  filters: {
    /** Client ids, or `all` for every client; absent = the current client. */
    client: {
      kind: 'multi',
      label: 'Clients',
      item: idFilterItem,
      all: ALL_CLIENTS,
      optionsPath: '/api/endpoints/client-options',
      emptyLabel: 'Current client',
    },
    state: { kind: 'multi', label: 'State', item: z.string().regex(/^[A-Z]{2}$/) },
    status: statusFilter,
    hasGoogle: {
      kind: 'choice',
      label: 'Google link',
      options: [
        { value: 'yes', label: 'Has Google Place ID' },
        { value: 'no', label: 'No Google Place ID' },
      ],
    },
  },
  defaultSort: { sort: 'locationname', order: 'asc' },
  search: 'Name, store code, city or id',
  card: { facts: ['client_name', 'city_state', 'phone'] },
  importColumns: LOCATION_IMPORT_COLUMNS,
  unique: 'external_code',
  statusEffects: {
    paused: 'Surveys and alerts stop for this location until it is resumed.',
    inactive: 'The location is archived and hidden by default. You can restore it later.',
    active: 'The location becomes active again.',
  },
});

export type LocationCreate = z.infer<typeof locationResource.createSchema>;
export type LocationListQuery = z.infer<typeof locationResource.listQuerySchema>;

/**
 * `GET /api/endpoints/options/manager` (`optionsQuerySchema` → `optionsAnswerSchema`): the current
 * client's users for a new location's Manager, by name, searched and paged on the server, then the
 * chosen ones; `GET /api/endpoints/:id/options/manager`: the same for an existing location's client.
 */
export const LOCATION_MANAGER_OPTIONS_PATH = `${locationResource.path}/options/manager`;
export const locationManagerOptionsPath = (id: string) => `${locationResource.path}/${id}/options/manager`;
