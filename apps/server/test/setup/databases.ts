import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data directory (tar, `dumpDataDir`) holding every migration, or null: migrate each database. */
    pgliteTemplate: string | null;
    /** A migrated PostgreSQL database each test database is created from, or null: migrate each one. */
    pgTemplate: string | null;
  }
}

/**
 * Once per run (vitest globalSetup of the server project): migrates one PGlite and, when
 * TEST_DATABASE_URL is set, one PostgreSQL template, so openTestDatabase (../helpers.ts) copies a
 * migrated database instead of replaying every migration in every test file. Decision 063.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'admin-test-db-'));
  project.provide('pgliteTemplate', await migratedPgliteDump(dir));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const pgTemplate = adminUrl ? await migratedPgTemplate(adminUrl) : null;
  project.provide('pgTemplate', pgTemplate);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (adminUrl && pgTemplate) await adminQuery(adminUrl, `drop database if exists ${pgTemplate} with (force)`);
  };
}

/** Migrates through the server's own opener (same SQL, same journal rows), then dumps the data directory. */
async function migratedPgliteDump(dir: string): Promise<string> {
  const dataDir = join(dir, 'pgdata');
  const database = await openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  await database.close();
  const client = await PGlite.create(dataDir);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = join(dir, 'migrated.tar');
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  return file;
}

/**
 * The template is closed before any test copies it: PostgreSQL refuses a template that has a
 * connection ("source database is being accessed by other users").
 */
async function migratedPgTemplate(adminUrl: string): Promise<string> {
  const name = `t_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'pg', url: url.toString() });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  return name;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}
