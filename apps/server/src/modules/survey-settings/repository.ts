import {
  SURVEY_SETTINGS_DEFAULTS as D,
  isIdText,
  type OptionsAnswer,
  type OptionsQuery,
  SEND_DAYS,
  type SendDay,
  STATUSES,
  type Status,
  type SurveySettings,
  type SurveySettingsBody,
  type SurveySettingsListQuery,
  surveySettingsResource,
} from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client.ts';
import { clientSurveySettings, clients, surveys } from '../../db/schema/index.ts';
import {
  afterCursor,
  allOf,
  containsPattern,
  cursorFields,
  decodeCursor,
  inList,
  type KeyColumn,
  orderBy,
  pageOf,
} from '../../kit/keyset.ts';
import { countMatching } from '../../kit/totals.ts';

type Row = typeof clientSurveySettings.$inferSelect;
type Sort = NonNullable<SurveySettingsListQuery['sort']>;
const s = clientSurveySettings;

/** Sorts of the joined list; a client without settings sorts by the platform defaults. */
const SORTS: Record<Sort, KeyColumn> = {
  client_name: { expr: sql`lower(${clients.name})`, cast: 'text' },
  from_name: { expr: sql`lower(coalesce(${s.fromName}, ${clients.name}))`, cast: 'text' },
  domain_verified: { expr: sql`coalesce(${s.domainVerified}, false)::int`, cast: 'integer' },
  daily_cap_per_location: { expr: sql`coalesce(${s.dailyCapPerLocation}, ${D.daily_cap_per_location})`, cast: 'integer' },
  over_survey_days: { expr: sql`coalesce(${s.overSurveyDays}, ${D.over_survey_days})`, cast: 'integer' },
  status: { expr: sql`${clients.status}`, cast: 'text' },
};
const byId: KeyColumn = { expr: sql`${clients.id}`, cast: 'integer' };

const isStatus = (v: string): v is Status => STATUSES.some((x) => x === v);
const isDay = (v: string): v is SendDay => SEND_DAYS.some((x) => x === v);

/** The record of one client: its saved settings (with its default survey's name), or the platform defaults when it has none. */
export function toRecord(
  client: { id: number; name: string; status: string },
  row: Row | null,
  defaultSurveyName: string | null = null,
): SurveySettings {
  const status = isStatus(client.status) ? client.status : 'active';
  if (!row) {
    return {
      id: client.id,
      client_name: client.name,
      status,
      ...D,
      default_survey_name: null,
      from_name: client.name,
      send_days: [...D.send_days],
      domain_verified: false,
      domain_checked_at: null,
      customized: false,
      updated_at: '',
    };
  }
  return {
    id: client.id,
    client_name: client.name,
    status,
    from_name: row.fromName,
    from_email: row.fromEmail,
    reply_to: row.replyTo,
    sending_domain: row.sendingDomain,
    domain_verified: row.domainVerified,
    domain_checked_at: row.domainCheckedAt?.toISOString() ?? null,
    quiet_hours_start: row.quietHoursStart,
    quiet_hours_end: row.quietHoursEnd,
    send_days: row.sendDays.filter(isDay),
    daily_cap_per_location: row.dailyCapPerLocation,
    over_survey_days: row.overSurveyDays,
    default_survey_id: row.defaultSurveyId,
    default_survey_name: row.defaultSurveyId === null ? null : defaultSurveyName,
    logo_url: row.logoUrl,
    brand_color: row.brandColor,
    sms_sender: row.smsSender,
    sms_enabled: row.smsEnabled,
    tcpa_consent_source: row.tcpaConsentSource,
    unsubscribe_footer: row.unsubscribeFooter,
    customized: true,
    updated_at: row.updatedAt.toISOString(),
  };
}

function where(q: SurveySettingsListQuery): SQL | undefined {
  const like = containsPattern(q.q);
  const clientIds = Array.isArray(q.client) ? q.client.map(Number) : undefined;
  return allOf([
    inList(sql`${clients.id}`, clientIds),
    inList(sql`${clients.status}`, q.status),
    q.verified === undefined ? undefined : sql`coalesce(${s.domainVerified}, false) = ${q.verified === 'yes'}`,
    like
      ? sql`(${clients.name} ilike ${like} or ${s.fromName} ilike ${like} or ${s.fromEmail} ilike ${like} or ${s.sendingDomain} ilike ${like})`
      : undefined,
  ]);
}

/** A page of clients with their settings (one row per client, the defaults where none are saved). */
export async function listPage(db: Db, q: SurveySettingsListQuery, limit: number) {
  const keys = [SORTS[q.sort ?? 'client_name'], byId];
  const order = q.order ?? (q.sort ? 'asc' : surveySettingsResource.defaultSort.order);
  const rows = await db
    .select({ client: { id: clients.id, name: clients.name, status: clients.status }, row: s, survey: surveys.name, ...cursorFields(keys) })
    .from(clients)
    .leftJoin(s, eq(s.clientId, clients.id))
    .leftJoin(surveys, eq(surveys.id, s.defaultSurveyId))
    .where(allOf([where(q), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]))
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return { rows: page.map((r) => toRecord(r.client, r.row, r.survey)), nextCursor };
}

