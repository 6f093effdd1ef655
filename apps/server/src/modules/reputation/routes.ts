import {
  dataEnvelope,
  type ReputationListQuery,
  reputationFiltersQuerySchema,
  reputationFiltersSchema,
  reputationKpisSchema,
  reputationResource,
} from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { amplifications } from '../../db/schema/index.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { whereClause } from '../../kit/keyset-page.ts';
import { listRoutes } from '../../kit/list-routes.ts';
import { countMatching } from '../../kit/totals.ts';
import { validated } from '../../kit/validated.ts';
import { HttpError } from '../../lib/http-error.ts';
import { filterOptions, kpisOf } from './kpis.ts';
import { amplificationsWhere, listPage, type Scope } from './repository.ts';

const def = reputationResource;

/**
 * The panel's client: the spec's `clientId` must be the signed-in user's current client, the one
 * the tab shows (decision 043; `X-Client-Id` is checked before this by plugins/client-scope.ts).
 * Left out, the current client is meant. Another client is a 409 naming both, as that plugin says it.
 */
async function scopeOf(request: FastifyRequest, clientId: number | undefined): Promise<Scope> {
  const current = requireCurrentClientId(request);
  if (clientId !== undefined && clientId !== current) {
    throw new HttpError(409, `The clientId (${clientId}) is not the current client (${current}); switch clients first.`, {
      clientId: ['The clientId must be the current client'],
    });
  }
  const client = await request.server.clients.find(current);
  return { clientId: current, timezone: client?.timezone ?? 'UTC' };
}

/**
 * Reputation Panel (domain.md §10): the spec's `GET /api/v1/reputation?site&clientId` (a keyset
 * page of the client's amplifications on the site, Google by default; the kit's list contract)
 * and its export, `GET /api/v1/reputation/filters?site&clientId`, and the KPI cards for the same
 * filters. The row actions (resend, match, unmatch, candidates) are the amplification module's
 * (apps/server/src/reputation/amplify). Staff only, as every route without its own access.
 */
export const reputationRoutes: FastifyPluginAsyncZod = async (app) => {
  listRoutes(app, def, {
    page: async (request, q, limit) => listPage(app.db, await scopeOf(request, q.clientId), q, limit),
    count: async (request, q) =>
      countMatching(app.db, sql`from ${amplifications}${whereClause(amplificationsWhere(await scopeOf(request, q.clientId), q))}`),
    onExport: (request, filters) =>
      request.audit({
        action: 'amplifications.export',
        message: 'Exported the Reputation Panel as CSV',
        entityType: def.name,
        after: filters,
      }),
  });

  app.get(
    `${def.path}/filters`,
    { schema: { querystring: reputationFiltersQuerySchema, response: { 200: dataEnvelope(reputationFiltersSchema) } } },
    async (request) => {
      const scope = await scopeOf(request, request.query.clientId);
      return { data: await filterOptions(app.db, scope.clientId) };
    },
  );

  app.get(
    `${def.path}/kpis`,
    { schema: { querystring: def.listQuerySchema, response: { 200: dataEnvelope(reputationKpisSchema) } } },
    async (request) => {
      const q = validated<ReputationListQuery>(request.query);
      return { data: await kpisOf(app.db, await scopeOf(request, q.clientId), q) };
    },
  );
};
