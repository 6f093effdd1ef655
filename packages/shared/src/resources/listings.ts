import { z } from 'zod';
import { idFilterItem } from '../api/ids.ts';
import { exportColumnsSchema, listQuerySchema, multiValue } from '../api/list.ts';
import { defineResource, optionLabel } from '../api/resource.ts';
import { versionStamp } from '../api/status.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { LISTING_DIRECTORIES, LISTING_STATUSES, type ListingDirectory, type ListingStatus } from '../reputation/vocabulary.ts';
import { ALL_CLIENTS, LOCATION_ID } from './locations.ts';

/**
 * Listings Tool (domain.md §12, pipeline.md "Listings"): what each directory holds for each
 * location, compared field by field with the location's record (name, address, phone, website,
 * hours), a score 0–100 and a status. Scans are jobs (Scan now, weekly); the row actions are
 * Mark as mine / Not mine, Set listing URL, Flag duplicate and Mark updated, each audited.
 */

/** The five compared fields, in the order the screen and the fix list show them. */
export const LISTING_FIELDS = ['name', 'address', 'phone', 'website', 'hours'] as const;
export type ListingField = (typeof LISTING_FIELDS)[number];
export const LISTING_FIELD_LABELS: Record<ListingField, string> = {
  name: 'Name',
  address: 'Address',
  phone: 'Phone',
  website: 'Website',
  hours: 'Hours',
};

export const directoryLabel = (value: string): string => optionLabel(LISTING_DIRECTORIES, value);
export const listingStatusLabel = (value: string): string => optionLabel(LISTING_STATUSES, value);
/** A field's verdict as read: Match, Mismatch, or a dash when it was not compared. */
export const matchLabel = (match: boolean | null): string => (match === null ? '—' : match ? 'Match' : 'Mismatch');

export const listingSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  /** The client's zone (IANA): Last checked is shown in it. */
  client_timezone: z.string().nullable(),
  location_id: z.string(),
  location_name: z.string(),
  directory: z.enum(LISTING_DIRECTORIES.map((d) => d.value) as [ListingDirectory, ...ListingDirectory[]]),
  listing_url: z.string().nullable(),
  external_id: z.string().nullable(),
  name_match: z.boolean().nullable(),
  address_match: z.boolean().nullable(),
  phone_match: z.boolean().nullable(),
  website_match: z.boolean().nullable(),
  hours_match: z.boolean().nullable(),
  score: z.number().int().nullable(),
  /** Named apart from the kit's `status` (Active/Paused/Archived), as Survey Processing's `item_status`. */
  listing_status: z.enum(LISTING_STATUSES.map((s) => s.value) as [ListingStatus, ...ListingStatus[]]),
  is_mine: z.boolean().nullable(),
  duplicate_of_id: z.number().int().nullable(),
  note: z.string().nullable(),
  /** What the directory held when last read (kept 30 days, then null). */
  found_name: z.string().nullable(),
  found_address: z.string().nullable(),
  found_phone: z.string().nullable(),
  found_website: z.string().nullable(),
  last_checked_at: z.string().nullable(),
  updated_at: z.string(),
});
export type Listing = z.infer<typeof listingSchema>;

const percent = (score: number | null) => (score === null ? '' : `${score}%`);

/** Why a listing is not checked, where its fields would be compared (the screen, the fix list). */
export const NO_CONNECTION = 'No connection';

/**
 * "Phone, Hours": the fields whose verdict is a mismatch, in the screen's order; for a listing not
 * checked, why (its directory has no connection: docs/decisions/052).
 */
export const mismatchesOf = (r: Pick<Listing, `${ListingField}_match` | 'listing_status'>): string =>
  r.listing_status === 'not_checked'
    ? NO_CONNECTION
    : LISTING_FIELDS.filter((f) => r[`${f}_match`] === false)
        .map((f) => LISTING_FIELD_LABELS[f])
        .join(', ');

const baseResource = defineResource({
  name: 'listing',
  noun: 'listing',
  path: '/api/listings',
  screen: 'listings-tool',
  // The current client's listings unless the Clients filter names others (as Locations).
  scope: 'filterable-clients',
  record: listingSchema,
  fields: {},
  columns: {
    location_name: { label: 'Location', sortable: true },
    directory: { label: 'Directory', sortable: true, format: (r) => directoryLabel(r.directory) },
    // Status and score first after the directory: with the five verdicts beside them they stay in
    // view at 1440 px, where the spec's order (URL first, status near the end) left them off screen.
    status: { label: 'Status', sortable: true, format: (r) => listingStatusLabel(r.listing_status) },
    score: { label: 'Score %', sortable: true, format: (r) => percent(r.score) },
    name_match: { label: 'Name match', format: (r) => matchLabel(r.name_match) },
    address_match: { label: 'Address match', format: (r) => matchLabel(r.address_match) },
    phone_match: { label: 'Phone match', format: (r) => matchLabel(r.phone_match) },
    website_match: { label: 'Website match', format: (r) => matchLabel(r.website_match) },
    hours_match: { label: 'Hours match', format: (r) => matchLabel(r.hours_match) },
    // The fields to fix in one cell: what a phone's card shows in place of the five match columns.
    mismatches: { label: 'Mismatched fields', format: mismatchesOf },
    listing_url: { label: 'Listing URL' },
    last_checked_at: { label: 'Last checked', sortable: true, format: (r) => exportMoment(r.last_checked_at, r.client_timezone) },
    client_name: { label: 'Client', defaultVisible: false },
  },
  filters: {
    client: {
      kind: 'multi',
      label: 'Clients',
      item: idFilterItem,
      all: ALL_CLIENTS,
      optionsPath: '/api/endpoints/client-options',
      emptyLabel: 'Current client',
    },
    location: { kind: 'multi', label: 'Locations', item: z.string().regex(LOCATION_ID), optionsPath: '/api/endpoints/options' },
    directory: { kind: 'multi', label: 'Directory', options: LISTING_DIRECTORIES },
    status: { kind: 'multi', label: 'Status', options: LISTING_STATUSES },
    /** `integer|between:0,100`: listings scored below N (its own schema below). */
    score_below: { kind: 'text', label: 'Score below', placeholder: 'e.g. 80', max: 3 },
  },
  defaultSort: { sort: 'location_name', order: 'asc' },
  search: 'Start of location name',
  card: { title: 'location_name', facts: ['directory', 'mismatches', 'score'] },
});

