import {
  ALL_CLIENTS,
  csvImportSchema,
  dataEnvelope,
  importResultSchema,
  type LocationCreate,
  listEnvelope,
  locationColumns,
  locationCreateSchema,
  locationExportQuerySchema,
  locationFieldRules,
  locationIdParamSchema,
  locationListQuerySchema,
  locationManagerRules,
  locationSchema,
  locationUpdateSchema,
  optionsAnswerSchema,
  optionsQuerySchema,
  statusChangeSchema,
} from '@admin/shared';
import { checkLocationExtras } from '@admin/shared/resources/location-extras';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { locations } from '../../db/schema/index.ts';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { checkImport } from '../../kit/csv-import.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { assertFresh, assertTransition } from '../../kit/status.ts';
import { type FieldRules, validateFields } from '../../kit/validate-body.ts';
import { conflict, HttpError, notFound } from '../../lib/http-error.ts';
import {
  assertClientUser,
  type ClientScope,
  countLocations,
  findLocation,
  listLocations,
  locationOptions,
  locationValues,
  newLocationId,
  toLocation,
  usedExternalCodes,
} from './repository.ts';

const rules = locationFieldRules as unknown as FieldRules;
const formRules = { ...rules, ...(locationManagerRules as unknown as FieldRules) };

/** The form's rules, hours and review links included; one 422 naming every bad field. */
async function validateForm(body: Partial<LocationCreate>, partial = false): Promise<void> {
  const errors: Record<string, string[]> = await checkLocationExtras(body);
  try {
    await validateFields(body, formRules, { partial });
  } catch (e) {
    if (!(e instanceof HttpError) || !e.errors) throw e;
    Object.assign(errors, e.errors);
  }
  if (Object.keys(errors).length > 0) throw new HttpError(422, `Please correct: ${Object.keys(errors).join(', ')}.`, errors);
}
const listAnswer = listEnvelope(locationSchema).extend({ totalIsEstimate: z.boolean() });

/** A row for a new location of `client`; the rules have already checked the required fields. */
function newLocationRow(body: Partial<LocationCreate>, client: { id: number; rootTeamId: number | null }) {
  return {
    address1: '',
    city: '',
    state: '',
    postalCode: '',
    phone: '',
    timezone: '',
    locationname: '',
    ...locationValues(body),
    id: newLocationId(),
    clientId: client.id,
    teamId: client.rootTeamId,
  };
}

