import { createHash, randomBytes } from 'node:crypto';
import { access, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { serverPackageRoot } from '../../src/lib/package-root.ts';

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
  project.provide('pgliteTemplate', await migratedPgliteDump());
  const adminUrl = process.env.TEST_DATABASE_URL;
  const pgTemplate = adminUrl ? await migratedPgTemplate(adminUrl) : null;
  project.provide('pgTemplate', pgTemplate);
  return async () => {
    if (adminUrl && pgTemplate) await adminQuery(adminUrl, `drop database if exists ${pgTemplate} with (force)`);
  };
}

/**
 * Migrates through the server's own opener (same SQL, same journal rows), then dumps the data
 * directory. The dump is kept in the OS tmp dir under a name hashed from every migration file and
 * the PGlite and drizzle versions, so the next run (a developer's single file) reuses it and any change to a
 * migration makes a new one.
 */
async function migratedPgliteDump(): Promise<string> {
  const file = join(tmpdir(), `admin-test-pglite-${await migrationsHash()}.tar`);
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  )
    return file;
  const dir = await mkdtemp(join(tmpdir(), 'admin-test-db-'));
  try {
    const dataDir = join(dir, 'pgdata');
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await database.migrate();
    await database.close();
    const client = await PGlite.create(dataDir);
    const dump = await client.dumpDataDir('none');
    await client.close();
    // Written aside and renamed: a run starting meanwhile never reads half a file.
    const partial = join(dir, 'migrated.tar');
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return file;
}

/** The package's own package.json, found upwards from its entry file (entries sit at different depths). */
async function packageJson(name: string, from: string): Promise<string> {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => null);
    if (text && (JSON.parse(text) as { name?: string }).name === name) return text;
  }
  throw new Error(`package.json of ${name} not found`);
}

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  // The engine and the migrator decide what a migrated data directory holds, as the SQL does.
  const require = createRequire(import.meta.url);
  for (const name of ['@electric-sql/pglite', 'drizzle-orm']) {
    hash.update(await packageJson(name, dirname(require.resolve(name))));
  }
  const folder = join(serverPackageRoot(), 'drizzle');
  const files = (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const path of files) hash.update(path.slice(folder.length)).update(await readFile(path));
  return hash.digest('hex').slice(0, 16);
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
