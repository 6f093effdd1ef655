import { dataEnvelope, ingestResultSchema, LOCATION_ID } from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiCallLogs, apiTokens, dataFeeds, endpointConfigs, locations } from '../../db/schema/index.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { HttpError } from '../../lib/http-error.ts';
import { ipAllowed, plainIp } from '../../lib/ip-allow.ts';
import { normalize } from '../../pipeline/ingest/normalize.ts';
import { FeedFileError, type FeedRecord, parseFeedFile } from '../../pipeline/ingest/parse.ts';
import { feedForIngest } from '../../pipeline/ingest/process.ts';
import { batchSizeFor } from '../../pipeline/ingest/run-store.ts';
import type { SecretCheck } from '../../plugins/auth.ts';
import { groupCommit } from './group-commit.ts';
import { admitCalls, type IngestAnswer, type IngestCall } from './ingest-batch.ts';
import { fixedWindowLimiter } from './rate-limit.ts';
import { refusalTracker } from './refusals.ts';

/** Rows one call may carry; a bigger batch belongs in an SFTP or uploaded file. */
export const MAX_ROWS_PER_CALL = 1000;
const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The longest a busy client's next admission waits for its other callers (group-commit.ts): short
 * beside a call's own time, long enough for callers answered by the last batch to come back.
 */
const ADMISSION_LINGER_MS = 50;

const paramsSchema = z.object({ _id: z.string().regex(LOCATION_ID, 'must be 24 lower-case hex characters') });
const cell = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);
/** A JSON array of rows named by the fields, or (Content-Type: text/csv) CSV text with those headers. */
const bodySchema = z.union([
  z.array(z.record(z.string().max(100), cell)).max(MAX_ROWS_PER_CALL, `A call may carry at most ${MAX_ROWS_PER_CALL} rows`),
  z.string().max(MAX_BODY_BYTES),
]);

/**
 * What the call log records of a call, gathered as the request goes; `logged` once its line was
 * written with its rows (ingest-batch.ts).
 */
type CallNote = { accepted: number; rejected: number; runId: number | null; error: string | null; logged: boolean };

function recordsOf(body: z.infer<typeof bodySchema>): FeedRecord[] {
  if (typeof body !== 'string') {
    return body.map((row, i) => ({
      rowNumber: i + 1,
      raw: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? '' : String(v)])),
    }));
  }
  try {
    const { records } = parseFeedFile(body, { delimiter: 'comma', hasHeader: true });
    if (records.length > MAX_ROWS_PER_CALL) throw new HttpError(413, `A call may carry at most ${MAX_ROWS_PER_CALL} rows.`);
    return records;
  } catch (err) {
    if (err instanceof FeedFileError) throw new HttpError(400, err.message);
    throw err;
  }
}

/**
 * The ingest endpoint `POST /api/v1/endpoints/:_id/transactions` (docs/pipeline.md, Public
 * surfaces): an API token with `feeds:write` (checked by the auth plugin, with its user's right to
 * hold it), or the endpoint's webhook secret; the endpoint's token binding and the token's client
 * (403), the endpoint's allowed IPs (403), 423 when paused, a rate limit per endpoint (429 with
 * Retry-After), then the rows normalized by the endpoint's `api` feed and admitted as a run of
 * their own, together with whatever other calls of the client overlap it (ingest-batch.ts, decision
 * 078: one transaction, in order, each call answered its own rows). Every call that got past its credential is logged in `api_call_logs` (API
 * Managers' recent calls, pruned by housekeeping/prune.ts); a call refused before is counted in its address's
 * refusal summary (refusals.ts) and may be throttled before any lookup.
 *
 * The rate limit is a fixed one-minute window kept in this process's memory: with several API
 * processes each allows the limit, which is acceptable for a guard against a runaway client.
 */
