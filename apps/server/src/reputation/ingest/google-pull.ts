import { sql } from 'drizzle-orm';
import type { ProvidersConfig } from '../../config.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { systemLogs } from '../../db/schema/index.ts';
import { ProviderError, providerJson } from '../../listings/http.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';
import { ingestReviews } from './ingest.ts';

/**
 * The Google Business Profile review pull (issue 21, item 1; pipeline.md "Reviews"): per mapped
 * location (review_pull_sources), every 24 h, an OAuth refresh-token grant then
 * `GET {apiUrl}/v4/{account}/{location}/reviews` newest-updated first, page by page, until the
 * reviews are older than the last pull; each page through `ingestReviews` (source google). The
 * calls go through the listings' provider client (apps/server/src/listings/http.ts: the outbound
 * address guard, timeouts, back-off on 429/5xx with Retry-After). A failure is kept on the source
 * row and the connection (`last_error`) and in System Logs, and the location is tried again later.
 */

export const PULL_EVERY_MS = 24 * 3_600_000;
/** After a failure, the next try. */
export const RETRY_AFTER_FAILURE_MS = 3_600_000;
/** How long a claimed location is its worker's, renewed after each page: no other worker pulls it meanwhile. */
export const CLAIM_MS = 15 * 60_000;
/** Reviews edited just before the last pull may have been missed by its pages: read back this far. */
const OVERLAP_MS = 3_600_000;
const PAGE_SIZE = 50;
/** A runaway paging (a provider that never stops answering a next page) ends here. */
const MAX_PAGES = 200;

export type PullContext = { db: Db; providers: ProvidersConfig; secrets: SecretBox; backoffMs?: number };
export type PullSource = { locationId: string; clientId: number; googleLocation: string; lastPulledAt: Date | null };

/** Whether the pull can run at all: the OAuth client is configured. */
export function pullEnabled(providers: ProvidersConfig): boolean {
  return Boolean(providers.googleBusiness.clientId && providers.googleBusiness.clientSecret);
}

type GoogleReview = { reviewId?: unknown; updateTime?: unknown; createTime?: unknown } & Record<string, unknown>;

function pageOf(json: unknown): { reviews: GoogleReview[]; next: string | null } {
  if (typeof json !== 'object' || json === null) return { reviews: [], next: null };
  const { reviews, nextPageToken } = json as { reviews?: unknown; nextPageToken?: unknown };
  return {
    reviews: Array.isArray(reviews) ? reviews.filter((r): r is GoogleReview => typeof r === 'object' && r !== null) : [],
    next: typeof nextPageToken === 'string' && nextPageToken !== '' ? nextPageToken : null,
  };
}

async function accessToken(ctx: PullContext, refreshToken: string): Promise<string> {
  const g = ctx.providers.googleBusiness;
  const answer = await providerJson({
    method: 'POST',
    url: g.tokenUrl,
    headers: {},
    body: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: g.clientId, client_secret: g.clientSecret },
    allowPrivate: ctx.providers.allowPrivateHosts,
    provider: 'Google OAuth',
    ...(ctx.backoffMs !== undefined ? { backoffMs: ctx.backoffMs } : {}),
  });
  const token = typeof answer === 'object' && answer !== null ? (answer as { access_token?: unknown }).access_token : undefined;
  if (typeof token !== 'string' || token === '') throw new ProviderError('Google OAuth answered no access token.', null);
  return token;
}

/**
 * Pulls one location's new and changed reviews; answers how many the pages held and the messages of
 * those the ingest refused (say, a createTime ahead of our clock). Throws what went wrong.
 */
