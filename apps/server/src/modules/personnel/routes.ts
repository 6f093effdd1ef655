import {
  csvImportSchema,
  dataEnvelope,
  importResultSchema,
  listEnvelope,
  type PersonCreate,
  personCreateSchema,
  personIdParamSchema,
  personnelColumns,
  personnelExportQuerySchema,
  personnelFieldRules,
  personnelListQuerySchema,
  personSchema,
  personUpdateSchema,
  statusChangeSchema,
} from '@admin/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { locations, personnel, personnelLocations } from '../../db/schema/index.ts';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { checkImport } from '../../kit/csv-import.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { assertFresh, assertTransition } from '../../kit/status.ts';
import { usedPerClient } from '../../kit/unique.ts';
import { type FieldRules, validateFields } from '../../kit/validate-body.ts';
import { conflict, HttpError, notFound } from '../../lib/http-error.ts';
import {
  countPersonnel,
  employeeCodeTaken,
  foreignLocations,
  linksOf,
  listPersonnel,
  type PersonRow,
  personnelTitles,
  personValues,
  toPerson,
} from './repository.ts';

const rules = personnelFieldRules as unknown as FieldRules;
/** An import line's single-value columns; `locations` and `aliases` are lists checked separately. */
const { location_ids: _l, aliases: _a, ...importRules } = rules;
const listOf = (cell: string | undefined) =>
  (cell ?? '')
    .split(';')
    .map((v) => v.trim())
    .filter((v) => v !== '');
const listAnswer = listEnvelope(personSchema).extend({ totalIsEstimate: z.boolean() });
const codeConflict = () =>
  conflict('Another person of this client has this employee code.', { employee_code: ['The employee code has already been taken'] });

