import {
  checkSmsTemplateBody,
  countSms,
  hasOptOut,
  isIdText,
  type OptionsAnswer,
  type OptionsQuery,
  type SmsTemplate,
  type SmsTemplateCreate,
  type SmsTemplateListQuery,
  smsTemplateResource,
} from '@admin/shared';
import { and, asc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { smsTemplates } from '../../db/schema/index.ts';
import { containsPattern } from '../../kit/keyset.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { tableStore } from '../../kit/table-store.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

export type SmsTemplateRow = typeof smsTemplates.$inferSelect;

export function toSmsTemplate(row: SmsTemplateRow, clientName: string | null = null): SmsTemplate {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: row.clientId === null ? 'Global default' : clientName,
    name: row.name,
    purpose: row.purpose as SmsTemplate['purpose'],
    language: row.language as SmsTemplate['language'],
    body: row.body,
    encoding: row.encoding as SmsTemplate['encoding'],
    length: countSms(row.body).characters,
    segments: row.segments,
    has_opt_out: row.hasOptOut,
    status: row.status as SmsTemplate['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The columns computed from a message: stored so the list filters and sorts on them. */
export function computedColumns(body: string) {
  const count = countSms(body);
  return { encoding: count.encoding, segments: count.segments, hasOptOut: hasOptOut(body) };
}

const base = tableStore<SmsTemplate, SmsTemplateRow, SmsTemplateCreate, SmsTemplateListQuery>({
  table: smsTemplates,
  def: smsTemplateResource,
  toRecord: toSmsTemplate,
  sorts: {
    name: { expr: sql`lower(${smsTemplates.name})`, cast: 'text' },
    purpose: { expr: sql`${smsTemplates.purpose}`, cast: 'text' },
    language: { expr: sql`${smsTemplates.language}`, cast: 'text' },
    encoding: { expr: sql`${smsTemplates.encoding}`, cast: 'text' },
    segments: { expr: sql`${smsTemplates.segments}`, cast: 'integer' },
    status: { expr: sql`${smsTemplates.status}`, cast: 'text' },
    updated_at: { expr: sql`${smsTemplates.updatedAt}`, cast: 'timestamptz' },
  },
  search: [smsTemplates.name, smsTemplates.body],
  filterColumns: {
    status: smsTemplates.status,
    purpose: smsTemplates.purpose,
    language: smsTemplates.language,
    encoding: smsTemplates.encoding,
  },
  isGlobal: (body) => body.global === true,
});

/**
 * SMS templates of the current client and the global defaults: the table store, plus the
 * compliance rules (they read purpose and body together, so a change to either is checked with
 * the other's stored value) and the computed columns written with every new body.
 */
export const smsTemplateStore: ResourceStore<SmsTemplate, SmsTemplateRow, SmsTemplateCreate, SmsTemplateListQuery> = {
  ...base,
  values(body, at) {
    const values = base.values(body, at);
    return typeof values.body === 'string' ? { ...values, ...computedColumns(values.body) } : values;
  },
  async check(_db, body, before) {
    if (body.purpose === undefined && body.body === undefined) return;
    const purpose = body.purpose ?? before?.purpose;
    const text = (body.body ?? before?.body ?? '').trim();
    const { errors } = checkSmsTemplateBody(purpose, text);
    if (errors.length > 0) throw fieldsRefused({ body: errors }, smsTemplateResource.labels);
  },
};

/**
 * The SMS templates a survey of this client may use, as options (`GET /api/sms-templates/options`):
 * the client's own and the global defaults (the survey's check accepts no other), active ones by
 * name, at most `perPage` matching `q`, then the chosen ones whatever their status, so a survey's
 * paused template still shows its name. A global default is named so.
 */
export async function smsTemplateOptions(db: Db, clientId: number, q: OptionsQuery): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const usable = or(eq(smsTemplates.clientId, clientId), isNull(smsTemplates.clientId));
  const select = (where: SQL | undefined) =>
    db
      .select({ id: smsTemplates.id, name: smsTemplates.name, clientId: smsTemplates.clientId })
      .from(smsTemplates)
      .where(and(usable, where))
      .orderBy(sql`lower(${smsTemplates.name})`, asc(smsTemplates.id));
  const active = and(eq(smsTemplates.status, 'active'), like ? sql`${smsTemplates.name} ilike ${like}` : undefined);
  const rows = await select(active).limit(q.perPage + 1);
  const found = rows.slice(0, q.perPage);
  // Only values an id can hold are looked up: anything else chosen matches no template.
  const missing = (q.value ?? [])
    .filter(isIdText)
    .map(Number)
    .filter((id) => !found.some((f) => f.id === id));
  const chosen = missing.length > 0 ? await select(inArray(smsTemplates.id, missing)) : [];
  return {
    data: [...found, ...chosen].map((t) => ({ value: String(t.id), label: t.clientId === null ? `${t.name} (global)` : t.name })),
    more: rows.length > q.perPage,
  };
}