export function countPage(db: Db, q: SurveySettingsListQuery) {
  const condition = where(q);
  return countMatching(
    db,
    sql`from ${clients} left join ${s} on ${s.clientId} = ${clients.id}${condition ? sql` where ${condition}` : sql``}`,
  );
}

/**
 * One client, its saved settings row (null when it has none) and its default survey's name;
 * undefined when the client does not exist.
 */
export async function findOne(db: Db, clientId: number, lock = false) {
  const query = db
    .select({ client: { id: clients.id, name: clients.name, status: clients.status }, row: s, survey: surveys.name })
    .from(clients)
    .leftJoin(s, eq(s.clientId, clients.id))
    .leftJoin(surveys, eq(surveys.id, s.defaultSurveyId))
    .where(eq(clients.id, clientId));
  const [found] = lock ? await query.for('update', { of: clients }) : await query;
  return found;
}

/** The record of what `findOne` found. */
export const recordOf = (found: NonNullable<Awaited<ReturnType<typeof findOne>>>) => toRecord(found.client, found.row, found.survey);

/**
 * The client's surveys that are not archived as options of the Default survey select
 * (`GET /api/surveys-admin/:id/survey-options`): by name, at most `perPage` matching `q`, then the
 * chosen ones whatever their status, so their labels show.
 */
export async function surveyOptions(db: Db, clientId: number, q: OptionsQuery): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const select = (where: SQL | undefined) =>
    db
      .select({ value: sql<string>`${surveys.id}::text`, label: surveys.name })
      .from(surveys)
      .where(allOf([sql`${surveys.clientId} = ${clientId}`, where]))
      .orderBy(sql`lower(${surveys.name})`, surveys.id);
  const rows = await select(allOf([sql`${surveys.status} <> 'inactive'`, like ? sql`${surveys.name} ilike ${like}` : undefined])).limit(
    q.perPage + 1,
  );
  const found = rows.slice(0, q.perPage);
  const missing = (q.value ?? []).filter((v) => isIdText(v) && !found.some((r) => r.value === v)).map(Number);
  return {
    data: [...found, ...(missing.length > 0 ? await select(inList(sql`${surveys.id}`, missing)) : [])],
    more: rows.length > q.perPage,
  };
}

/** Whether a survey is the client's and not archived (what a default survey must be). */
export async function isActiveSurveyOf(db: Db, clientId: number, surveyId: number): Promise<boolean> {
  const [found] = await db
    .select({ id: surveys.id })
    .from(surveys)
    .where(allOf([sql`${surveys.id} = ${surveyId}`, sql`${surveys.clientId} = ${clientId}`, sql`${surveys.status} <> 'inactive'`]))
    .limit(1);
  return found !== undefined;
}

/** A domain as DNS compares it: lower case, no final dot. */
const domainOf = (v: string | null | undefined) => (typeof v === 'string' ? v.toLowerCase().replace(/\.$/, '') : v);

/** Column values from a body (text trimmed, empty text as null); only the fields present. */
export function valuesOf(body: Partial<SurveySettingsBody>): Partial<typeof s.$inferInsert> {
  const text = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());
  const values: Partial<typeof s.$inferInsert> = {
    fromName: text(body.from_name) ?? undefined,
    fromEmail: text(body.from_email) ?? undefined,
    replyTo: text(body.reply_to),
    sendingDomain: domainOf(text(body.sending_domain)),
    quietHoursStart: text(body.quiet_hours_start) ?? undefined,
    quietHoursEnd: text(body.quiet_hours_end) ?? undefined,
    sendDays: body.send_days ? SEND_DAYS.filter((d) => body.send_days?.includes(d)) : undefined,
    dailyCapPerLocation: body.daily_cap_per_location ?? undefined,
    overSurveyDays: body.over_survey_days ?? undefined,
    defaultSurveyId: body.default_survey_id,
    logoUrl: text(body.logo_url),
    brandColor: text(body.brand_color),
    smsSender: text(body.sms_sender),
    smsEnabled: body.sms_enabled ?? undefined,
    tcpaConsentSource: text(body.tcpa_consent_source),
    unsubscribeFooter: text(body.unsubscribe_footer) ?? undefined,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A client's survey settings as other modules reach them (Send test, Preview, the send engine):
     * its saved row, or the platform defaults when it never saved any; undefined for no such client.
     */
    surveySettings: { of(clientId: number): Promise<SurveySettings | undefined> };
  }
}

/** `app.surveySettings` on a given database: the send engine's outside the app (`npm run worker`, the demo seed) too. */
export function surveySettingsOn(db: Db): FastifyInstance['surveySettings'] {
  return {
    of: async (clientId: number) => {
      const found = await findOne(db, clientId);
      return found ? recordOf(found) : undefined;
    },
  };
}

export const surveySettingsRepository = fp(
  async (app) => {
    app.decorate('surveySettings', surveySettingsOn(app.db));
  },
  { name: 'survey-settings-repository', dependencies: ['db'] },
);