/** Personnel of the current client (collection `/api/personnel`), linked to its locations. */
export const personnelRoutes: FastifyPluginAsyncZod = async (app) => {
  /** 422 unless every location is one of the client's. */
  async function checkLocations(db: Db, clientId: number, ids: string[] | undefined) {
    if (!ids) return;
    const foreign = await foreignLocations(db, clientId, ids);
    if (foreign.length > 0) {
      throw new HttpError(422, 'Please correct: location_ids.', { location_ids: ['Choose locations of the current client'] });
    }
  }

  async function withLinks(db: Db, row: PersonRow) {
    return toPerson(row, (await linksOf(db, [row.id])).get(row.id));
  }

  async function setLinks(tx: Db, personId: number, ids: string[]) {
    await tx.delete(personnelLocations).where(eq(personnelLocations.personnelId, personId));
    const unique = [...new Set(ids)];
    if (unique.length > 0) await tx.insert(personnelLocations).values(unique.map((locationId) => ({ personnelId: personId, locationId })));
  }

  app.get(
    '/api/personnel',
    { config: { access: 'superadmin' }, schema: { querystring: personnelListQuerySchema, response: { 200: listAnswer } } },
    async (request) => {
      const q = request.query;
      const clientId = requireCurrentClientId(request);
      const { rows, nextCursor } = await listPersonnel(app.db, q, clientId, q.perPage);
      return { data: rows, nextCursor, ...(await countPersonnel(app.db, q, clientId)) };
    },
  );

  app.get(
    '/api/personnel/export',
    { config: { access: 'superadmin' }, schema: { querystring: personnelExportQuerySchema } },
    async (request, reply) => {
      const { cursor: _c, perPage: _p, columns: chosen, ...q } = request.query;
      const clientId = requireCurrentClientId(request);
      const columns = chosen
        ? chosen.map((k) => personnelColumns.find((c) => c.key === k)).filter((c) => c !== undefined)
        : personnelColumns.filter((c) => c.defaultVisible);
      const db = app.db;
      async function* batches() {
        let cursor: string | undefined;
        do {
          const page = await listPersonnel(db, { ...q, ...(cursor ? { cursor } : {}) }, clientId, 1000);
          yield page.rows.map((p) => ({ ...p, location_names: p.location_names.join('; '), aliases_count: p.aliases.length }));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      return sendCsv(reply, csvFileName('personnel'), columns, batches());
    },
  );

  app.get(
    '/api/personnel/filter-options',
    { config: { access: 'superadmin' }, schema: { response: { 200: dataEnvelope(z.object({ titles: z.array(z.string()) })) } } },
    async (request) => ({ data: { titles: await personnelTitles(app.db, requireCurrentClientId(request)) } }),
  );

  app.get(
    '/api/personnel/:id',
    { config: { access: 'superadmin' }, schema: { params: personIdParamSchema, response: { 200: dataEnvelope(personSchema) } } },
    async (request) => {
      const [row] = await app.db.select().from(personnel).where(eq(personnel.id, request.params.id));
      if (!row) throw notFound('Person');
      return { data: await withLinks(app.db, row) };
    },
  );

  app.post(
    '/api/personnel',
    { config: { access: 'superadmin' }, schema: { body: personCreateSchema, response: { 201: dataEnvelope(personSchema) } } },
    async (request, reply) => {
      const client = await requireWritableClient(request);
      const body: PersonCreate = { location_ids: [], aliases: [], ...request.body };
      await validateFields(body, rules);
      await checkLocations(app.db, client.id, body.location_ids);
      if (body.employee_code && (await employeeCodeTaken(app.db, client.id, body.employee_code))) throw codeConflict();
      const created = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(personnel)
          .values({ firstName: '', lastName: '', ...personValues(body), clientId: client.id })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        await setLinks(tx, row.id, body.location_ids ?? []);
        const person = await withLinks(tx, row);
        await request.audit(
          {
            action: 'personnel.create',
            message: `Created personnel ${person.name}`,
            clientId: client.id,
            entityType: 'personnel',
            entityId: row.id,
            after: person,
          },
          tx,
        );
        return person;
      });
      return reply.code(201).send({ data: created });
    },
  );

  app.post(
    '/api/personnel/import',
    {
      config: { access: 'superadmin' },
      bodyLimit: 6 * 1024 * 1024,
      schema: { body: csvImportSchema, response: { 201: dataEnvelope(importResultSchema) } },
    },
    async (request, reply) => {
      const client = await requireWritableClient(request);
      // Locations may be named by _id, external code or exact name (case-insensitive).
      const own = await app.db
        .select({ id: locations.id, code: locations.externalCode, name: locations.locationname })
        .from(locations)
        .where(and(eq(locations.clientId, client.id), ne(locations.status, 'inactive')));
      const byKey = new Map<string, string>();
      for (const l of own) for (const k of [l.id, l.code, l.name]) if (k) byKey.set(k.toLowerCase(), l.id);

      const lines = await checkImport({
        noun: 'person',
        csv: request.body.csv,
        rules: importRules,
        extraColumns: ['locations', 'aliases'],
        unique: {
          column: 'employee_code',
          label: 'employee code',
          taken: (codes) =>
            usedPerClient(app.db, personnel, { client: personnel.clientId, value: personnel.employeeCode }, client.id, codes),
        },
        checkRow(row) {
          const messages: string[] = [];
          const named = listOf(row.locations);
          if (named.length === 0) messages.push('The locations field is required');
          const unknown = named.filter((n) => !byKey.has(n.toLowerCase()));
          if (unknown.length > 0) messages.push(`Unknown locations: ${unknown.join(', ')}`);
          const aliases = listOf(row.aliases);
          if (aliases.length > 20) messages.push('At most 20 aliases');
          if (aliases.some((a) => a.length > 120)) messages.push('The aliases field may not be greater than 120 characters');
          return messages;
        },
      });

      const people = lines.map((row) => ({
        values: personValues({ ...row, aliases: listOf(row.aliases) }),
        locationIds: [...new Set(listOf(row.locations).map((n) => byKey.get(n.toLowerCase()) ?? ''))],
      }));
      await app.db.transaction(async (tx) => {
        for (let i = 0; i < people.length; i += 500) {
          const batch = people.slice(i, i + 500);
          // PostgreSQL returns the rows of a multi-row VALUES insert in the order given.
          const inserted = await tx
            .insert(personnel)
            .values(batch.map((p) => ({ firstName: '', lastName: '', ...p.values, clientId: client.id })))
            .returning({ id: personnel.id });
          const links = inserted.flatMap((row, j) =>
            (batch[j]?.locationIds ?? []).map((locationId) => ({ personnelId: row.id, locationId })),
          );
          if (links.length > 0) await tx.insert(personnelLocations).values(links);
        }
        await request.audit(
          {
            action: 'personnel.import',
            message: `Imported ${people.length} personnel`,
            clientId: client.id,
            entityType: 'personnel',
            after: { count: people.length },
          },
          tx,
        );
      });
      return reply.code(201).send({ data: { imported: people.length, clientId: client.id } });
    },
  );

  app.patch(
    '/api/personnel/:id',
    {
      config: { access: 'superadmin' },
      schema: { params: personIdParamSchema, body: personUpdateSchema, response: { 200: dataEnvelope(personSchema) } },
    },
    async (request) => {
      const { updated_at: seen, ...changes } = request.body;
      await validateFields(changes, rules, { partial: true });
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(personnel).where(eq(personnel.id, request.params.id)).for('update');
        if (!before) throw notFound('Person');
        assertFresh(before.updatedAt, seen, 'This person');
        await checkLocations(tx, before.clientId, changes.location_ids);
        if (changes.employee_code && (await employeeCodeTaken(tx, before.clientId, changes.employee_code, before.id))) throw codeConflict();
        const beforePerson = await withLinks(tx, before);
        const [row] = await tx
          .update(personnel)
          .set({ ...personValues(changes), updatedAt: sql`now()` })
          .where(eq(personnel.id, before.id))
          .returning();
        if (!row) throw notFound('Person');
        if (changes.location_ids) await setLinks(tx, row.id, changes.location_ids);
        const person = await withLinks(tx, row);
        await request.audit(
          {
            action: 'personnel.update',
            message: `Updated personnel ${person.name}`,
            clientId: row.clientId,
            entityType: 'personnel',
            entityId: row.id,
            before: beforePerson,
            after: person,
          },
          tx,
        );
        return person;
      });
      return { data: updated };
    },
  );

  app.patch(
    '/api/personnel/:id/status',
    {
      config: { access: 'superadmin' },
      schema: { params: personIdParamSchema, body: statusChangeSchema, response: { 200: dataEnvelope(personSchema) } },
    },
    async (request) => {
      const { status, updated_at: seen } = request.body;
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(personnel).where(eq(personnel.id, request.params.id)).for('update');
        if (!before) throw notFound('Person');
        assertFresh(before.updatedAt, seen, 'This person');
        if (before.mergedIntoId !== null) {
          throw conflict(
            `${before.firstName} ${before.lastName} was merged into person #${before.mergedIntoId}; a merge cannot be undone.`,
          );
        }
        assertTransition(before.status, status, `${before.firstName} ${before.lastName}`);
        const [row] = await tx.update(personnel).set({ status, updatedAt: sql`now()` }).where(eq(personnel.id, before.id)).returning();
        if (!row) throw notFound('Person');
        await request.audit(
          {
            action: `personnel.status.${status}`,
            message: `Changed ${row.firstName} ${row.lastName} from ${before.status} to ${status}`,
            clientId: row.clientId,
            entityType: 'personnel',
            entityId: row.id,
            before: { status: before.status },
            after: { status },
          },
          tx,
        );
        return withLinks(tx, row);
      });
      return { data: updated };
    },
  );
};
