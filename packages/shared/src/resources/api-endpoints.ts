import { z } from 'zod';
import { bodyId } from '../api/ids.ts';
import { defineResource, type Option, statusFilter, statusLabel } from '../api/resource.ts';
import { versionStamp } from '../api/status.ts';
import { STATUSES } from '../constants.ts';
import { FEED_FIELDS, PAYLOAD_FORMATS } from '../pipeline/enums.ts';
import { allowedIpsSchema } from './api-tokens.ts';
import { feedValidationSchema } from './data-feeds.ts';
import { locationResource } from './locations.ts';

/**
 * API Managers (`/admin/api-managers`): one ingest endpoint per location (the location's `_id` is
 * the endpoint id; `GET /api/endpoints` stays the original console's locations call). Its settings live in
 * `endpoint_configs`; saving them makes or updates the endpoint's `api` data feed, so every call
 * runs through the feed machinery (runs, row errors, Survey Manager Logs).
 */

/** The ingest route of one endpoint (docs/pipeline.md, Public surfaces). */
export const ingestPath = (locationId: string) => `/api/v1/endpoints/${locationId}/transactions`;

/** The fields an API row is named by: the feed fields less the location (the endpoint is the location). */
export const API_ROW_FIELDS = FEED_FIELDS.filter((f) => f !== 'location_code');

export const PAYLOAD_FORMAT_OPTIONS: Option[] = [
  { value: 'json', label: 'JSON array of rows' },
  { value: 'csv', label: 'CSV with a header row' },
];

export const RATE_LIMIT_DEFAULT = 60;

/** Days an ingest call stays in the call log (recent calls, Calls 24h) before the worker prunes it. */
export const API_CALL_LOG_RETENTION_DAYS = 30;

/**
 * What a save does with the endpoint's webhook secret: nothing (the default), make a new one
 * (shown once; it replaces any old one), or remove it. No endpoint has one until asked.
 */
export const WEBHOOK_SECRET_ACTIONS = ['keep', 'new', 'remove'] as const;
export type WebhookSecretAction = (typeof WEBHOOK_SECRET_ACTIONS)[number];

