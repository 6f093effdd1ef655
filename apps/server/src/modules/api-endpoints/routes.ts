import {
  API_ENDPOINT_SAVE_LABELS,
  type ApiEndpointListQuery,
  type ApiEndpointSave,
  apiCallSchema,
  apiEndpointResource,
  apiEndpointSavedSchema,
  apiEndpointSaveSchema,
  apiEndpointSchema,
  apiEndpointTestSchema,
  dataEnvelope,
  locationIdParamSchema,
  type Option,
  SAMPLE_INGEST_ROW,
  type Status,
  statusChangeSchema,
} from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { dataFeeds, endpointConfigs, locations, surveys } from '../../db/schema/index.ts';
import { clientScopeOf } from '../../kit/current-client.ts';
import { listRoutes } from '../../kit/list-routes.ts';
import { assertFresh, assertTransition, versionRequired } from '../../kit/status.ts';
import { validateFields } from '../../kit/validate-body.ts';
import { validated } from '../../kit/validated.ts';
import { fieldsRefused, HttpError, notFound } from '../../lib/http-error.ts';
import { validateFile } from '../../pipeline/ingest/run.ts';
import { ingestRoutes } from './ingest.ts';
import { countEndpoints, findEndpoint, listEndpoints, recentCalls } from './repository.ts';
import { saveEndpoint } from './save.ts';

const optionList = z.object({ data: z.array(z.object({ value: z.string(), label: z.string() })) });
type Params = z.infer<typeof locationIdParamSchema>;

async function locationOf(db: Db, id: string) {
  const [location] = await db.select().from(locations).where(eq(locations.id, id)).limit(1);
  if (!location) throw notFound('API endpoint');
  return location;
}

/**
 * Checks beyond the field rules: the survey is the location's client's and not archived; a token
 * newly bound works, may write feeds and may feed this client (its user's right, TOKEN_HOLDER_RULE).
 * The token already bound is kept as it is (a save of other settings is not refused because it
 * expired; its calls are).
 */
async function checkLinks(app: FastifyInstance, location: { id: string; clientId: number }, body: ApiEndpointSave): Promise<void> {
  const errors: Record<string, string[]> = {};
  const [survey] = await app.db
    .select({ id: surveys.id })
    .from(surveys)
    .where(and(eq(surveys.id, body.survey_id ?? 0), eq(surveys.clientId, location.clientId), sql`${surveys.status} <> 'inactive'`))
    .limit(1);
  if (!survey) errors.survey_id = ["The Survey must be one of this location's client's surveys that is not archived"];
  if (body.token_id) {
    const [bound] = await app.db
      .select({ tokenId: endpointConfigs.tokenId })
      .from(endpointConfigs)
      .where(eq(endpointConfigs.locationId, location.id))
      .limit(1);
    const feeders =
      bound?.tokenId === body.token_id ? null : await app.apiTokens.feeders(location.clientId, app.clock.now(), body.token_id);
    if (feeders?.length === 0) {
      errors.token_id = [
        "The Token must be a working token with the feeds:write scope, of a super-admin or of a user of this location's client",
      ];
    }
  }
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, apiEndpointResource.labels);
}

/**
 * API Managers (collection `/api/api-endpoints`; `GET /api/endpoints` stays the spec's locations
 * call): every location as an ingest endpoint with its settings and last day of calls, Save
 * (which makes or updates the endpoint's `api` data feed), Pause/Resume/Archive, recent calls,
 * and the survey and token choices of the form.
 */
