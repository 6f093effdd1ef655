import { dataEnvelope } from '@admin/shared';
import {
  GOOGLE_FIELD_LABELS,
  GOOGLE_PULL_PATH,
  googleConnectionBodySchema,
  googleConnectionSchema,
  googleLocationsPageSchema,
  googleLocationsQuerySchema,
  googleSourceBodySchema,
} from '@admin/shared/resources/reviews-google';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ProvidersConfig } from '../../config.ts';
import { rowsOf } from '../../db/client.ts';
import { requireWritableClient } from '../../kit/current-client.ts';
import { fieldsRefused, HttpError } from '../../lib/http-error.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';
import { CLAIM_MS, pullEnabled } from './google-pull.ts';

const PAGE = 50;
const LOCATION_ID = /^[a-f0-9]{24}$/;
const locationParams = z.object({ locationId: z.string().regex(LOCATION_ID, 'must be a location ID') });
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(String(v)).toISOString());

/**
 * Staff routes of the Google review pull (issue 21, item 1), for the tab's current client: the
 * connection (account + refresh token, encrypted with the SecretBox like feeds' SFTP passwords and
 * never read back), each location's Google location, and Pull now (the location becomes due; the
 * worker's loop pulls it, so a pull never runs twice at once). Every write is audited.
 */
