import { randomBytes } from 'node:crypto';
import { API_ROW_FIELDS, type ApiEndpointSave, type FeedMapping } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { dataFeeds, endpointConfigs, type locations } from '../../db/schema/index.ts';
import { assertFresh } from '../../kit/status.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import { findEndpoint } from './repository.ts';

/** API rows are named by the fields themselves: the endpoint's feed maps each field to its own name. */
const IDENTITY_MAPPING: FeedMapping = Object.fromEntries(API_ROW_FIELDS.map((f) => [f, f]));

type Location = typeof locations.$inferSelect;

/**
 * Saves an endpoint's settings (its `api` feed made on the first save, updated after) and does
 * what was asked with its webhook secret: nothing, a new one (answered once, stored hashed), or
 * none. One winner whatever the races (decision 032): the settings row is inserted (or found)
 * first and locked, so parallel first saves wait on its primary key; the first makes the feed and
 * the others, which saw no version, are refused (409) instead of overwriting it. `FOR UPDATE`
 * alone locks nothing while no row exists.
 */
export async function saveEndpoint(request: FastifyRequest, location: Location, body: ApiEndpointSave) {
  const db = request.server.db;
  const surveyId = body.survey_id ?? 0;
  const allowedIps = body.allowed_ips ?? [];
  const action = body.webhook_secret_action ?? 'keep';
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(endpointConfigs)
      .values({ locationId: location.id })
      .onConflictDoNothing({ target: endpointConfigs.locationId })
      .returning({ locationId: endpointConfigs.locationId });
    const [current] = await tx.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, location.id)).for('update');
    if (!current) throw notFound('API endpoint');
    const what = `The API endpoint of ${location.locationname}`;
    if (made === undefined) {
      // Set up meanwhile by a parallel first save: this one saw no version, so it must not overwrite.
      if (body.updated_at === undefined) throw conflict(`${what} was set up by someone else meanwhile. Reload it and try again.`);
      assertFresh(current.updatedAt, body.updated_at, what);
    }
    const feedValues = { surveyId, allowedIps, name: `API: ${location.locationname}`.slice(0, 120), updatedAt: sql`now()` };
    let feedId = current.dataFeedId;
    if (feedId !== null) await tx.update(dataFeeds).set(feedValues).where(eq(dataFeeds.id, feedId));
    else {
      const [feed] = await tx
        .insert(dataFeeds)
        .values({
          ...feedValues,
          clientId: location.clientId,
          sourceType: 'api',
          triggerEvent: 'invoice_paid',
          locationMode: 'single',
          locationId: location.id,
          fieldMapping: IDENTITY_MAPPING,
          status: current.status,
        })
        .returning({ id: dataFeeds.id });
      feedId = feed?.id ?? null;
    }
    const secret = action === 'new' ? randomBytes(36).toString('base64url') : null;
    const removed = action === 'remove' && current.webhookSecretHash !== null;
    await tx
      .update(endpointConfigs)
      .set({
        surveyId,
        dataFeedId: feedId,
        tokenId: body.token_id ?? null,
        allowedIps,
        payloadFormat: body.payload_format === 'csv' ? 'csv' : 'json',
        rateLimitPerMin: Number(body.rate_limit_per_min),
        ...(secret ? { webhookSecretHash: sha256Hex(secret) } : action === 'remove' ? { webhookSecretHash: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(endpointConfigs.locationId, location.id));
    const after = await findEndpoint(tx, location.id);
    if (!after) throw notFound('API endpoint');
    const first = made !== undefined;
    const note = secret ? ' (new webhook secret)' : removed ? ' (webhook secret removed)' : '';
    await request.audit(
      {
        action: `api_endpoint.${first ? 'create' : 'update'}`,
        message: `${first ? 'Set up' : 'Updated'} the API endpoint of ${location.locationname}${note}`,
        clientId: location.clientId,
        entityType: 'api_endpoint',
        entityId: location.id,
        after,
      },
      tx,
    );
    return { endpoint: after, webhook_secret: secret };
  });
}