export async function pullLocation(ctx: PullContext, source: PullSource, now: Date): Promise<{ seen: number; refused: string[] }> {
  if (!pullEnabled(ctx.providers)) throw new Error('The Google review pull is off: no OAuth client is configured.');
  const [connection] = rowsOf(
    await ctx.db.execute(sql`select account, refresh_token_encrypted, status from google_connections where client_id = ${source.clientId}`),
  );
  if (connection?.status !== 'active') throw new Error('This client has no active Google connection.');
  const token = await accessToken(ctx, ctx.secrets.decrypt(String(connection.refresh_token_encrypted)));
  const since = source.lastPulledAt ? source.lastPulledAt.getTime() - OVERLAP_MS : null;
  const base = `${ctx.providers.googleBusiness.apiUrl.replace(/\/+$/, '')}/v4/${String(connection.account)}/${source.googleLocation}/reviews`;
  let pageToken: string | null = null;
  const began = Date.now();
  let seen = 0;
  const refused: string[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ pageSize: String(PAGE_SIZE), orderBy: 'updateTime desc' });
    if (pageToken) query.set('pageToken', pageToken);
    const json = await providerJson({
      method: 'GET',
      url: `${base}?${query}`,
      headers: { authorization: `Bearer ${token}` },
      allowPrivate: ctx.providers.allowPrivateHosts,
      provider: 'Google Business Profile',
      ...(ctx.backoffMs !== undefined ? { backoffMs: ctx.backoffMs } : {}),
    });
    const { reviews, next } = pageOf(json);
    const fresh = reviews.filter((r) => {
      const at = Date.parse(String(r.updateTime ?? r.createTime ?? ''));
      return since === null || Number.isNaN(at) || at >= since;
    });
    if (fresh.length > 0) {
      const result = await ingestReviews(
        ctx.db,
        { clientId: source.clientId, source: 'google', now },
        fresh.map((r) => ({ ...r, locationId: source.locationId, site: 'google' })),
      );
      for (const a of result.reviews) {
        if (a.outcome === 'refused')
          refused.push(`${a.externalId ?? `review ${a.index + 1}`}: ${Object.values(a.errors).flat().join('; ')}`);
      }
    }
    seen += fresh.length;
    // The claim grows with the pull (a long one outlasts CLAIM_MS), while it is still this worker's.
    const until = new Date(now.getTime() + (Date.now() - began) + CLAIM_MS).toISOString();
    await ctx.db.execute(sql`update review_pull_sources set next_pull_at = ${until}::timestamptz
      where location_id = ${source.locationId} and next_pull_at > ${now.toISOString()}::timestamptz`);
    // Newest-updated first: once a page reaches back past the last pull, the rest is older still.
    if (!next || fresh.length < reviews.length) break;
    pageToken = next;
  }
  return { seen, refused };
}

/** Claims up to `limit` due sources of active connections (skip locked: two workers never take one location). */
export async function claimDueSources(db: Db, now: Date, limit: number): Promise<PullSource[]> {
  const at = now.toISOString();
  const rows = rowsOf(
    await db.execute(sql`
      update review_pull_sources s set next_pull_at = ${new Date(now.getTime() + CLAIM_MS).toISOString()}::timestamptz
      where s.location_id in (
        select p.location_id from review_pull_sources p
        join google_connections c on c.client_id = p.client_id and c.status = 'active'
        where p.next_pull_at <= ${at}::timestamptz
        order by p.next_pull_at
        limit ${limit}
        for update of p skip locked)
      returning s.location_id, s.client_id, s.google_location, s.last_pulled_at`),
  );
  return rows.map((r) => ({
    locationId: String(r.location_id),
    clientId: Number(r.client_id),
    googleLocation: String(r.google_location),
    lastPulledAt: r.last_pulled_at ? new Date(String(r.last_pulled_at)) : null,
  }));
}

/** Pulls one claimed source and records the outcome on its row (and, on failure, the connection and System Logs). */
export async function pullAndRecord(ctx: PullContext, source: PullSource, now: Date): Promise<void> {
  try {
    const { seen, refused } = await pullLocation(ctx, source, now);
    if (refused.length > 0) {
      // Kept, never thrown away: the reviews Google gave that our rules refused.
      await ctx.db.insert(systemLogs).values({
        level: 'warn',
        service: 'worker',
        action: 'reviews.pull',
        message:
          `Google review pull of ${source.googleLocation}: ${refused.length} review${refused.length === 1 ? '' : 's'} refused (${refused.slice(0, 3).join(' | ')})`.slice(
            0,
            2000,
          ),
        clientId: source.clientId,
        entityType: 'location',
        entityId: source.locationId,
      });
    }
    // The next pull in a day, unless someone asked for one meanwhile (Pull now, a new mapping: due at once).
    await ctx.db.execute(sql`update review_pull_sources set last_pulled_at = ${now.toISOString()}::timestamptz,
        next_pull_at = case when next_pull_at > ${now.toISOString()}::timestamptz
          then ${new Date(now.getTime() + PULL_EVERY_MS).toISOString()}::timestamptz else next_pull_at end,
        last_error = null, reviews_seen = reviews_seen + ${seen}, updated_at = ${now.toISOString()}::timestamptz
      where location_id = ${source.locationId}`);
    // The connection's error clears once none of its locations still fails.
    await ctx.db.execute(sql`update google_connections set last_error = null
      where client_id = ${source.clientId} and last_error is not null
        and not exists (select 1 from review_pull_sources p where p.client_id = ${source.clientId} and p.last_error is not null)`);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`update review_pull_sources set last_error = ${message},
          next_pull_at = ${new Date(now.getTime() + RETRY_AFTER_FAILURE_MS).toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
        where location_id = ${source.locationId}`);
      await tx.execute(sql`update google_connections set last_error = ${message}, updated_at = ${now.toISOString()}::timestamptz
        where client_id = ${source.clientId}`);
      await tx.insert(systemLogs).values({
        level: 'error',
        service: 'worker',
        action: 'reviews.pull',
        message: `Google review pull failed for ${source.googleLocation}: ${message}`,
        clientId: source.clientId,
        entityType: 'location',
        entityId: source.locationId,
      });
    });
  }
}