export const apiEndpointSchema = z.object({
  _id: z.string(),
  locationname: z.string(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  ingest_path: z.string(),
  /** Whether the endpoint has been set up (saved once); an unset location answers every call with 404. */
  configured: z.boolean(),
  survey_id: z.number().int().nullable(),
  survey_name: z.string().nullable(),
  data_feed_id: z.number().int().nullable(),
  token_id: z.number().int().nullable(),
  token_name: z.string().nullable(),
  allowed_ips: z.array(z.string()),
  payload_format: z.enum(PAYLOAD_FORMATS),
  rate_limit_per_min: z.number().int(),
  has_webhook_secret: z.boolean(),
  calls_24h: z.number().int(),
  errors_24h: z.number().int(),
  last_call_at: z.string().nullable(),
  status: z.enum(STATUSES),
  /** The settings' version stamp; absent until the endpoint is set up. */
  updated_at: z.string().optional(),
});
export type ApiEndpoint = z.infer<typeof apiEndpointSchema>;

export const apiEndpointResource = defineResource({
  name: 'api_endpoint',
  noun: 'API endpoint',
  path: '/api/api-endpoints',
  id: '_id',
  screen: 'api-managers',
  scope: 'filterable-clients',
  record: apiEndpointSchema,
  fields: {
    survey_id: { label: 'Survey', input: 'select', rules: 'required', schema: bodyId.nullable().optional() },
    token_id: { label: 'Token', input: 'select', schema: bodyId.nullable().optional() },
    allowed_ips: { label: 'Allowed IPs', default: [], schema: allowedIpsSchema.optional() },
    payload_format: {
      label: 'Payload format',
      input: 'select',
      options: PAYLOAD_FORMAT_OPTIONS,
      default: 'json',
      rules: { required: true, included: [...PAYLOAD_FORMATS] },
    },
    rate_limit_per_min: {
      label: 'Rate limit per minute',
      rules: 'required|integer|between:1,6000',
      default: String(RATE_LIMIT_DEFAULT),
      schema: z.union([z.number(), z.string().max(20)]).optional(),
    },
  },
  columns: {
    _id: { label: 'Endpoint id', defaultVisible: false },
    locationname: { label: 'Location', sortable: true },
    client_name: { label: 'Client' },
    ingest_path: { label: 'Ingest URL', format: (r) => `POST ${r.ingest_path}` },
    survey_name: { label: 'Linked survey' },
    token_name: {
      label: 'Auth (token)',
      format: (r) =>
        r.configured ? `${r.token_name ?? 'Any token with feeds:write'}${r.has_webhook_secret ? ' or its webhook secret' : ''}` : null,
    },
    allowed_ips: { label: 'Allowed IPs', format: (r) => r.allowed_ips.join(', '), defaultVisible: false },
    calls_24h: { label: 'Calls 24h' },
    errors_24h: { label: 'Errors 24h' },
    last_call_at: { label: 'Last call' },
    status: { label: 'Status', sortable: true, format: (r) => (r.configured ? statusLabel(r.status) : 'Not set up') },
  },
  filters: {
    // Locations' Clients filter: every client with `all`, the current one when empty.
    client: locationResource.filters.client,
    status: statusFilter,
    has_errors: { kind: 'choice', label: 'Errors in 24h', checkbox: true, options: [{ value: 'yes', label: 'Errors in 24h' }] },
  },
  defaultSort: { sort: 'locationname', order: 'asc' },
  search: 'Location name or endpoint id',
  statusEffects: {
    paused: 'Calls to the endpoint are answered 423 (Locked) until it is resumed.',
    inactive: 'The endpoint is archived: calls are refused and it is hidden by default.',
  },
});

export type ApiEndpointBody = z.infer<typeof apiEndpointResource.createSchema>;
export type ApiEndpointListQuery = z.infer<typeof apiEndpointResource.listQuerySchema>;

/** The save's fields as its form labels them: the definition's, and the webhook secret's choice. */
export const API_ENDPOINT_SAVE_LABELS = {
  ...apiEndpointResource.labels,
  webhook_secret_action: 'Webhook secret',
} as const satisfies Record<string, string>;

/**
 * `PUT /api/api-endpoints/:id`: the settings, what to do with the webhook secret (nothing unless
 * asked), and the version edited (`updated_at`: required once the endpoint is set up; the first
 * save has none).
 */
const fields = apiEndpointResource.fields;
export const apiEndpointSaveSchema = z.strictObject({
  survey_id: fields.survey_id.schema,
  token_id: fields.token_id.schema,
  allowed_ips: fields.allowed_ips.schema,
  payload_format: z.string().max(20).nullable().optional(),
  rate_limit_per_min: fields.rate_limit_per_min.schema,
  webhook_secret_action: z
    .enum(WEBHOOK_SECRET_ACTIONS, `The ${API_ENDPOINT_SAVE_LABELS.webhook_secret_action} field must be keep, new or remove`)
    .optional(),
  updated_at: versionStamp,
});
export type ApiEndpointSave = z.infer<typeof apiEndpointSaveSchema>;

/** The save's answer: the row, and the webhook secret when one was made (shown once, stored hashed). */
export const apiEndpointSavedSchema = z.object({ endpoint: apiEndpointSchema, webhook_secret: z.string().nullable() });

/** One call of an endpoint, for its recent calls. */
export const apiCallSchema = z.object({
  id: z.number().int(),
  received_at: z.string(),
  ip: z.string(),
  status_code: z.number().int(),
  rows_accepted: z.number().int(),
  rows_rejected: z.number().int(),
  run_id: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type ApiCall = z.infer<typeof apiCallSchema>;

/** What an ingest call answers: each row accepted (with its processing item) or rejected with reasons. */
export const ingestResultSchema = z.object({
  run_id: z.number().int().nullable(),
  accepted: z.array(
    z.object({ row: z.number().int(), processing_item_id: z.number().int(), status: z.string(), reason: z.string().nullable() }),
  ),
  rejected: z.array(z.object({ row: z.number().int(), errors: z.array(z.object({ field: z.string().nullable(), message: z.string() })) })),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

/** Send test payload's answer: the row sent and what the endpoint's feed made of it (a dry run). */
export const apiEndpointTestSchema = z.object({ payload: z.array(z.record(z.string(), z.string())), result: feedValidationSchema });

/** The sample row of Send test payload and of the screen's example call. */
export const SAMPLE_INGEST_ROW: Record<string, string> = {
  first_name: 'Taylor',
  last_name: 'Sample',
  email: 'taylor.sample@example.com',
  phone: '',
  transaction_id: 'TEST-0001',
  transaction_date: '2026-01-15',
};