export const googlePullRoutes: FastifyPluginAsyncZod<{ secrets: SecretBox; providers: ProvidersConfig }> = async (app, opts) => {
  const config = { labels: GOOGLE_FIELD_LABELS };
  const now = () => app.clock.now().toISOString();

  app.get(GOOGLE_PULL_PATH, { schema: { response: { 200: dataEnvelope(googleConnectionSchema) } } }, async (request) => {
    const client = await requireWritableClient(request);
    const [row] = rowsOf(
      await app.db.execute(sql`select account, status, last_error, updated_at from google_connections where client_id = ${client.id}`),
    );
    return {
      data: {
        enabled: pullEnabled(opts.providers),
        connection: row
          ? {
              account: String(row.account),
              refresh_token: 'stored' as const,
              status: String(row.status),
              last_error: row.last_error === null ? null : String(row.last_error),
              updated_at: iso(row.updated_at) ?? '',
            }
          : null,
      },
    };
  });

  app.put(GOOGLE_PULL_PATH, { config, schema: { body: googleConnectionBodySchema } }, async (request) => {
    const client = await requireWritableClient(request);
    const { account, refresh_token: token } = request.body;
    const [existing] = rowsOf(await app.db.execute(sql`select account from google_connections where client_id = ${client.id}`));
    if (!existing && !token) throw fieldsRefused({ refresh_token: ['The Refresh token field is required'] }, GOOGLE_FIELD_LABELS);
    const encrypted = token ? opts.secrets.encrypt(token) : null;
    if (token && encrypted === null) {
      throw new HttpError(409, 'The server has no SECRET_KEY, so it cannot store a refresh token.', {
        refresh_token: ['The Refresh token field cannot be stored without SECRET_KEY'],
      });
    }
    await app.db.transaction(async (tx) => {
      await tx.execute(sql`insert into google_connections (client_id, account, refresh_token_encrypted, status, created_at, updated_at)
        values (${client.id}, ${account}, ${encrypted ?? ''}, 'active', ${now()}::timestamptz, ${now()}::timestamptz)
        on conflict (client_id) do update set account = excluded.account, status = 'active', last_error = null,
          refresh_token_encrypted = case when ${encrypted !== null} then excluded.refresh_token_encrypted else google_connections.refresh_token_encrypted end,
          updated_at = excluded.updated_at`);
      await request.audit(
        {
          action: 'reviews.google.connect',
          message: `Saved the Google connection (${account}${token ? ', new refresh token' : ''})`,
          clientId: client.id,
          entityType: 'google_connection',
          entityId: client.id,
          after: { account, refresh_token: token ? 'stored' : 'kept' },
        },
        tx,
      );
    });
    return { data: { account } };
  });

  app.delete(GOOGLE_PULL_PATH, async (request, reply) => {
    const client = await requireWritableClient(request);
    await app.db.transaction(async (tx) => {
      await tx.execute(sql`delete from review_pull_sources where client_id = ${client.id}`);
      await tx.execute(sql`delete from google_connections where client_id = ${client.id}`);
      await request.audit(
        { action: 'reviews.google.disconnect', message: 'Cleared the Google connection and its location mapping', clientId: client.id },
        tx,
      );
    });
    return reply.code(204).send();
  });

  app.get(
    `${GOOGLE_PULL_PATH}/locations`,
    { schema: { querystring: googleLocationsQuerySchema, response: { 200: googleLocationsPageSchema } } },
    async (request) => {
      const client = await requireWritableClient(request);
      const { q, cursor } = request.query;
      if (cursor !== undefined && !LOCATION_ID.test(cursor))
        throw new HttpError(400, 'The cursor is not valid.', { cursor: ['The cursor is not valid'] });
      const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const rows = rowsOf(
        await app.db.execute(sql`select l._id, l.locationname, s.google_location, s.last_pulled_at, s.next_pull_at, s.last_error, s.reviews_seen
          from locations l left join review_pull_sources s on s.location_id = l._id
          where l.client_id = ${client.id}
            ${like ? sql`and l.locationname ilike ${like}` : sql``}
            ${cursor ? sql`and l._id > ${cursor}` : sql``}
          order by l._id limit ${PAGE + 1}`),
      );
      const page = rows.slice(0, PAGE).map((r) => ({
        location_id: String(r._id),
        location_name: String(r.locationname),
        google_location: r.google_location === null ? null : String(r.google_location),
        last_pulled_at: iso(r.last_pulled_at),
        next_pull_at: iso(r.next_pull_at),
        last_error: r.last_error === null ? null : String(r.last_error),
        reviews_seen: r.reviews_seen === null ? 0 : Number(r.reviews_seen),
      }));
      return { data: page, nextCursor: rows.length > PAGE ? (page.at(-1)?.location_id ?? null) : null, zone: client.timezone };
    },
  );

  /** The location, when it is the current client's (404 otherwise). */
  const ownLocation = async (clientId: number, locationId: string) => {
    const [row] = rowsOf(await app.db.execute(sql`select _id from locations where _id = ${locationId} and client_id = ${clientId}`));
    if (!row) throw new HttpError(404, 'Location not found.');
  };

  app.put(
    `${GOOGLE_PULL_PATH}/locations/:locationId`,
    { config, schema: { params: locationParams, body: googleSourceBodySchema } },
    async (request) => {
      const client = await requireWritableClient(request);
      const { locationId } = request.params;
      await ownLocation(client.id, locationId);
      const googleLocation = request.body.google_location;
      await app.db.transaction(async (tx) => {
        await tx.execute(sql`insert into review_pull_sources (location_id, client_id, google_location, next_pull_at, updated_at)
          values (${locationId}, ${client.id}, ${googleLocation}, ${now()}::timestamptz, ${now()}::timestamptz)
          on conflict (location_id) do update set google_location = excluded.google_location, client_id = excluded.client_id,
            next_pull_at = excluded.next_pull_at, last_error = null, updated_at = excluded.updated_at`);
        await request.audit(
          {
            action: 'reviews.google.map',
            message: `Reviews of this location are pulled from Google ${googleLocation}`,
            clientId: client.id,
            entityType: 'location',
            entityId: locationId,
            after: { google_location: googleLocation },
          },
          tx,
        );
      });
      return { data: { location_id: locationId, google_location: googleLocation } };
    },
  );

  app.delete(`${GOOGLE_PULL_PATH}/locations/:locationId`, { schema: { params: locationParams } }, async (request, reply) => {
    const client = await requireWritableClient(request);
    const { locationId } = request.params;
    await ownLocation(client.id, locationId);
    await app.db.transaction(async (tx) => {
      await tx.execute(sql`delete from review_pull_sources where location_id = ${locationId}`);
      await request.audit(
        {
          action: 'reviews.google.unmap',
          message: 'This location’s reviews are no longer pulled from Google',
          clientId: client.id,
          entityType: 'location',
          entityId: locationId,
        },
        tx,
      );
    });
    return reply.code(204).send();
  });

  app.post(`${GOOGLE_PULL_PATH}/locations/:locationId/pull`, { schema: { params: locationParams } }, async (request, reply) => {
    const client = await requireWritableClient(request);
    const { locationId } = request.params;
    if (!pullEnabled(opts.providers))
      throw new HttpError(409, 'The Google review pull is off: no OAuth client is configured on the server.');
    // The workers pull only for an active connection (google-pull.ts): without one nothing would come.
    const [connection] = rowsOf(
      await app.db.execute(sql`select 1 from google_connections where client_id = ${client.id} and status = 'active'`),
    );
    if (!connection) throw new HttpError(409, 'This client has no Google connection: save one before pulling its reviews.');
    const changed = await app.db.transaction(async (tx) => {
      const rows = rowsOf(
        await tx.execute(sql`update review_pull_sources set next_pull_at = ${now()}::timestamptz, updated_at = ${now()}::timestamptz
          where location_id = ${locationId} and client_id = ${client.id}
            and (next_pull_at is null or next_pull_at <= ${now()}::timestamptz
              or next_pull_at > ${new Date(app.clock.now().getTime() + CLAIM_MS).toISOString()}::timestamptz)
          returning location_id`),
      );
      if (rows.length > 0) {
        await request.audit(
          {
            action: 'reviews.google.pull',
            message: 'Asked for a Google review pull now',
            clientId: client.id,
            entityType: 'location',
            entityId: locationId,
          },
          tx,
        );
      }
      return rows.length;
    });
    if (changed === 0) {
      const [source] = rowsOf(
        await app.db.execute(sql`select 1 from review_pull_sources where location_id = ${locationId} and client_id = ${client.id}`),
      );
      if (!source) throw new HttpError(404, 'This location is not pulled from Google.');
      // Claimed by a worker (google-pull.ts): that pull is under way; a second one at once is never started.
      throw new HttpError(409, 'A pull of this location is under way; its reviews arrive when it ends.');
    }
    return reply.code(202).send({ data: { location_id: locationId, queued: true } });
  });
};
