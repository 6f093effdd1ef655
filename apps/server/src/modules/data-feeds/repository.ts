import {
  checkFeed,
  type DataFeed,
  type DataFeedBody,
  type DataFeedListQuery,
  dataFeedResource,
  FEED_DATE_FORMATS,
  FEED_DELIMITERS,
  FEED_FIELDS,
  FEED_LOCATION_MODES,
  FEED_SOURCE_TYPES,
  FEED_TRIGGER_EVENTS,
  type FeedMapping,
  IDENTITY_MAPPING,
} from '@admin/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, dataFeedRuns, dataFeeds, locations, surveys } from '../../db/schema/index.ts';
import { clientScopeOf, inClientScope } from '../../kit/current-client.ts';
import { allOf, containsPattern, inList, type KeyColumn } from '../../kit/keyset.ts';
import { keysetPage, resourceSort, whereClause } from '../../kit/keyset-page.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { countMatching } from '../../kit/totals.ts';
import { fieldsRefused, notFound } from '../../lib/http-error.ts';
import { sftpHostRefusal } from '../../lib/outbound-address.ts';
import { CronError, parseCron } from '../../pipeline/ingest/cron.ts';
import type { DataFeedRow } from '../../pipeline/ingest/run.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';

type Joined = { clientName: string | null; clientTimezone?: string | null; surveyName: string | null; locationName: string | null };
type LastRun = NonNullable<DataFeed['last_run']>;
const NONE: Joined = { clientName: null, surveyName: null, locationName: null };

export function toDataFeed(row: DataFeedRow, joined: Joined = NONE, lastRun: LastRun | null = null): DataFeed {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: joined.clientName,
    client_timezone: joined.clientTimezone ?? null,
    name: row.name,
    source_type: row.sourceType,
    vendor: row.vendor,
    trigger_event: row.triggerEvent,
    survey_id: row.surveyId,
    survey_name: joined.surveyName,
    location_mode: row.locationMode,
    location_id: row.locationId,
    location_name: joined.locationName,
    schedule_cron: row.scheduleCron,
    sftp_host: row.sftpHost,
    sftp_port: row.sftpPort,
    sftp_path: row.sftpPath,
    sftp_username: row.sftpUsername,
    sftp_password_set: row.sftpPasswordEnc !== null,
    file_name_pattern: row.filePattern,
    delimiter: row.delimiter,
    has_header: row.hasHeader,
    date_format: row.dateFormat,
    field_mapping: row.fieldMapping,
    allowed_ips: row.allowedIps,
    last_run_at: row.lastRunAt?.toISOString() ?? null,
    last_received: row.lastReceived,
    last_run: lastRun,
    last_error: row.lastError,
    last_error_at: row.lastErrorAt?.toISOString() ?? null,
    status: row.status as DataFeed['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The latest run of each feed. */
async function lastRuns(db: Db, ids: number[]): Promise<Map<number, LastRun>> {
  const found = new Map<number, LastRun>();
  if (ids.length === 0) return found;
  const rows = await db
    .selectDistinctOn([dataFeedRuns.dataFeedId], {
      feedId: dataFeedRuns.dataFeedId,
      id: dataFeedRuns.id,
      status: dataFeedRuns.status,
      startedAt: dataFeedRuns.startedAt,
      read: dataFeedRuns.rowsRead,
      accepted: dataFeedRuns.rowsAccepted,
      skipped: dataFeedRuns.rowsSkipped,
      invalid: dataFeedRuns.rowsInvalid,
    })
    .from(dataFeedRuns)
    .where(inArray(dataFeedRuns.dataFeedId, ids))
    .orderBy(dataFeedRuns.dataFeedId, sql`${dataFeedRuns.startedAt} desc`, sql`${dataFeedRuns.id} desc`);
  for (const r of rows) {
    found.set(r.feedId, {
      id: r.id,
      status: r.status,
      started_at: r.startedAt.toISOString(),
      rows_read: r.read,
      rows_accepted: r.accepted,
      rows_skipped: Object.values(r.skipped).reduce((a, b) => a + b, 0),
      rows_invalid: r.invalid,
    });
  }
  return found;
}

const joinedSelect = {
  row: dataFeeds,
  clientName: clients.name,
  clientTimezone: clients.timezone,
  surveyName: surveys.name,
  locationName: locations.locationname,
};

/** One feed with its client's, survey's and location's names and its last run. */
export async function loadDataFeed(db: Db, id: number): Promise<DataFeed> {
  const [found] = await db
    .select(joinedSelect)
    .from(dataFeeds)
    .leftJoin(clients, eq(clients.id, dataFeeds.clientId))
    .leftJoin(surveys, eq(surveys.id, dataFeeds.surveyId))
    .leftJoin(locations, eq(locations.id, dataFeeds.locationId))
    .where(eq(dataFeeds.id, id))
    .limit(1);
  if (!found) throw notFound('Feed');
  return toDataFeed(found.row, found, (await lastRuns(db, [id])).get(id) ?? null);
}

const SORTS: Record<NonNullable<DataFeedListQuery['sort']>, KeyColumn> = {
  name: { expr: sql`lower(${dataFeeds.name})`, cast: 'text' },
  source_type: { expr: sql`${dataFeeds.sourceType}`, cast: 'text' },
  // Never-run feeds sort first (oldest).
  last_received: { expr: sql`coalesce(${dataFeeds.lastRunAt}, '-infinity'::timestamptz)`, cast: 'timestamptz' },
  status: { expr: sql`${dataFeeds.status}`, cast: 'text' },
  updated_at: { expr: sql`${dataFeeds.updatedAt}`, cast: 'timestamptz' },
};
const byId: KeyColumn = { expr: sql`${dataFeeds.id}`, cast: 'integer' };

type Filters = Omit<DataFeedListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

function where(q: Filters, clientId: number | null): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inClientScope(dataFeeds.clientId, clientScopeOf(q.client, clientId)),
    inList(sql`${dataFeeds.sourceType}`, q.source_type),
    inList(sql`${dataFeeds.surveyId}`, q.survey?.map(Number)),
    inList(sql`${dataFeeds.status}`, q.status),
    like ? sql`(${dataFeeds.name} ilike ${like} or ${dataFeeds.vendor} ilike ${like})` : undefined,
    q.has_errors === 'yes'
      ? sql`(select r.rows_invalid > 0 or r.status = 'failed' from ${dataFeedRuns} r where r.data_feed_id = ${dataFeeds.id}
          order by r.started_at desc, r.id desc limit 1)`
      : undefined,
  ]);
}