/** `integer|between:0,100`, the message naming the filter as it is labelled. */
const scoreBelow = z
  .string()
  .trim()
  .regex(/^\d{1,3}$/, { error: 'The Score below field must be an integer', abort: true })
  .transform(Number)
  .refine((n) => n <= 100, 'The Score below field must be between 0 and 100');

const filterShape = {
  client: z.union([z.literal(ALL_CLIENTS), multiValue(idFilterItem)]).optional(),
  location: multiValue(z.string().regex(LOCATION_ID)).optional(),
  directory: multiValue(z.enum(LISTING_DIRECTORIES.map((d) => d.value) as [ListingDirectory, ...ListingDirectory[]])).optional(),
  status: multiValue(z.enum(LISTING_STATUSES.map((s) => s.value) as [ListingStatus, ...ListingStatus[]])).optional(),
  score_below: scoreBelow.optional(),
};
const sortKeys = ['location_name', 'directory', 'score', 'status', 'last_checked_at'] as const;
const columnKeys = baseResource.columnKeys as [string, ...string[]];

/** The list query: the kit's paging, sort and search, the filters, Score below as a number. */
export type ListingListQuery = {
  sort?: (typeof sortKeys)[number];
  order?: 'asc' | 'desc';
  q?: string;
  perPage: number;
  cursor?: string;
  client?: string[] | typeof ALL_CLIENTS;
  location?: string[];
  directory?: ListingDirectory[];
  status?: ListingStatus[];
  score_below?: number;
};

export const listingResource = {
  ...baseResource,
  listQuerySchema: listQuerySchema(sortKeys, filterShape) as unknown as z.ZodType<ListingListQuery>,
  exportQuerySchema: listQuerySchema(sortKeys, {
    ...filterShape,
    columns: exportColumnsSchema(columnKeys).optional(),
  }) as unknown as z.ZodType<ListingListQuery & { columns?: string[] }>,
};

/** How forms and messages name the actions' fields. */
export const LISTING_ACTION_LABELS = {
  listing_url: 'Listing URL',
  note: 'Note',
  duplicate_of_id: 'Duplicate of',
  location_id: 'Location',
  updated_at: 'Last updated',
} as const;

/** Set listing URL: `url|max:2048` (the form and the server check the same rule). */
export const LISTING_URL_RULES = 'required|url|max:2048';
export const NOTE_MAX = 500;

export const listingUrlSchema = z.strictObject({ listing_url: z.string().max(5000).optional(), updated_at: versionStamp.optional() });
export const listingNoteSchema = z.strictObject({ note: z.string().max(5000).optional(), updated_at: versionStamp.optional() });
export const listingDuplicateSchema = z.strictObject({
  duplicate_of_id: z.number().int().min(1).max(2_147_483_647).nullable().optional(),
  updated_at: versionStamp.optional(),
});
export const listingVersionSchema = z.strictObject({ updated_at: versionStamp.optional() });
export const LISTING_ACTIONS = ['mine', 'not-mine', 'url', 'duplicate', 'updated'] as const;

/** Scan now: one location of the current client, or every active one when absent. */
export const listingScanRequestSchema = z.strictObject({ location_id: z.string().regex(LOCATION_ID).nullable().optional() });

export const LISTING_SCAN_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed'] as const;
export type ListingScanStatus = (typeof LISTING_SCAN_STATUSES)[number];
export const LISTING_SCAN_STATUS_LABELS: Record<ListingScanStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Finished',
  partial: 'Finished with failures',
  failed: 'Failed',
};

export const listingScanSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  location_id: z.string().nullable(),
  status: z.enum(LISTING_SCAN_STATUSES),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  error: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  created_at: z.string(),
});
export type ListingScan = z.infer<typeof listingScanSchema>;

/** The fix list's columns: one row per field that does not match. */
export const FIX_LIST_COLUMNS = [
  { key: 'location', label: 'Location' },
  { key: 'directory', label: 'Directory' },
  { key: 'listing_url', label: 'Listing URL' },
  { key: 'field', label: 'Field' },
  { key: 'canonical', label: 'Our value' },
  { key: 'found', label: 'Directory value' },
  { key: 'status', label: 'Status' },
  { key: 'last_checked', label: 'Last checked' },
] as const;
