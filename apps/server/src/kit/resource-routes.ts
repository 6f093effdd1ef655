import {
  csvImportSchema,
  dataEnvelope,
  type FilterSpec,
  idParamSchema,
  importResultSchema,
  listEnvelope,
  type OptionsQuery,
  optionsAnswerSchema,
  optionsQuery,
  type Scope,
  type Status,
  statusChangeSchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import { csvFileName, exportColumns } from './csv.ts';
import { type ExportPage, formattedPages, sendCsv } from './csv-export.ts';
import { checkImport } from './csv-import.ts';
import { requireCurrentClientId, requireWritableClient } from './current-client.ts';
import { allOf, containsPattern } from './keyset.ts';
import { assertFresh, assertTransition } from './status.ts';
import { validateFields } from './validate-body.ts';

/** The current client as a list sees it: a number for client-scoped resources (see `list`). */
type Client = number | null;

/** The paging part every list query has (`ResourceListQuery` in packages/shared). */
export type ListPaging = { perPage: number; cursor?: string | undefined };

/** A keyset page: its rows and the cursor of the next one (null at the end). */
export type Page<Row> = { rows: Row[]; nextCursor: string | null };

/**
 * What the factory needs of a table: an id, a status, a version stamp and a name; an owning client
 * unless the definition's scope is `global` (records that belong to no client, e.g. clients).
 */
export type ResourceTable = PgTable & { id: PgColumn; status: PgColumn; updatedAt: PgColumn; name?: PgColumn; clientId?: PgColumn };
/** A row has a `name` column, or its store's `nameOf` names it (e.g. first and last name). */
type BaseRow = { id: number | string; clientId?: number | null; status: string; updatedAt: Date; name?: string };

/** The parts of a resource definition (packages/shared `defineResource`) the routes use. */
type Definition<Rec, Body, Query> = {
  name: string;
  noun?: string;
  plural?: string;
  path: string;
  recordPath?: string;
  screen: string;
  scope: Scope;
  filters: Readonly<Record<string, FilterSpec>>;
  record: z.ZodType<Rec>;
  rules: Record<string, string | Record<string, unknown>>;
  labels: Record<string, string>;
  defaults: Record<string, unknown>;
  fieldNames: readonly string[];
  columns: readonly { key: string; label: string; defaultVisible?: boolean; format?: (row: Rec) => string | number | null }[];
  createSchema: z.ZodType<Body>;
  updateSchema: z.ZodType<Body & { updated_at?: string }>;
  listQuerySchema: z.ZodType<Query>;
  exportQuerySchema: z.ZodType<Query & { columns?: string[] }>;
  importColumns?: readonly string[];
  importExtraColumns?: readonly string[];
  unique?: string;
};

/** What the list and export routes read of a definition (`listRoutes`). */
export type ListDefinition<Rec, Query> = {
  path: string;
  screen: string;
  record: z.ZodType<Rec>;
  columns: Definition<Rec, never, Query>['columns'];
  listQuerySchema: z.ZodType<Query>;
  exportQuerySchema: z.ZodType<Query & { columns?: string[] }>;
};

/** How one request's list is read: a page and how many records match. */
type ListReads<Rec, Query> = {
  page(request: FastifyRequest, q: Query, limit: number): Promise<Page<Rec>>;
  count(request: FastifyRequest, q: Query): Promise<{ total: number; totalIsEstimate: boolean }>;
  /**
   * The export's pages, rows keyed by column, when not the list's pages through the columns'
   * formats; `limit` is the kit's, paced to keep each page short (kit/csv-export.ts).
   */
  exportPage?(request: FastifyRequest, q: Query): ExportPage;
  /** Once the export's first page is read, before anything is sent, with its filters (the query less columns and paging): e.g. an audit. */
  onExport?(request: FastifyRequest, filters: object): Promise<void>;
};

/**
 * `GET <path>` (a page, its total, `totalIsEstimate`) and `GET <path>/export` (every matching row
 * as CSV, the chosen columns under their on-screen headers): the same two routes for an editable
 * resource (`resourceRoutes`) and a read-only one (kit/read-only-routes.ts).
 */
export function listRoutes<Rec extends object, Query extends ListPaging>(
  app: FastifyInstance,
  def: ListDefinition<Rec, Query>,
  reads: ListReads<Rec, Query>,
): void {
  const listAnswer = listEnvelope(def.record).extend({ totalIsEstimate: z.boolean() });
  app.get(def.path, { schema: { querystring: def.listQuerySchema, response: { 200: listAnswer } } }, async (request) => {
    const q = validated<Query>(request.query);
    const [{ rows, nextCursor }, totals] = await Promise.all([reads.page(request, q, q.perPage), reads.count(request, q)]);
    return { data: rows, nextCursor, ...totals };
  });

  app.get(`${def.path}/export`, { schema: { querystring: def.exportQuerySchema } }, async (request, reply) => {
    const q = validated<Query & { columns?: string[] }>(request.query);
    const { columns: chosen, cursor: _cursor, perPage: _perPage, ...filters } = q;
    const columns = exportColumns(def.columns, chosen);
    const read = reads.exportPage?.(request, q) ?? formattedPages((cursor, limit) => reads.page(request, { ...q, cursor }, limit), columns);
    return sendCsv(reply, {
      fileName: csvFileName(def.screen),
      columns,
      read,
      onStart: () => reads.onExport?.(request, filters) ?? Promise.resolve(),
    });
  });
}

/** How an import reads its columns that are not fields (`importExtraColumns`), prepared once per file. */
export type Importer<Body> = {
  /** Messages of one line's own columns (e.g. unknown locations). */
  checkRow(line: Record<string, string>): string[];
  /** The body a checked line makes (e.g. a `;` list split into an array). */
  body(line: Record<string, string>): Partial<Body>;
  /** After a batch of rows is inserted, in its transaction: what their table does not hold (e.g. links). */
  afterInsert(tx: Db, rows: { id: number; line: Record<string, string> }[]): Promise<void>;
};

/**
 * What differs per resource, kept in its module: how rows read and write, how a page is queried,
 * and small hooks. Everything else — access, current client, rules, uniqueness, stale writes,
 * transitions, audit, export, import — is the factory's, in one place.
 */
export type ResourceStore<Rec, Row extends BaseRow, Body, Query, C extends Client = number> = {
  table: ResourceTable;
  toRecord(row: Row, clientName?: string | null): Rec;
  /** Column values from a (partial) body, trimmed, empty text as null. */
  values(body: Partial<Body>, at?: { before?: Row; clientId?: number | null }): Record<string, unknown>;
  /**
   * A page of the list. `clientId` is the current client: required for `current-client…` scopes,
   * the default choice (or null) for `filterable-clients`, always null for `global`.
   */
  list(db: Db, q: Query, clientId: C, limit: number): Promise<{ rows: Rec[]; nextCursor: string | null }>;
  count(db: Db, q: Query, clientId: C): Promise<{ total: number; totalIsEstimate: boolean }>;
  /** Whether a new record is a default shared by every client (no owner) instead of the current client's. */
  isGlobal?(body: Body): boolean;
  /** The column of the definition's unique field (compared lower-case per owner). */
  uniqueColumn?: PgColumn;
  /** For each filter whose options are the values records use (`item` filters): its column. */
  optionColumns?: Record<string, PgColumn>;

  // Hooks for what differs, each run at one place of the factory's flow.
  /** Checks beyond the field rules, before anything is written (e.g. a referenced record exists); throws an HttpError. */
  check?(db: Db, body: Partial<Body>, before: Row | null, request: FastifyRequest): Promise<void>;
  /** After a new row is inserted, in its transaction (e.g. a default team for a new client). */
  afterInsert?(tx: Db, row: Row, body: Body, request: FastifyRequest): Promise<void>;
  /** After a create or an update, in its transaction: what the row's table does not hold (e.g. links). */
  afterWrite?(tx: Db, row: Row, body: Partial<Body>, request: FastifyRequest): Promise<void>;
  /** Before a status change is written, in its transaction: refuse it, or change what depends on it. */
  beforeStatus?(tx: Db, row: Row, to: Status, request: FastifyRequest): Promise<void>;
  /** After a create (`before` null) or an update, in its transaction, with the records as answered (e.g. a change log's diff). */
  afterSave?(tx: Db, before: Rec | null, after: Rec, request: FastifyRequest): Promise<void>;
  /** The record as answered and audited when the row alone does not make it (joined names, links). */
  reload?(db: Db, id: Row['id']): Promise<Rec>;
  /** How messages name a row whose table has no `name` column. */
  nameOf?(row: Row): string;
  /** The `:id` parameter when ids are not positive integers (e.g. Locations' 24-hex `_id`). */
  idParams?: z.ZodType<{ id: Row['id'] }>;
  /** The client a new record is written to when the body names one (e.g. `client_id`); the current client when undefined. */
  ownerOf?(body: Body): number | undefined;
  /** The client an audit entry is filed under when the table has no owner column (a client is its own). */
  auditClient?(row: Row): number | null;
  /** For an import with columns that are not fields: reads what it needs of the client once (e.g. its locations). */
  importer?(db: Db, clientId: number): Promise<Importer<Body>>;
};

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
>(def: Definition<Rec, Body, Query>, store: ResourceStore<Rec, Row, Body, Query, C>): FastifyPluginAsync {
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

    // Options of filters over the values records use: what was typed finds any of them, no cap.
    for (const [key, filter] of Object.entries(def.filters)) {
      if (!('item' in filter) || filter.optionsPath) continue;
      const column = store.optionColumns?.[key];
      if (!column) throw new Error(`${def.name}: the store names no column for the ${key} filter's options`);
      app.get(
        `${def.path}/options/${key}`,
        // Chosen values are the column's own, checked as the list's filter checks them.
        { schema: { querystring: optionsQuery(filter.item), response: { 200: optionsAnswerSchema } } },
        async (request) => {
          const q = validated<OptionsQuery>(request.query);
          const clientId = requireCurrentClientId(request);
          const like = containsPattern(q.q);
          const owner =
            def.scope === 'current-client-and-global'
              ? sql`(${table.clientId} = ${clientId} or ${table.clientId} is null)`
              : sql`${table.clientId} = ${clientId}`;
          const rows = await app.db
            .selectDistinct({ value: sql<string>`${column}` })
            .from(table)
            .where(allOf([owner, sql`${column} is not null`, like ? sql`${column} ilike ${like}` : undefined]))
            .orderBy(sql`${column}`)
            .limit(q.perPage + 1);
          const found = rows.slice(0, q.perPage).map((r) => r.value);
          const values = [...found, ...(q.value ?? []).filter((v) => !found.includes(v))];
          return { data: values.map((value) => ({ value, label: value })), more: rows.length > q.perPage };
        },
      );
    }

    const importColumns = def.importColumns;
    if (importColumns) {
      app.post(
        `${def.path}/import`,
        { config, bodyLimit: 6 * 1024 * 1024, schema: { body: csvImportSchema, response: { 201: dataEnvelope(importResultSchema) } } },
        async (request, reply) => {
          const clientId = (await requireWritableClient(request)).id;
          const unique = def.unique;
          const importer = await store.importer?.(app.db, clientId);
          const lines = await checkImport({
            noun,
            csv: validated<z.infer<typeof csvImportSchema>>(request.body).csv,
            rules: Object.fromEntries(importColumns.flatMap((c) => (def.rules[c] ? [[c, def.rules[c]]] : []))),
            extraColumns: [...importColumns, ...(def.importExtraColumns ?? [])],
            names: def.labels,
            ...(importer ? { checkRow: (line: Record<string, string>) => importer.checkRow(line) } : {}),
            ...(unique
              ? { unique: { column: unique, label: uniqueLabel, taken: (values: string[]) => usedValues(app.db, clientId, values) } }
              : {}),
          });
          await app.db.transaction(async (tx) => {
            const values = lines.map((line) => ({
              ...store.values({ ...def.defaults, ...(importer ? importer.body(line) : line) } as Partial<Body>, { clientId }),
              clientId,
            }));
            for (let i = 0; i < values.length; i += 500) {
              const batch = tx.insert(table).values(values.slice(i, i + 500));
              if (!importer) {
                await batch;
                continue;
              }
              // PostgreSQL returns the rows of a multi-row VALUES insert in the order given.
              const ids = await batch.returning({ id: table.id });
              await importer.afterInsert(
                tx,
                ids.flatMap((r, j) => {
                  const line = lines[i + j];
                  return line ? [{ id: Number(r.id), line }] : [];
                }),
              );
            }
            await request.audit(
              {
                action: `${def.name}.import`,
                message: `Imported ${values.length} ${def.plural ?? `${noun}s`}`,
                clientId,
                entityType: def.name,
                after: { count: values.length },
              },
              tx,
            );
          });
          return reply.code(201).send({ data: { imported: lines.length, clientId } });
        },
      );
    }
  };
}

/**
 * A request part as its route's schema parsed it. The zod type provider cannot carry the types
 * through the kit's type parameters, so they are stated here; the schema makes them true.
 */
export function validated<T>(value: unknown): T {
  return value as T;
}
