import {
  dataEnvelope,
  LISTING_ACTION_LABELS,
  type ListingListQuery,
  listingResource,
  listingScanRequestSchema,
  listingScanSchema,
} from '@admin/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { listingScans, locations } from '../../db/schema/index.ts';
import { csvFileName } from '../../kit/csv.ts';
import { sendCsv } from '../../kit/csv-export.ts';
import { clientScopeOf, requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { listRoutes } from '../../kit/list-routes.ts';
import { validated } from '../../kit/validated.ts';
import { conflict, fieldsRefused } from '../../lib/http-error.ts';
import { listingActionRoutes } from './actions.ts';
import { FIX_LIST_COLUMNS, fixListPages } from './fix-list.ts';
import { countListings, listingPage } from './repository.ts';
import { type ScanRow, startScan } from './start-scan.ts';

const def = listingResource;

const scanOf = (s: ScanRow) => ({
  id: s.id,
  client_id: s.clientId,
  location_id: s.locationId,
  status: s.status as z.infer<typeof listingScanSchema>['status'],
  total: s.total,
  done: s.done,
  failed: s.failed,
  error: s.error,
  started_at: s.startedAt?.toISOString() ?? null,
  finished_at: s.finishedAt?.toISOString() ?? null,
  created_at: s.createdAt.toISOString(),
});

/** The clients a request's list covers: the Clients filter, else the tab's current client (409 without one). */
const scopeOf = (request: FastifyRequest, q: { client?: ListingListQuery['client'] }) =>
  clientScopeOf(q.client, request.auth?.user.currentClientId ?? null);

/**
 * Listings Tool (domain.md §12): the kit's list and export (keyset, filters client, location,
 * directory, status and Score below), the fix list CSV, Scan now with its progress, and the row
 * actions (./actions.ts). Staff only (the access plugin's default); every write audited.
 */
export const listingRoutes: FastifyPluginAsyncZod = async (app) => {
  listRoutes(app, def, {
    page: (request, q, limit) => listingPage(app.db, scopeOf(request, q), q, limit),
    count: (request, q) => countListings(app.db, scopeOf(request, q), q),
    onExport: (request, filters) =>
      request.audit({ action: 'listing.export', message: 'Exported listings as CSV', entityType: 'listing', after: filters }),
  });

  app.get(`${def.path}/fix-list`, { schema: { querystring: def.exportQuerySchema } }, async (request, reply) => {
    const q = validated<ListingListQuery>(request.query);
    const scope = scopeOf(request, q);
    return sendCsv(reply, {
      fileName: csvFileName('listings-fix-list', app.clock.now()),
      columns: FIX_LIST_COLUMNS,
      read: fixListPages(app.db, scope, q),
      onStart: () =>
        request.audit({
          action: 'listing.fix_list',
          message: 'Exported the listings fix list as CSV',
          entityType: 'listing',
          after: { ...q },
        }),
    });
  });

  app.post(
    `${def.path}/scan`,
    {
      config: { labels: LISTING_ACTION_LABELS },
      schema: { body: listingScanRequestSchema.nullish(), response: { 202: dataEnvelope(listingScanSchema) } },
    },
    async (request, reply) => {
      const client = await requireWritableClient(request);
      const locationId = request.body?.location_id ?? null;
      if (locationId !== null) {
        const [location] = await app.db
          .select({ id: locations.id })
          .from(locations)
          .where(and(eq(locations.id, locationId), eq(locations.clientId, client.id)))
          .limit(1);
        if (!location)
          throw fieldsRefused({ location_id: [`The Location field must be a location of ${client.name}`] }, LISTING_ACTION_LABELS);
      }
      const { scan, started } = await startScan(
        app.db,
        { clientId: client.id, locationId, requestedBy: request.auth?.user.id ?? null },
        app.clock.now(),
        (tx, s) =>
          request.audit(
            {
              action: 'listing.scan',
              message: locationId ? `Scan now of location ${locationId}` : `Scan now of every active location of ${client.name}`,
              clientId: client.id,
              entityType: 'listing_scan',
              entityId: s.id,
              after: { location_id: locationId, total: s.total },
            },
            tx,
          ),
      );
      if (!started)
        throw conflict(
          `A scan of ${client.name} is already ${scan.status === 'queued' ? 'queued' : 'running'} (${scan.done} of ${scan.total} locations); wait for it to finish.`,
          {
            scan: ['A scan is already running'],
          },
        );
      return reply.code(202).send({ data: scanOf(scan) });
    },
  );

  // The current client's latest scan, polled by the screen for its progress.
  app.get(`${def.path}/scans/latest`, { schema: { response: { 200: dataEnvelope(listingScanSchema.nullable()) } } }, async (request) => {
    const clientId = requireCurrentClientId(request);
    const [scan] = await app.db
      .select()
      .from(listingScans)
      .where(eq(listingScans.clientId, clientId))
      .orderBy(desc(listingScans.createdAt), desc(listingScans.id))
      .limit(1);
    return { data: scan ? scanOf(scan) : null };
  });

  listingActionRoutes(app);
};