export const apiEndpointRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(ingestRoutes);
  const path = apiEndpointResource.path;
  const scopeOf = (request: { auth: { user: { currentClientId: number | null } } | null }, q: ApiEndpointListQuery) =>
    clientScopeOf(q.client, request.auth?.user.currentClientId ?? null);
  listRoutes(app, apiEndpointResource, {
    page: (request, q, limit) => listEndpoints(app.db, q, scopeOf(request, q), limit),
    count: (request, q) => countEndpoints(app.db, q, scopeOf(request, q)),
    onExport: (request, filters) =>
      request.audit({ action: 'api_endpoint.export', message: 'Exported API endpoints', entityType: 'api_endpoint', after: filters }),
  });

  app.get(
    `${path}/:id`,
    { schema: { params: locationIdParamSchema, response: { 200: dataEnvelope(apiEndpointSchema) } } },
    async (request) => {
      const found = await findEndpoint(app.db, validated<Params>(request.params).id);
      if (!found) throw notFound('API endpoint');
      return { data: found };
    },
  );

  app.get(
    `${path}/:id/calls`,
    { schema: { params: locationIdParamSchema, response: { 200: z.object({ data: z.array(apiCallSchema) }) } } },
    async (request) => {
      const location = await locationOf(app.db, validated<Params>(request.params).id);
      return { data: await recentCalls(app.db, location.id) };
    },
  );

  // The form's choices: the location's client's surveys, and the tokens that may feed that client.
  app.get(`${path}/:id/survey-options`, { schema: { params: locationIdParamSchema, response: { 200: optionList } } }, async (request) => {
    const location = await locationOf(app.db, validated<Params>(request.params).id);
    const rows = await app.db
      .select({ id: surveys.id, name: surveys.name })
      .from(surveys)
      .where(and(eq(surveys.clientId, location.clientId), sql`${surveys.status} <> 'inactive'`))
      .orderBy(sql`lower(${surveys.name})`)
      .limit(500);
    return { data: rows.map((r): Option => ({ value: String(r.id), label: r.name })) };
  });
  app.get(`${path}/:id/token-options`, { schema: { params: locationIdParamSchema, response: { 200: optionList } } }, async (request) => {
    const location = await locationOf(app.db, validated<Params>(request.params).id);
    const tokens = await app.apiTokens.feeders(location.clientId, app.clock.now());
    return { data: tokens.map((t): Option => ({ value: String(t.id), label: `${t.name} (${t.userName}, ${t.prefix}…${t.last4})` })) };
  });

  // Send test payload: the sample row through the endpoint's feed as a call would go, as a dry run
  // (validated and normalized, nothing written), so a set-up can be checked without inventing a customer.
  app.post(
    `${path}/:id/test`,
    { schema: { params: locationIdParamSchema, response: { 200: dataEnvelope(apiEndpointTestSchema) } } },
    async (request) => {
      const location = await locationOf(app.db, validated<Params>(request.params).id);
      const [feed] = await app.db
        .select({ feed: dataFeeds })
        .from(endpointConfigs)
        .innerJoin(dataFeeds, eq(dataFeeds.id, endpointConfigs.dataFeedId))
        .where(eq(endpointConfigs.locationId, location.id))
        .limit(1);
      if (!feed) throw new HttpError(409, `The API endpoint of ${location.locationname} is not set up; save its settings first.`);
      const row = { ...SAMPLE_INGEST_ROW, transaction_date: app.clock.now().toISOString().slice(0, 10) };
      const csv = `${Object.keys(row).join(',')}\n${Object.values(row).join(',')}\n`;
      return { data: { payload: [row], result: await validateFile(app, feed.feed, [csv]) } };
    },
  );

  app.put(
    `${path}/:id`,
    {
      // The form's labels, so the input guard names refused fields by them (plugins/input-guard.ts).
      config: { labels: API_ENDPOINT_SAVE_LABELS },
      schema: { params: locationIdParamSchema, body: apiEndpointSaveSchema, response: { 200: dataEnvelope(apiEndpointSavedSchema) } },
    },
    async (request) => {
      const body = { ...apiEndpointResource.defaults, ...validated<ApiEndpointSave>(request.body) };
      const location = await locationOf(app.db, validated<Params>(request.params).id);
      // Once set up, a save edits a versioned record: the version it read comes first (kit/status.ts).
      if (body.updated_at === undefined && (await findEndpoint(app.db, location.id))?.configured) throw versionRequired();
      await validateFields(body, apiEndpointResource.rules, { names: apiEndpointResource.labels });
      await checkLinks(app, location, body);
      return { data: await saveEndpoint(request, location, body) };
    },
  );

  app.patch(
    `${path}/:id/status`,
    { schema: { params: locationIdParamSchema, body: statusChangeSchema, response: { 200: dataEnvelope(apiEndpointSchema) } } },
    async (request) => {
      const { status, updated_at: seen } = validated<z.infer<typeof statusChangeSchema>>(request.body);
      const location = await locationOf(app.db, validated<Params>(request.params).id);
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, location.id)).for('update');
        if (!before) throw new HttpError(409, `The API endpoint of ${location.locationname} is not set up; save its settings first.`);
        assertFresh(before.updatedAt, seen, 'This API endpoint');
        assertTransition(before.status, status, `The API endpoint of ${location.locationname}`);
        await tx
          .update(endpointConfigs)
          .set({ status: status satisfies Status, updatedAt: sql`now()` })
          .where(eq(endpointConfigs.locationId, location.id));
        // The feed follows: a paused feed ingests nothing (its rows would be skipped_paused).
        if (before.dataFeedId !== null) {
          await tx.update(dataFeeds).set({ status, updatedAt: sql`now()` }).where(eq(dataFeeds.id, before.dataFeedId));
        }
        await request.audit(
          {
            action: `api_endpoint.status.${status}`,
            message: `Changed the API endpoint of ${location.locationname} from ${before.status} to ${status}`,
            clientId: location.clientId,
            entityType: 'api_endpoint',
            entityId: location.id,
            before: { status: before.status },
            after: { status },
          },
          tx,
        );
        const after = await findEndpoint(tx, location.id);
        if (!after) throw notFound('API endpoint');
        return after;
      });
      return { data: updated };
    },
  );
};
