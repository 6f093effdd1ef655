import { dataEnvelope, idParamSchema, type Status, statusChangeSchema } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { requireCurrentClientId, requireWritableClient } from './current-client.ts';
import { importRoute } from './import-route.ts';
import { itemOptionRoutes } from './item-options-route.ts';
import { type ListPaging, listRoutes } from './list-routes.ts';
import type { BaseRow, Client, ResourceDefinition, ResourceStore } from './resource-store.ts';
import { assertFresh, assertTransition } from './status.ts';
import { validateFields } from './validate-body.ts';
import { validated } from './validated.ts';

/**
 * List, export, get, create, update, status and (when the definition names import columns)
 * import routes for one resource, under its collection path (e.g. `/api/product`).
 */
export function resourceRoutes<
  Rec extends object,
  Row extends BaseRow,
  Body extends Record<string, unknown>,
  Query extends ListPaging,
  C extends Client = number,
>(def: ResourceDefinition<Rec, Body, Query>, store: ResourceStore<Rec, Row, Body, Query, C>): FastifyPluginAsync {
  const noun = def.noun ?? def.name.replace(/_/g, ' ');
  const What = noun.charAt(0).toUpperCase() + noun.slice(1);
  const one = dataEnvelope(def.record);
  const table = store.table;
  const idParams = store.idParams ?? idParamSchema;
  /** Where one record lives: `<recordPath>/<id>`. */
  const recordPath = def.recordPath ?? def.path;
  const nameOf = (row: Row) => store.nameOf?.(row) ?? row.name ?? `#${row.id}`;
  const validate = (body: Record<string, unknown>, partial = false) => validateFields(body, def.rules, { partial, names: def.labels });
  // Routes that take a body carry the form's labels, so the input guard names refused fields by them (plugins/input-guard.ts).
  const config = { labels: def.labels };

  const uniqueLabel = def.unique ? (def.labels[def.unique] ?? def.unique) : '';
  const uniqueConflict = () =>
    conflict(`Another ${noun}${table.clientId ? ' of this owner' : ''} has this ${uniqueLabel.toLowerCase()}.`, {
      [def.unique ?? 'value']: [`The ${uniqueLabel} has already been taken`],
    });

  /** Rows of one owner: a client's, the global defaults (null), or every row when the table has no owner. */
  const ownerIs = (owner: number | null) =>
    !table.clientId ? sql`true` : owner === null ? sql`${table.clientId} is null` : sql`${table.clientId} = ${owner}`;

  /** The record as answered and audited. */
  const recordOf = async (db: Db, row: Row, clientName?: string | null): Promise<Rec> =>
    store.reload ? store.reload(db, row.id) : store.toRecord(row, clientName);

  /** Lower-case values of the unique field that the owner's other rows already use. */
  async function usedValues(db: Db, owner: number | null, values: string[], exceptId?: Row['id']): Promise<Set<string>> {
    const column = store.uniqueColumn;
    if (!column || values.length === 0) return new Set();
    const lower = sql<string>`lower(${column})`;
    const rows = await db
      .select({ value: lower })
      .from(table)
      .where(
        sql`${ownerIs(owner)} and ${lower} in (${sql.join(
          values.map((v) => sql`${v.toLowerCase()}`),
          sql`, `,
        )})${exceptId === undefined ? sql`` : sql` and ${table.id} <> ${exceptId}`}`,
      );
    return new Set(rows.map((r) => r.value));
  }

  async function assertUnique(db: Db, owner: number | null, body: Partial<Body>, exceptId?: Row['id']): Promise<void> {
    const value = def.unique ? body[def.unique] : undefined;
    if (typeof value === 'string' && value.trim() !== '' && (await usedValues(db, owner, [value.trim()], exceptId)).size > 0) {
      throw uniqueConflict();
    }
  }

  // The table's own row type: `select()` on a table passed in as a value is typed loosely.
  const asRow = (row: object): Row => row as unknown as Row;

  async function lock(tx: Db, id: Row['id']): Promise<Row> {
    const [row] = await tx.select().from(table).where(eq(table.id, id)).for('update');
    if (!row) throw notFound(What);
    return asRow(row);
  }

  async function write(tx: Db, id: Row['id'], values: Record<string, unknown>): Promise<Row> {
    const [row] = await tx
      .update(table)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(table.id, id))
      .returning();
    if (!row) throw notFound(What);
    return asRow(row);
  }

  const audit = (
    request: FastifyRequest,
    tx: Db,
    action: string,
    message: string,
    row: Row,
    extra: { before?: unknown; after?: unknown },
  ) =>
    request.audit(
      {
        action: `${def.name}.${action}`,
        message,
        clientId: store.auditClient?.(row) ?? row.clientId ?? null,
        entityType: def.name,
        entityId: row.id,
        ...extra,
      },
      tx,
    );

  /** The client a list is of (see `ResourceStore.list`). */
  function listClient(request: FastifyRequest): C {
    if (def.scope === 'global') return null as C;
    if (def.scope === 'filterable-clients') return (request.auth?.user.currentClientId ?? null) as C;
    return requireCurrentClientId(request) as C;
  }

  return async (app) => {
    listRoutes(app, def, {
      page: (request, q, limit) => store.list(app.db, q, listClient(request), limit),
      count: (request, q) => store.count(app.db, q, listClient(request)),
    });

    app.get(`${recordPath}/:id`, { schema: { params: idParams, response: { 200: one } } }, async (request) => {
      const [row] = await app.db
        .select()
        .from(table)
        .where(eq(table.id, validated<{ id: Row['id'] }>(request.params).id))
        .limit(1);
      if (!row) throw notFound(What);
      return { data: await recordOf(app.db, asRow(row)) };
    });

    app.post(def.path, { config, schema: { body: def.createSchema, response: { 201: one } } }, async (request, reply) => {
      const body = { ...def.defaults, ...validated<Body>(request.body) };
      const client = def.scope === 'global' || store.isGlobal?.(body) ? null : await requireWritableClient(request, store.ownerOf?.(body));
      const owner = client?.id ?? null;
      await validate(body);
      await assertUnique(app.db, owner, body);
      await store.check?.(app.db, body, null, request);
      const created = await app.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(table)
          .values({ ...store.values(body, { clientId: owner }), ...(table.clientId ? { clientId: owner } : {}) })
          .returning();
        if (!inserted) throw new Error('insert returned nothing');
        const row = asRow(inserted);
        await store.afterInsert?.(tx, row, body, request);
        await store.afterWrite?.(tx, row, body, request);
        const record = await recordOf(tx, row, client?.name ?? null);
        await store.afterSave?.(tx, null, record, request);
        await audit(request, tx, 'create', `Created ${noun} ${nameOf(row)}`, row, { after: record });
        return record;
      });
      return reply.code(201).send({ data: created });
    });

    app.patch(
      `${recordPath}/:id`,
      { config, schema: { params: idParams, body: def.updateSchema, response: { 200: one } } },
      async (request) => {
        // `updated_at` rides along; the rules and `values` look only at the resource's fields.
        const changes = validated<Partial<Body> & { updated_at?: string }>(request.body);
        const seen = changes.updated_at;
        const partial: Partial<Body> = changes;
        const id = validated<{ id: Row['id'] }>(request.params).id;
        await validate(changes, true);
        const updated = await app.db.transaction(async (tx) => {
          const before = await lock(tx, id);
          assertFresh(before.updatedAt, seen, `This ${noun}`);
          await assertUnique(tx, before.clientId ?? null, partial, before.id);
          await store.check?.(tx, partial, before, request);
          const beforeRecord = await recordOf(tx, before);
          const row = await write(tx, before.id, store.values(partial, { before }));
          await store.afterWrite?.(tx, row, partial, request);
          const record = await recordOf(tx, row);
          await store.afterSave?.(tx, beforeRecord, record, request);
          await audit(request, tx, 'update', `Updated ${noun} ${nameOf(row)}`, row, { before: beforeRecord, after: record });
          return record;
        });
        return { data: updated };
      },
    );

    app.patch(
      `${recordPath}/:id/status`,
      { config, schema: { params: idParams, body: statusChangeSchema, response: { 200: one } } },
      async (request) => {
        const { status, updated_at: seen } = validated<z.infer<typeof statusChangeSchema>>(request.body);
        const id = validated<{ id: Row['id'] }>(request.params).id;
        const updated = await app.db.transaction(async (tx) => {
          const before = await lock(tx, id);
          assertFresh(before.updatedAt, seen, `This ${noun}`);
          assertTransition(before.status, status, nameOf(before));
          await store.beforeStatus?.(tx, before, status, request);
          const row = await write(tx, before.id, { status: status satisfies Status });
          await audit(request, tx, `status.${status}`, `Changed ${nameOf(row)} from ${before.status} to ${status}`, row, {
            before: { status: before.status },
            after: { status },
          });
          return recordOf(tx, row);
        });
        return { data: updated };
      },
    );

    itemOptionRoutes(app, def, store);
    if (def.importColumns) importRoute(app, def, store, def.importColumns, { noun, uniqueLabel, usedValues });
  };
}