export const ingestRoutes: FastifyPluginAsyncZod = async (app) => {
  const limiter = fixedWindowLimiter();
  const refusals = refusalTracker(app.db);
  /** Requests the gate answered 429 unchecked (their address was refused too often). */
  const throttled = new WeakSet<FastifyRequest>();
  // The endpoint's webhook secret (made on API Managers when asked, stored as its SHA-256) stands
  // in for a token for callers that can send a fixed header but no bearer token. When the endpoint
  // is bound to a token, the handler holds the secret to every check of that token (decision 032).
  const webhookSecret: SecretCheck = {
    header: 'x-webhook-secret',
    async verify(request, secret) {
      const { _id: id } = request.params as { _id?: unknown };
      if (typeof id !== 'string' || !LOCATION_ID.test(id)) return false;
      const [found] = await app.db
        .select({ id: endpointConfigs.locationId })
        .from(endpointConfigs)
        .where(and(eq(endpointConfigs.locationId, id), eq(endpointConfigs.webhookSecretHash, sha256Hex(secret))))
        .limit(1);
      return found !== undefined;
    },
  };
  const gate = (request: FastifyRequest, reply: FastifyReply) => {
    const wait = refusals.waitFor(plainIp(request.ip), app.clock.now());
    if (wait === null) return;
    throttled.add(request);
    void reply.header('retry-after', String(wait));
    throw new HttpError(429, `Too many refused calls from this address; retry in ${wait} s.`);
  };
  const notes = new WeakMap<FastifyRequest, CallNote>();
  const noteOf = (request: FastifyRequest) => {
    const note = notes.get(request) ?? { accepted: 0, rejected: 0, runId: null, error: null, logged: false };
    notes.set(request, note);
    return note;
  };

  // The endpoint, its feed and its bound token's predecessor, read on every call: built once and
  // run as a named prepared statement (bench/pipeline/endpoint.ts).
  const endpointOf = app.db
    .select({ config: endpointConfigs, feed: dataFeeds, linkedReplaces: apiTokens.replacesId, clientId: locations.clientId })
    .from(endpointConfigs)
    .innerJoin(locations, eq(locations.id, endpointConfigs.locationId))
    .leftJoin(apiTokens, eq(apiTokens.id, endpointConfigs.tokenId))
    .leftJoin(dataFeeds, eq(dataFeeds.id, endpointConfigs.dataFeedId))
    .where(eq(endpointConfigs.locationId, sql.placeholder('id')))
    .limit(1)
    .prepare('ingest_endpoint');

  // One client's calls that overlap are admitted together, each still its own run (decision 078).
  const admissions = groupCommit<IngestCall, IngestAnswer>({
    run: (calls) => admitCalls(app.db, app.clock, calls),
    weight: (call) => call.rowsRead,
    limit: batchSizeFor(app.database.kind),
    lingerMs: ADMISSION_LINGER_MS,
    endWaitWhenBack: app.database.kind === 'pg',
  });

  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));

  app.addHook('onError', async (request, _reply, error) => {
    noteOf(request).error = error.message.slice(0, 500);
  });
  // Written before the answer goes out, so a caller (or API Managers) that has the answer finds the call.
  app.addHook('onSend', async (request, reply, payload) => {
    const { _id: id } = request.params as { _id?: unknown };
    if (typeof id !== 'string' || !LOCATION_ID.test(id)) return payload;
    const note = noteOf(request);
    if (note.logged) return payload;
    try {
      if (!request.apiToken && !request.viaSecret) {
        // No credential was established: nobody's call, counted in the address's summary only.
        const kind = throttled.has(request) ? 'throttled' : 'refused';
        await refusals.record(plainIp(request.ip), id, kind, app.clock.now(), request.id);
        return payload;
      }
      await app.db.execute(sql`insert into ${apiCallLogs} (location_id, token_id, received_at, ip, status_code, rows_accepted, rows_rejected, run_id, error)
        select ${id}, ${request.apiToken?.token.id ?? null}, ${app.clock.now()}, ${request.ip}, ${reply.statusCode}, ${note.accepted}, ${note.rejected}, ${note.runId}, ${note.error}
        where exists (select 1 from locations where _id = ${id})`);
    } catch (err) {
      request.log.error({ err }, 'ingest: the call log could not be written');
    }
    return payload;
  });

  app.post(
    '/api/v1/endpoints/:_id/transactions',
    {
      bodyLimit: MAX_BODY_BYTES,
      config: { access: { token: 'feeds:write', secret: webhookSecret, gate } },
      schema: { params: paramsSchema, body: bodySchema, response: { 200: dataEnvelope(ingestResultSchema) } },
    },
    async (request, reply) => {
      const id = request.params._id;
      if (!request.apiToken && !request.viaSecret) throw new HttpError(401, 'An API token is required.');
      const [endpoint] = await endpointOf.execute({ id });
      const config = endpoint?.config;
      const feed = endpoint?.feed;
      if (!config || !feed || config.status === 'inactive') {
        throw new HttpError(404, 'No ingest endpoint is set up for this location.');
      }
      // The secret of an endpoint bound to a token speaks for that token: every check of the token
      // applies as if it had been sent (revoked, expired, its user's right, its scope, its IPs).
      if (request.viaSecret && config.tokenId !== null) {
        request.apiToken = await app.apiTokens.authorize(config.tokenId, request.ip, 'feeds:write', app.clock.now());
      }
      const auth = request.apiToken;
      // The linked token, or the one it replaced while that one's grace period lasts.
      if (auth && config.tokenId !== null && config.tokenId !== auth.token.id && endpoint.linkedReplaces !== auth.token.id) {
        throw new HttpError(403, 'This endpoint takes another API token.');
      }
      // A client user's token feeds only the endpoints of the client it was issued for, linked or
      // not; a super-admin's feeds any (TOKEN_HOLDER_RULE, checked again on every call).
      if (auth && auth.clientId !== null && auth.clientId !== endpoint.clientId) {
        throw new HttpError(403, 'This API token’s user belongs to another client.');
      }
      if (!ipAllowed(request.ip, config.allowedIps))
        throw new HttpError(403, `This endpoint may not be called from ${plainIp(request.ip)}.`);
      if (config.status === 'paused') throw new HttpError(423, 'This endpoint is paused; calls are refused until it is resumed.');
      const wait = limiter.take(id, config.rateLimitPerMin, app.clock.now());
      if (wait !== null) {
        void reply.header('retry-after', String(wait));
        throw new HttpError(429, `Rate limit of ${config.rateLimitPerMin} calls per minute reached; retry in ${wait} s.`);
      }
      const csv = typeof request.body === 'string';
      if (csv !== (config.payloadFormat === 'csv')) {
        throw new HttpError(
          415,
          config.payloadFormat === 'csv'
            ? 'This endpoint takes CSV (Content-Type: text/csv) with a header row naming the fields.'
            : 'This endpoint takes a JSON array of rows (Content-Type: application/json).',
        );
      }
      const records = recordsOf(request.body);
      if (records.length === 0) throw new HttpError(422, 'The payload has no rows.', { body: ['The payload has no rows'] });

      // Normalized before it joins its client's batch: a call's refused rows are its own and
      // never hold up or fail another call's.
      const normalized = await normalize(app.db, feedForIngest(feed), records);
      const answer = await admissions.submit(feed.clientId, {
        feed,
        rowsRead: records.length,
        normalized,
        receivedAt: app.clock.now(),
        log: { locationId: id, tokenId: request.apiToken?.token.id ?? null, ip: request.ip },
      });
      Object.assign(noteOf(request), {
        accepted: answer.accepted,
        rejected: answer.rejected,
        runId: answer.result.run_id,
        error: answer.error,
        logged: true,
      });
      return { data: answer.result };
    },
  );
};
