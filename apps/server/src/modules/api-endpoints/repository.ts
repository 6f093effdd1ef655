import { type ApiCall, type ApiEndpoint, type ApiEndpointListQuery, ingestPath, type Status } from '@admin/shared';
import { desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiCallLogs, apiTokens, clients, endpointConfigs, locations, surveys } from '../../db/schema/index.ts';
import { type ClientScope, inClientScope } from '../../kit/current-client.ts';
import {
  afterCursor,
  allOf,
  containsPattern,
  cursorFields,
  decodeCursor,
  inList,
  orderBy,
  pageOf,
  type SortSpec,
} from '../../kit/keyset.ts';
import { countMatching } from '../../kit/totals.ts';

type Sort = NonNullable<ApiEndpointListQuery['sort']>;
export type EndpointFilters = Omit<ApiEndpointListQuery, 'sort' | 'order' | 'perPage' | 'cursor' | 'client'>;

/** An endpoint's status: its settings' own, `active` until it is set up. */
const status = sql<string>`coalesce(${endpointConfigs.status}, 'active')`;
/** Calls in the last 24 hours, and those with an error (refused, or rows rejected): read per row of a page, from the (location, time) index. */
const since = sql`now() - interval '24 hours'`;
const calls24h = sql<number>`(select count(*)::int from ${apiCallLogs} c where c.location_id = ${locations.id} and c.received_at > ${since})`;
const errors24h = sql<number>`(select count(*)::int from ${apiCallLogs} c where c.location_id = ${locations.id} and c.received_at > ${since} and (c.status_code >= 400 or c.rows_rejected > 0))`;
const lastCall = sql<string | null>`(select max(c.received_at) from ${apiCallLogs} c where c.location_id = ${locations.id})`;

const SORTS: Record<Sort, SortSpec> = {
  locationname: [
    { expr: sql`lower(${locations.locationname})`, cast: 'text' },
    { expr: sql`${locations.id}`, cast: 'text' },
  ],
  status: [
    { expr: status, cast: 'text' },
    { expr: sql`lower(${locations.locationname})`, cast: 'text' },
    { expr: sql`${locations.id}`, cast: 'text' },
  ],
};

function filtersWhere(q: EndpointFilters, scope: ClientScope): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inClientScope(locations.clientId, scope),
    inList(status, q.status),
    q.has_errors === 'yes' ? sql`${errors24h} > 0` : undefined,
    like ? sql`(${locations.locationname} ilike ${like} or ${locations.id} = ${q.q})` : undefined,
  ]);
}

const fields = {
  id: locations.id,
  locationname: locations.locationname,
  clientId: locations.clientId,
  clientName: clients.name,
  config: endpointConfigs,
  surveyName: surveys.name,
  tokenName: apiTokens.name,
  calls: calls24h,
  errors: errors24h,
  lastCall,
};
type Row = {
  id: string;
  locationname: string;
  clientId: number;
  clientName: string | null;
  config: typeof endpointConfigs.$inferSelect | null;
  surveyName: string | null;
  tokenName: string | null;
  calls: number;
  errors: number;
  lastCall: string | Date | null;
};

function toEndpoint(r: Row): ApiEndpoint {
  const c = r.config;
  return {
    _id: r.id,
    locationname: r.locationname,
    client_id: r.clientId,
    client_name: r.clientName,
    ingest_path: ingestPath(r.id),
    configured: c !== null,
    survey_id: c?.surveyId ?? null,
    survey_name: r.surveyName,
    data_feed_id: c?.dataFeedId ?? null,
    token_id: c?.tokenId ?? null,
    token_name: r.tokenName,
    allowed_ips: c?.allowedIps ?? [],
    payload_format: c?.payloadFormat ?? 'json',
    rate_limit_per_min: c?.rateLimitPerMin ?? 60,
    has_webhook_secret: c?.webhookSecretHash != null,
    calls_24h: Number(r.calls),
    errors_24h: Number(r.errors),
    // A subquery's timestamp comes back as text on some drivers.
    last_call_at: r.lastCall === null ? null : new Date(r.lastCall).toISOString(),
    status: (c?.status ?? 'active') as Status,
    ...(c ? { updated_at: c.updatedAt.toISOString() } : {}),
  };
}

function select(db: Db, extra: Record<string, SQL> = {}) {
  return db
    .select({ ...fields, ...extra })
    .from(locations)
    .leftJoin(clients, eq(clients.id, locations.clientId))
    .leftJoin(endpointConfigs, eq(endpointConfigs.locationId, locations.id))
    .leftJoin(surveys, eq(surveys.id, endpointConfigs.surveyId))
    .leftJoin(apiTokens, eq(apiTokens.id, endpointConfigs.tokenId));
}

/** A keyset page of the locations in scope as endpoints, with their settings and last 24 hours of calls. */
export async function listEndpoints(db: Db, q: ApiEndpointListQuery, scope: ClientScope, limit: number) {
  const keys = SORTS[q.sort ?? 'locationname'];
  const order = q.order ?? 'asc';
  const rows = await select(db, cursorFields(keys))
    .where(allOf([filtersWhere(q, scope), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]))
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return { rows: page.map((r) => toEndpoint(r as Row)), nextCursor };
}

export function countEndpoints(db: Db, q: EndpointFilters, scope: ClientScope) {
  const where = filtersWhere(q, scope);
  return countMatching(
    db,
    sql`from ${locations} left join ${endpointConfigs} on ${endpointConfigs.locationId} = ${locations.id}${where ? sql` where ${where}` : sql``}`,
  );
}

export async function findEndpoint(db: Db, locationId: string): Promise<ApiEndpoint | undefined> {
  const [row] = await select(db).where(eq(locations.id, locationId)).limit(1);
  return row ? toEndpoint(row as Row) : undefined;
}

/** The newest calls of an endpoint, newest first. */
export async function recentCalls(db: Db, locationId: string, limit = 50): Promise<ApiCall[]> {
  const rows = await db
    .select()
    .from(apiCallLogs)
    .where(eq(apiCallLogs.locationId, locationId))
    .orderBy(desc(apiCallLogs.receivedAt), desc(apiCallLogs.id))
    .limit(limit);
  return rows.map((r) => ({
    id: Number(r.id),
    received_at: r.receivedAt.toISOString(),
    ip: r.ip,
    status_code: r.statusCode,
    rows_accepted: r.rowsAccepted,
    rows_rejected: r.rowsRejected,
    run_id: r.runId,
    error: r.error,
  }));
}
