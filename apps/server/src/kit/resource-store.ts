import type { FilterSpec, Scope, Status } from '@admin/shared';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { ListDefinition } from './list-routes.ts';

/** The current client as a list sees it: a number for client-scoped resources (see `list`). */
export type Client = number | null;

/**
 * What the factory needs of a table: an id, a status, a version stamp and a name; an owning client
 * unless the definition's scope is `global` (records that belong to no client, e.g. clients).
 */
export type ResourceTable = PgTable & { id: PgColumn; status: PgColumn; updatedAt: PgColumn; name?: PgColumn; clientId?: PgColumn };
/** A row has a `name` column, or its store's `nameOf` names it (e.g. first and last name). */
export type BaseRow = { id: number | string; clientId?: number | null; status: string; updatedAt: Date; name?: string };

/** The parts of a resource definition (packages/shared `defineResource`) the routes use. */
export type ResourceDefinition<Rec, Body, Query> = {
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
  columns: ListDefinition<Rec, Query>['columns'];
  createSchema: z.ZodType<Body>;
  updateSchema: z.ZodType<Body & { updated_at?: string }>;
  listQuerySchema: z.ZodType<Query>;
  exportQuerySchema: z.ZodType<Query & { columns?: string[] }>;
  importColumns?: readonly string[];
  importExtraColumns?: readonly string[];
  unique?: string;
};

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
