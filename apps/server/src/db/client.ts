import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Config } from '../config.ts';
import { serverPackageRoot } from '../lib/package-root.ts';
import { copyCsv } from './copy-csv.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The database handle every repository takes: the same API on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of a raw `db.execute()` answer (same shape on PGlite and node-postgres). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
}

/** A time as `Date#toISOString` writes it (UTC, milliseconds, `Z`), built by the database. */
export function isoText(time: SQLWrapper): SQL<string> {
  return sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

export type Database = {
  db: Db;
  kind: 'pglite' | 'pg';
  /** Applies the generated SQL migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** PostgreSQL only: the statement's rows as CSV bytes straight from `COPY … TO STDOUT` (copy-csv.ts), or null when it cannot be inlined. */
  copyCsv?(statement: SQL): Promise<Readable | null>;
  close(): Promise<void>;
};

const migrationsFolder = () => join(serverPackageRoot(), 'drizzle');
/** Arbitrary constant: serialises migrations across server processes sharing one PostgreSQL. */
const MIGRATION_LOCK_ID = 724_5001;

export async function openDatabase(config: Config['database'], onError?: (err: Error) => void): Promise<Database> {
  if (config.kind === 'pglite') {
    if (config.dataDir) mkdirSync(config.dataDir, { recursive: true });
    const client = config.dataDir ? new PGlite(config.dataDir) : new PGlite();
    await client.waitReady;
    const db = drizzlePglite(client, { schema });
    return {
      db,
      kind: 'pglite',
      migrate: () => migratePglite(db, { migrationsFolder: migrationsFolder() }),
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would crash the process.
  pool.on('error', (err) => onError?.(err));
  // A checked-out client (a transaction between two statements) that loses its connection emits
  // 'error' on itself, which the pool listens to only while the client is idle: unhandled, it
  // ended the process when PostgreSQL restarted under load (bench/soak). Its next query fails with
  // the cause, which is reported there, and the pool drops the client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg(pool, { schema });
  return {
    db,
    kind: 'pg',
    async migrate() {
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(db, { migrationsFolder: migrationsFolder() });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        lock.release();
      }
    },
    copyCsv: (statement) => copyCsv(pool, statement),
    close: () => pool.end(),
  };
}

/** True when the database has no users yet (first start). */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.users);
  return (row?.n ?? 0) === 0;
}
