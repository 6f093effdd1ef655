import { z } from 'zod';
import { idText } from '../api/ids.ts';
import { type ColumnDef, exportColumnsSchema, isoDate, listQuerySchema, multiValue } from '../api/list.ts';

/**
 * System Logs (docs/screens.md, System Logs): the application and audit log. Read-only. This one definition
 * drives the API's query validation, the table's columns and the CSV headers.
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LOG_SERVICES = ['api', 'auth', 'feed-worker', 'sender', 'reputation-sync', 'listings-scan', 'reports'] as const;
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
  entity: z.string().nullable(),
  entity_type: z.string().nullable(),
  entity_id: z.string().nullable(),
  request_id: z.string().nullable(),
  ip: z.string().nullable(),
});
export type SystemLog = z.infer<typeof systemLogSchema>;

/** The detail drawer adds the before/after of an audited change. */
export const systemLogDetailSchema = systemLogSchema.extend({ before: z.unknown(), after: z.unknown() });
export type SystemLogDetail = z.infer<typeof systemLogDetailSchema>;

export const SYSTEM_LOG_COLUMN_KEYS = [
  'at',
  'level',
  'service',
  'action',
  'message',
  'actor_name',
  'client_name',
  'entity',
  'request_id',
  'ip',
] as const;
export type SystemLogColumnKey = (typeof SYSTEM_LOG_COLUMN_KEYS)[number];

export const systemLogColumns: ColumnDef<SystemLogColumnKey>[] = [
  { key: 'at', label: 'Time', sortable: true, defaultVisible: true },
  { key: 'level', label: 'Level', sortable: true, defaultVisible: true },
  { key: 'service', label: 'Service', sortable: true, defaultVisible: true },
  { key: 'action', label: 'Event', defaultVisible: true },
  { key: 'message', label: 'Message', defaultVisible: true },
  { key: 'actor_name', label: 'Actor', defaultVisible: true },
  { key: 'client_name', label: 'Client', defaultVisible: true },
  { key: 'entity', label: 'Entity', defaultVisible: false },
  { key: 'request_id', label: 'Request id', defaultVisible: false },
  { key: 'ip', label: 'IP', defaultVisible: false },
];

export const SYSTEM_LOG_SORTS = ['at', 'level', 'service'] as const;

const positiveId = idText;

export const systemLogFilters = {
  level: multiValue(z.enum(LOG_LEVELS)).optional(),
  service: multiValue(z.string().max(40)).optional(),
  actor: multiValue(positiveId).optional(),
  client: multiValue(positiveId).optional(),
  entityType: z.string().trim().max(40).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
};

export const systemLogListQuerySchema = listQuerySchema(SYSTEM_LOG_SORTS, systemLogFilters);
export type SystemLogListQuery = z.infer<typeof systemLogListQuerySchema>;

export const systemLogExportQuerySchema = listQuerySchema(SYSTEM_LOG_SORTS, {
  ...systemLogFilters,
  columns: exportColumnsSchema(SYSTEM_LOG_COLUMN_KEYS).optional(),
});