/** Locations, served as the spec's `endpoints` collection (the current client's by default). */
export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The Clients filter when given (`all` = every client), else the current client. */
  const listedClientIds = (filter: number[] | typeof ALL_CLIENTS | undefined, request: FastifyRequest): ClientScope =>
    filter === ALL_CLIENTS ? ALL_CLIENTS : filter && filter.length > 0 ? filter : [requireCurrentClientId(request)];

  app.get(
    '/api/endpoints',
    { config: { access: 'superadmin' }, schema: { querystring: locationListQuerySchema, response: { 200: listAnswer } } },
    async (request) => {
      const q = request.query;
      const ids = listedClientIds(q.client, request);
      const { rows, nextCursor } = await listLocations(app.db, q, ids, q.perPage);
      return { data: rows, nextCursor, ...(await countLocations(app.db, q, ids)) };
    },
  );

  // The current client's locations for pickers (e.g. Personnel's Locations), paged by name.
  app.get(
    '/api/endpoints/options',
    { config: { access: 'superadmin' }, schema: { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
    async (request) => locationOptions(app.db, requireCurrentClientId(request), request.query),
  );

  app.get(
    '/api/endpoints/export',
    { config: { access: 'superadmin' }, schema: { querystring: locationExportQuerySchema } },
    async (request, reply) => {
      const { cursor: _c, perPage: _p, columns: chosen, ...q } = request.query;
      const ids = listedClientIds(q.client, request);
      const columns = chosen
        ? chosen.map((k) => locationColumns.find((c) => c.key === k)).filter((c) => c !== undefined)
        : locationColumns.filter((c) => c.defaultVisible);
      const db = app.db;
      async function* batches() {
        let cursor: string | undefined;
        do {
          const page = await listLocations(db, { ...q, ...(cursor ? { cursor } : {}) }, ids, 2000);
          yield page.rows.map((r) => ({ ...r, city_state: `${r.city}, ${r.state}`, review_sites: Object.keys(r.review_links).join('; ') }));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      return sendCsv(reply, csvFileName('locations'), columns, batches());
    },
  );

  app.post(
    '/api/endpoints',
    { config: { access: 'superadmin' }, schema: { body: locationCreateSchema, response: { 201: dataEnvelope(locationSchema) } } },
    async (request, reply) => {
      const { client_id, ...fields } = request.body;
      const client = await requireWritableClient(request, client_id);
      const body = { country: 'US', ...fields };
      await validateForm(body);
      await assertClientUser(app.db, client.id, body.manager_user_id);
      if (body.external_code && (await usedExternalCodes(app.db, client.id, [body.external_code])).size > 0) {
        throw conflict('This store code is already used by another location of the client.', {
          external_code: ['The external code has already been taken'],
        });
      }
      const created = await app.db.transaction(async (tx) => {
        const [row] = await tx.insert(locations).values(newLocationRow(body, client)).returning();
        if (!row) throw new Error('insert returned nothing');
        await request.audit(
          {
            action: 'location.create',
            message: `Created location ${row.locationname}`,
            clientId: client.id,
            entityType: 'location',
            entityId: row.id,
            after: toLocation(row),
          },
          tx,
        );
        return row;
      });
      return reply.code(201).send({ data: toLocation(created, client.name) });
    },
  );

  app.post(
    '/api/endpoints/import',
    {
      config: { access: 'superadmin' },
      bodyLimit: 6 * 1024 * 1024,
      schema: {
        body: csvImportSchema,
        response: { 201: dataEnvelope(importResultSchema) },
      },
    },
    async (request, reply) => {
      const client = await requireWritableClient(request);
      const bodies = (await checkImport({
        noun: 'location',
        csv: request.body.csv,
        rules,
        defaults: { country: 'US' },
        unique: { column: 'external_code', label: 'external code', taken: (codes) => usedExternalCodes(app.db, client.id, codes) },
      })) as LocationCreate[];
      await app.db.transaction(async (tx) => {
        const values = bodies.map((b) => newLocationRow(b, client));
        for (let i = 0; i < values.length; i += 500) await tx.insert(locations).values(values.slice(i, i + 500));
        await request.audit(
          {
            action: 'location.import',
            message: `Imported ${values.length} locations`,
            clientId: client.id,
            entityType: 'location',
            after: { count: values.length },
          },
          tx,
        );
      });
      return reply.code(201).send({ data: { imported: bodies.length, clientId: client.id } });
    },
  );

  app.get(
    '/api/endpoints/:id',
    { config: { access: 'superadmin' }, schema: { params: locationIdParamSchema, response: { 200: dataEnvelope(locationSchema) } } },
    async (request) => {
      const found = await findLocation(app.db, request.params.id);
      if (!found) throw notFound('Location');
      return { data: toLocation(found.row, found.clientName, found.personnelCount) };
    },
  );

  app.patch(
    '/api/endpoints/:id',
    {
      config: { access: 'superadmin' },
      schema: { params: locationIdParamSchema, body: locationUpdateSchema, response: { 200: dataEnvelope(locationSchema) } },
    },
    async (request) => {
      const { updated_at: seen, ...changes } = request.body;
      await validateForm(changes, true);
      const found = await findLocation(app.db, request.params.id);
      if (!found) throw notFound('Location');
      await assertClientUser(app.db, found.row.clientId, changes.manager_user_id);
      if (changes.external_code && (await usedExternalCodes(app.db, found.row.clientId, [changes.external_code], found.row.id)).size > 0) {
        throw conflict('This store code is already used by another location of the client.', {
          external_code: ['The external code has already been taken'],
        });
      }
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(locations).where(eq(locations.id, request.params.id)).for('update');
        if (!before) throw notFound('Location');
        assertFresh(before.updatedAt, seen, 'This location');
        const [row] = await tx
          .update(locations)
          .set({ ...locationValues(changes, before.reviewLinks), updatedAt: sql`now()` })
          .where(eq(locations.id, before.id))
          .returning();
        if (!row) throw notFound('Location');
        await request.audit(
          {
            action: 'location.update',
            message: `Updated location ${row.locationname}`,
            clientId: row.clientId,
            entityType: 'location',
            entityId: row.id,
            before: toLocation(before),
            after: toLocation(row),
          },
          tx,
        );
        return row;
      });
      return { data: toLocation(updated, found.clientName) };
    },
  );

  app.patch(
    '/api/endpoints/:id/status',
    {
      config: { access: 'superadmin' },
      schema: { params: locationIdParamSchema, body: statusChangeSchema, response: { 200: dataEnvelope(locationSchema) } },
    },
    async (request) => {
      const { status, updated_at: seen } = request.body;
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(locations).where(eq(locations.id, request.params.id)).for('update');
        if (!before) throw notFound('Location');
        assertFresh(before.updatedAt, seen, 'This location');
        assertTransition(before.status, status, before.locationname);
        const [row] = await tx.update(locations).set({ status, updatedAt: sql`now()` }).where(eq(locations.id, before.id)).returning();
        if (!row) throw notFound('Location');
        await request.audit(
          {
            action: `location.status.${status}`,
            message: `Changed ${row.locationname} from ${before.status} to ${status}`,
            clientId: row.clientId,
            entityType: 'location',
            entityId: row.id,
            before: { status: before.status },
            after: { status },
          },
          tx,
        );
        return row;
      });
      return { data: toLocation(updated) };
    },
  );
};
