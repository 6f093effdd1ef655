import {
  dataEnvelope,
  listEnvelope,
  referralSourceColumns,
  referralSourceCreateSchema,
  referralSourceExportQuerySchema,
  referralSourceFieldRules,
  referralSourceIdParamSchema,
  referralSourceListQuerySchema,
  referralSourceSchema,
  referralSourceUpdateSchema,
  statusChangeSchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { referralSources } from '../../db/schema/index.ts';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { assertFresh, assertTransition } from '../../kit/status.ts';
import { type FieldRules, validateFields } from '../../kit/validate-body.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import { countReferralSources, listReferralSources, referralSourceValues, sourceCodeTaken, toReferralSource } from './repository.ts';

const rules = referralSourceFieldRules as unknown as FieldRules;
const listAnswer = listEnvelope(referralSourceSchema).extend({ totalIsEstimate: z.boolean() });
const codeConflict = () => conflict('Another referral source of this owner has this code.', { code: ['The code has already been taken'] });

/** Referral sources: the current client's own and the global defaults (spec path `referral-source`). */
export const referralSourceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/referral-source',
    { config: { access: 'superadmin' }, schema: { querystring: referralSourceListQuerySchema, response: { 200: listAnswer } } },
    async (request) => {
      const q = request.query;
      const clientId = requireCurrentClientId(request);
      const { rows, nextCursor } = await listReferralSources(app.db, q, clientId, q.perPage);
      return { data: rows, nextCursor, ...(await countReferralSources(app.db, q, clientId)) };
    },
  );

  app.get(
    '/api/referral-source/export',
    { config: { access: 'superadmin' }, schema: { querystring: referralSourceExportQuerySchema } },
    async (request, reply) => {
      const { cursor: _c, perPage: _p, columns: chosen, ...q } = request.query;
      const clientId = requireCurrentClientId(request);
      const columns = chosen
        ? chosen.map((k) => referralSourceColumns.find((c) => c.key === k)).filter((c) => c !== undefined)
        : referralSourceColumns.filter((c) => c.defaultVisible);
      const db = app.db;
      async function* batches() {
        let cursor: string | undefined;
        do {
          const page = await listReferralSources(db, { ...q, ...(cursor ? { cursor } : {}) }, clientId, 2000);
          yield page.rows;
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      return sendCsv(reply, csvFileName('referral-sources'), columns, batches());
    },
  );

  app.post(
    '/api/referral-source',
    {
      config: { access: 'superadmin' },
      schema: { body: referralSourceCreateSchema, response: { 201: dataEnvelope(referralSourceSchema) } },
    },
    async (request, reply) => {
      const { global, ...body } = request.body;
      const client = global ? null : await requireWritableClient(app.db, request);
      const clientId = client?.id ?? null;
      await validateFields(body, rules);
      if (await sourceCodeTaken(app.db, clientId, body.code ?? '')) throw codeConflict();
      const created = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(referralSources)
          .values({ name: '', code: '', type: 'other', ...referralSourceValues(body), clientId })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        await request.audit(
          {
            action: 'referral_source.create',
            message: `Created referral source ${row.name}`,
            clientId,
            entityType: 'referral_source',
            entityId: row.id,
            after: toReferralSource(row),
          },
          tx,
        );
        return row;
      });
      return reply.code(201).send({ data: toReferralSource(created, client?.name ?? null) });
    },
  );

  app.patch(
    '/api/referral-source/:id',
    {
      config: { access: 'superadmin' },
      schema: {
        params: referralSourceIdParamSchema,
        body: referralSourceUpdateSchema,
        response: { 200: dataEnvelope(referralSourceSchema) },
      },
    },
    async (request) => {
      const { updated_at: seen, ...changes } = request.body;
      await validateFields(changes, rules, { partial: true });
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(referralSources).where(eq(referralSources.id, request.params.id)).for('update');
        if (!before) throw notFound('Referral source');
        assertFresh(before.updatedAt, seen, 'This referral source');
        if (changes.code && (await sourceCodeTaken(tx, before.clientId, changes.code, before.id))) throw codeConflict();
        const [row] = await tx
          .update(referralSources)
          .set({ ...referralSourceValues(changes), updatedAt: sql`now()` })
          .where(eq(referralSources.id, before.id))
          .returning();
        if (!row) throw notFound('Referral source');
        await request.audit(
          {
            action: 'referral_source.update',
            message: `Updated referral source ${row.name}`,
            clientId: row.clientId,
            entityType: 'referral_source',
            entityId: row.id,
            before: toReferralSource(before),
            after: toReferralSource(row),
          },
          tx,
        );
        return row;
      });
      return { data: toReferralSource(updated) };
    },
  );

  app.patch(
    '/api/referral-source/:id/status',
    {
      config: { access: 'superadmin' },
      schema: { params: referralSourceIdParamSchema, body: statusChangeSchema, response: { 200: dataEnvelope(referralSourceSchema) } },
    },
    async (request) => {
      const { status, updated_at: seen } = request.body;
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(referralSources).where(eq(referralSources.id, request.params.id)).for('update');
        if (!before) throw notFound('Referral source');
        assertFresh(before.updatedAt, seen, 'This referral source');
        assertTransition(before.status, status, before.name);
        const [row] = await tx
          .update(referralSources)
          .set({ status, updatedAt: sql`now()` })
          .where(eq(referralSources.id, before.id))
          .returning();
        if (!row) throw notFound('Referral source');
        await request.audit(
          {
            action: `referral_source.status.${status}`,
            message: `Changed ${row.name} from ${before.status} to ${status}`,
            clientId: row.clientId,
            entityType: 'referral_source',
            entityId: row.id,
            before: { status: before.status },
            after: { status },
          },
          tx,
        );
        return row;
      });
      return { data: toReferralSource(updated) };
    },
  );
};
