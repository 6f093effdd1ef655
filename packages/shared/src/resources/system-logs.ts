import { z } from 'zod';
import { idFilterItem } from '../api/ids.ts';
import { defineResource } from '../api/resource.ts';

/**
 * System Logs (docs/screens.md, System Logs): the application and audit log. Read-only: no fields,
 * so nothing is created or edited. The definition drives the API's query validation, the table's
 * columns, the filters and the CSV headers; every column shows the record's own value, which the
 * list and the export both write in SQL (ISO times, `type#id` entities).
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LOG_SERVICES = [
  'api',
  'auth',
  'feed-worker',
  'sender',
  'reputation-sync',
  'listings-scan',
  'reports',
  'housekeeping',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const systemLogSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  level: z.enum(LOG_LEVELS),
  service: z.string(),
  action: z.string(),
  message: z.string(),
  actor_user_id: z.number().int().nullable(),
  actor_name: z.string().nullable(),
  client_id: z.number().int().nullable(),
  client_name: z.string().nullable(),
  /** The client's time zone (IANA): its times are shown in it (formatMoment). */
  client_timezone: z.string().nullable(),
  entity: z.string().nullable(),
  entity_type: z.string().nullable(),
  entity_id: z.string().nullable(),
  request_id: z.string().nullable(),
  ip: z.string().nullable(),
});
export type SystemLog = z.infer<typeof systemLogSchema>;

/** The detail panel adds the before/after of an audited change. */
export const systemLogDetailSchema = systemLogSchema.extend({ before: z.unknown(), after: z.unknown() });
export type SystemLogDetail = z.infer<typeof systemLogDetailSchema>;

/** A user's or a client's id, checked as ids are (digits, within range) and kept as the text it was. */

export const systemLogResource = defineResource({
  name: 'system_log',
  plural: 'system logs',
  path: '/api/system-logs',
  screen: 'system-logs',
  // Every client's entries; the Clients filter narrows them.
  scope: 'filterable-clients',
  record: systemLogSchema,
  fields: {},
  columns: {
    at: { label: 'Time', sortable: true },
    level: { label: 'Level', sortable: true },
    service: { label: 'Service', sortable: true },
    action: { label: 'Event' },
    message: { label: 'Message' },
    actor_name: { label: 'Actor' },
    client_name: { label: 'Client' },
    entity: { label: 'Entity', defaultVisible: false },
    request_id: { label: 'Request id', defaultVisible: false },
    ip: { label: 'IP', defaultVisible: false },
  },
  filters: {
    // Warnings and errors are what staff come here for (docs/screens.md); "Selected All" shows everything.
    level: { kind: 'multi', label: 'Level', options: LOG_LEVELS.map((l) => ({ value: l, label: l })), default: ['warn', 'error'] },
    service: { kind: 'multi', label: 'Service', options: LOG_SERVICES.map((s) => ({ value: s, label: s })) },
    actor: { kind: 'multi', label: 'Users', item: idFilterItem },
    client: { kind: 'multi', label: 'Clients', item: idFilterItem },
    entityType: { kind: 'text', label: 'Entity type', placeholder: 'e.g. client', max: 40 },
    date: { kind: 'dateRange', label: 'Date range' },
  },
  defaultSort: { sort: 'at', order: 'desc' },
  search: 'Message, event or request id',
  card: { title: 'message', facts: ['at', 'level', 'service'] },
});

export type SystemLogListQuery = z.infer<typeof systemLogResource.listQuerySchema>;
export type SystemLogColumnKey = (typeof systemLogResource.columnKeys)[number];