async function listFeeds(db: Db, q: DataFeedListQuery, clientId: number | null, limit: number) {
  const sort = resourceSort(SORTS, byId, q, { sort: 'name', order: dataFeedResource.defaultSort.order });
  const { page, nextCursor } = await keysetPage({ ...sort, where: where(q, clientId), cursor: q.cursor, limit }, (p) =>
    db
      .select({ ...joinedSelect, ...p.fields })
      .from(dataFeeds)
      .leftJoin(clients, eq(clients.id, dataFeeds.clientId))
      .leftJoin(surveys, eq(surveys.id, dataFeeds.surveyId))
      .leftJoin(locations, eq(locations.id, dataFeeds.locationId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  const runs = await lastRuns(
    db,
    page.map((r) => r.row.id),
  );
  return { rows: page.map((r) => toDataFeed(r.row, r, runs.get(r.row.id) ?? null)), nextCursor };
}

function countFeeds(db: Db, q: DataFeedListQuery, clientId: number | null) {
  return countMatching(db, sql`from ${dataFeeds}${whereClause(where(q, clientId))}`);
}

/** A mapping with its column names trimmed and unmapped fields left out. */
export function cleanMapping(mapping: FeedMapping): FeedMapping {
  const clean: FeedMapping = {};
  for (const field of FEED_FIELDS) {
    const column = mapping[field]?.trim();
    if (column) clean[field] = column;
  }
  return clean;
}

/** A value of a closed list (the field rules checked it), typed as the column is. */
const pick = <T extends string>(list: readonly T[], value: string | null | undefined): T | undefined => list.find((v) => v === value);

const noSecretKey = () =>
  fieldsRefused(
    { sftp_password: ['The server has no SECRET_KEY to encrypt the SFTP password with: set SECRET_KEY, then save it again'] },
    dataFeedResource.labels,
  );

/**
 * Feeds of the current client or of the clients chosen in the filter. The store checks what the
 * field rules cannot (`checkFeed` on the feed as it will be saved, the survey and fixed location
 * being the client's, a schedule the matcher reads, an SFTP host on a public address unless
 * `allowPrivateHosts` — config `sftpAllowPrivate`) and keeps the SFTP password encrypted: a blank
 * password on edit keeps the stored one.
 */
export function dataFeedStore(
  secrets: SecretBox,
  outbound: { allowPrivateHosts: boolean } = { allowPrivateHosts: false },
): ResourceStore<DataFeed, DataFeedRow, DataFeedBody, DataFeedListQuery, number | null> {
  return {
    table: dataFeeds,
    toRecord: (row, clientName) => toDataFeed(row, { ...NONE, clientName: clientName ?? null }),
    list: listFeeds,
    count: countFeeds,
    values(body, at) {
      const text = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());
      let passwordEnc: string | null | undefined;
      const password = body.sftp_password;
      if (typeof password === 'string' && password !== '') {
        passwordEnc = secrets.encrypt(password);
        if (passwordEnc === null) throw noSecretKey();
      }
      const values: Partial<typeof dataFeeds.$inferInsert> = {
        name: body.name?.trim(),
        sourceType: pick(FEED_SOURCE_TYPES, body.source_type),
        vendor: text(body.vendor),
        triggerEvent: pick(FEED_TRIGGER_EVENTS, body.trigger_event),
        surveyId: body.survey_id ?? undefined,
        locationMode: pick(FEED_LOCATION_MODES, body.location_mode),
        // A feed whose locations come from a column keeps no fixed location.
        locationId: body.location_mode === 'column' ? null : text(body.location_id),
        scheduleCron: text(body.schedule_cron),
        sftpHost: text(body.sftp_host),
        sftpPort: body.sftp_port ?? undefined,
        sftpPath: text(body.sftp_path),
        sftpUsername: text(body.sftp_username),
        sftpPasswordEnc: passwordEnc,
        filePattern: text(body.file_name_pattern),
        delimiter: pick(FEED_DELIMITERS, body.delimiter),
        hasHeader: body.has_header,
        dateFormat: pick(FEED_DATE_FORMATS, body.date_format),
        // A new feed without a mapping reads the sample template's headers (the fields' own names).
        fieldMapping: body.field_mapping ? cleanMapping(body.field_mapping) : at?.before ? undefined : IDENTITY_MAPPING,
        allowedIps: body.allowed_ips?.map((ip) => ip.trim()).filter((ip) => ip !== ''),
      };
      return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
    },
    async check(db, body, before, request) {
      const clientId = before?.clientId ?? request.auth?.user.currentClientId ?? null;
      // The feed as it will be saved: the body's values over the stored ones.
      const merged = <K extends keyof DataFeedBody>(key: K, stored: DataFeedBody[K] | undefined) =>
        body[key] !== undefined ? body[key] : stored;
      const locationMode = merged('location_mode', before?.locationMode);
      const [sourceType, sftpHost] = [merged('source_type', before?.sourceType), merged('sftp_host', before?.sftpHost)];
      const errors = checkFeed({
        source_type: sourceType,
        location_mode: locationMode,
        location_id: merged('location_id', before?.locationId),
        sftp_host: sftpHost,
        sftp_path: merged('sftp_path', before?.sftpPath),
        sftp_username: merged('sftp_username', before?.sftpUsername),
        field_mapping: merged('field_mapping', before?.fieldMapping) ?? IDENTITY_MAPPING,
        sftp_password: body.sftp_password,
        password_set: (before?.sftpPasswordEnc ?? null) !== null,
      });
      const labels = dataFeedResource.labels;
      // Resolved when the host or source changes (an edit's check runs in its transaction; a stored host was checked when saved).
      if ((!before || body.sftp_host !== undefined || body.source_type !== undefined) && sourceType === 'sftp' && sftpHost) {
        const refused = await sftpHostRefusal(sftpHost, { allowPrivate: outbound.allowPrivateHosts });
        if (refused) errors.sftp_host = [refused];
      }
      if (typeof body.survey_id === 'number' && clientId !== null) {
        const [survey] = await db
          .select({ status: surveys.status })
          .from(surveys)
          .where(and(eq(surveys.id, body.survey_id), eq(surveys.clientId, clientId)))
          .limit(1);
        if (!survey || survey.status === 'inactive') errors.survey_id = [`The ${labels.survey_id} must be one of this client’s surveys`];
      }
      if (typeof body.location_id === 'string' && body.location_id !== '' && locationMode === 'single' && clientId !== null) {
        const [location] = await db
          .select({ id: locations.id })
          .from(locations)
          .where(and(eq(locations.id, body.location_id), eq(locations.clientId, clientId)))
          .limit(1);
        if (!location) errors.location_id = [`The ${labels.location_id} must be one of this client’s locations`];
      }
      if (typeof body.schedule_cron === 'string' && body.schedule_cron.trim() !== '') {
        try {
          parseCron(body.schedule_cron);
        } catch (err) {
          if (!(err instanceof CronError)) throw err;
          errors.schedule_cron = [`The ${labels.schedule_cron} field is not a schedule: ${err.message}`];
        }
      }
      if (Object.keys(errors).length > 0) throw fieldsRefused(errors, labels);
    },
    reload: loadDataFeed,
  };
}
