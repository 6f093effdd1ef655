import {
  csvImportSchema,
  dataEnvelope,
  importResultSchema,
  listEnvelope,
  productColumns,
  productCreateSchema,
  productExportQuerySchema,
  productFieldRules,
  productIdParamSchema,
  productListQuerySchema,
  productSchema,
  productUpdateSchema,
  statusChangeSchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { products } from '../../db/schema/index.ts';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { checkImport } from '../../kit/csv-import.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { assertFresh, assertTransition } from '../../kit/status.ts';
import { usedPerClient } from '../../kit/unique.ts';
import { type FieldRules, validateFields } from '../../kit/validate-body.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import { codeTaken, countProducts, listProducts, productValues, toProduct } from './repository.ts';

const rules = productFieldRules as unknown as FieldRules;
const listAnswer = listEnvelope(productSchema).extend({ totalIsEstimate: z.boolean() });
const codeConflict = () => conflict('Another product of this client has this code.', { code: ['The code has already been taken'] });

/** Products of the current client (spec path `product`). */
export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/product',
    { config: { access: 'superadmin' }, schema: { querystring: productListQuerySchema, response: { 200: listAnswer } } },
    async (request) => {
      const q = request.query;
      const clientId = requireCurrentClientId(request);
      const { rows, nextCursor } = await listProducts(app.db, q, clientId, q.perPage);
      return { data: rows, nextCursor, ...(await countProducts(app.db, q, clientId)) };
    },
  );

  app.get(
    '/api/product/export',
    { config: { access: 'superadmin' }, schema: { querystring: productExportQuerySchema } },
    async (request, reply) => {
      const { cursor: _c, perPage: _p, columns: chosen, ...q } = request.query;
      const clientId = requireCurrentClientId(request);
      const columns = chosen
        ? chosen.map((k) => productColumns.find((c) => c.key === k)).filter((c) => c !== undefined)
        : productColumns.filter((c) => c.defaultVisible);
      const db = app.db;
      async function* batches() {
        let cursor: string | undefined;
        do {
          const page = await listProducts(db, { ...q, ...(cursor ? { cursor } : {}) }, clientId, 2000);
          yield page.rows;
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      return sendCsv(reply, csvFileName('products'), columns, batches());
    },
  );

  app.post(
    '/api/product/import',
    {
      config: { access: 'superadmin' },
      bodyLimit: 6 * 1024 * 1024,
      schema: { body: csvImportSchema, response: { 201: dataEnvelope(importResultSchema) } },
    },
    async (request, reply) => {
      const clientId = (await requireWritableClient(app.db, request)).id;
      const lines = await checkImport({
        noun: 'product',
        csv: request.body.csv,
        rules,
        unique: {
          column: 'code',
          label: 'code',
          taken: (codes) => usedPerClient(app.db, products, { client: products.clientId, value: products.code }, clientId, codes),
        },
      });
      await app.db.transaction(async (tx) => {
        const values = lines.map((line) => ({ name: '', code: '', ...productValues(line), clientId }));
        for (let i = 0; i < values.length; i += 500) await tx.insert(products).values(values.slice(i, i + 500));
        await request.audit(
          {
            action: 'product.import',
            message: `Imported ${values.length} products`,
            clientId,
            entityType: 'product',
            after: { count: values.length },
          },
          tx,
        );
      });
      return reply.code(201).send({ data: { imported: lines.length, clientId } });
    },
  );

  app.post(
    '/api/product',
    { config: { access: 'superadmin' }, schema: { body: productCreateSchema, response: { 201: dataEnvelope(productSchema) } } },
    async (request, reply) => {
      const client = await requireWritableClient(app.db, request);
      const clientId = client.id;
      await validateFields(request.body, rules);
      if (await codeTaken(app.db, clientId, request.body.code ?? '')) throw codeConflict();
      const created = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(products)
          .values({ name: '', code: '', ...productValues(request.body), clientId })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        await request.audit(
          {
            action: 'product.create',
            message: `Created product ${row.name}`,
            clientId,
            entityType: 'product',
            entityId: row.id,
            after: toProduct(row),
          },
          tx,
        );
        return row;
      });
      return reply.code(201).send({ data: toProduct(created, client.name) });
    },
  );

  app.patch(
    '/api/product/:id',
    {
      config: { access: 'superadmin' },
      schema: { params: productIdParamSchema, body: productUpdateSchema, response: { 200: dataEnvelope(productSchema) } },
    },
    async (request) => {
      const { updated_at: seen, ...changes } = request.body;
      await validateFields(changes, rules, { partial: true });
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(products).where(eq(products.id, request.params.id)).for('update');
        if (!before) throw notFound('Product');
        assertFresh(before.updatedAt, seen, 'This product');
        if (changes.code && (await codeTaken(tx, before.clientId, changes.code, before.id))) throw codeConflict();
        const [row] = await tx
          .update(products)
          .set({ ...productValues(changes), updatedAt: sql`now()` })
          .where(eq(products.id, before.id))
          .returning();
        if (!row) throw notFound('Product');
        await request.audit(
          {
            action: 'product.update',
            message: `Updated product ${row.name}`,
            clientId: row.clientId,
            entityType: 'product',
            entityId: row.id,
            before: toProduct(before),
            after: toProduct(row),
          },
          tx,
        );
        return row;
      });
      return { data: toProduct(updated) };
    },
  );

  app.patch(
    '/api/product/:id/status',
    {
      config: { access: 'superadmin' },
      schema: { params: productIdParamSchema, body: statusChangeSchema, response: { 200: dataEnvelope(productSchema) } },
    },
    async (request) => {
      const { status, updated_at: seen } = request.body;
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(products).where(eq(products.id, request.params.id)).for('update');
        if (!before) throw notFound('Product');
        assertFresh(before.updatedAt, seen, 'This product');
        assertTransition(before.status, status, before.name);
        const [row] = await tx.update(products).set({ status, updatedAt: sql`now()` }).where(eq(products.id, before.id)).returning();
        if (!row) throw notFound('Product');
        await request.audit(
          {
            action: `product.status.${status}`,
            message: `Changed ${row.name} from ${before.status} to ${status}`,
            clientId: row.clientId,
            entityType: 'product',
            entityId: row.id,
            before: { status: before.status },
            after: { status },
          },
          tx,
        );
        return row;
      });
      return { data: toProduct(updated) };
    },
  );
};
