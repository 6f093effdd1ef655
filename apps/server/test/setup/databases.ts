import { createHash, randomBytes } from 'node:crypto';
import { access, appendFile, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { serverPackageRoot } from '../../src/lib/package-root.ts';
import { seedDemoData } from '../../src/seed/demo.ts';
import { copyDataDir } from './data-dir.ts';
import { demoSeedConfig } from './demo-seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A closed PGlite data directory holding every migration, or null: migrate each database. */
    pgliteTemplate: string | null;
    /** A migrated PostgreSQL database each test database is created from, or null: migrate each one. */
    pgTemplate: string | null;
    /** A closed PGlite data directory: the migrated one with the demo seeded (`demoSeedConfig`), made for this run. */
    pgliteDemoTemplate: string | null;
    /** A PostgreSQL database with the demo seeded, copied by `startTestApp`, or null. */
    pgDemoTemplate: string | null;
    /** The anchor ("now", ISO) both demo templates were seeded at. */
    demoAnchor: string;
  }
}

type Templates = {
  pgliteTemplate: string;
  pgTemplate: string | null;
  pgliteDemoTemplate: string;
  pgDemoTemplate: string | null;
  demoAnchor: string;
};

/**
 * The run's templates, made by the first server project that asks and shared with the other (the
 * files that mock a module run as a project of their own; docs/decisions/083). Kept on globalThis:
 * each project may load this module afresh, but both run in vitest's main process.
 */
type Shared = { templates: Promise<Templates>; users: number };
const SHARED = Symbol.for('admin-console.test-templates');
const shared = globalThis as typeof globalThis & { [SHARED]?: Shared };

/**
 * Once per run (vitest globalSetup of the server projects): migrates one PGlite and, when
 * TEST_DATABASE_URL is set, one PostgreSQL template, so openTestDatabase (../helpers.ts) copies a
 * migrated database instead of replaying every migration in every test file. Decision 063. The
 * PGlite templates are data directories, copied file by file for each test database (decision 080).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared[SHARED] ??= { templates: makeTemplates(), users: 0 };
  const state = shared[SHARED];
  state.users += 1;
  const templates = await state.templates;
  project.provide('pgliteTemplate', templates.pgliteTemplate);
  project.provide('pgTemplate', templates.pgTemplate);
  project.provide('pgliteDemoTemplate', templates.pgliteDemoTemplate);
  project.provide('pgDemoTemplate', templates.pgDemoTemplate);
  project.provide('demoAnchor', templates.demoAnchor);
  return async () => {
    state.users -= 1;
    if (state.users > 0) return;
    delete shared[SHARED];
    await removeTemplates(templates);
  };
}

async function makeTemplates(): Promise<Templates> {
  const pgliteTemplate = await migratedPgliteDir();
  const adminUrl = process.env.TEST_DATABASE_URL;
  const pgTemplate = adminUrl ? await migratedPgTemplate(adminUrl) : null;
  // The demo is seeded once per run on each engine, at the same anchor (decision 064).
  const anchor = new Date();
  const [pgliteDemoTemplate, pgDemoTemplate] = await Promise.all([
    seededPgliteDir(pgliteTemplate, anchor),
    adminUrl && pgTemplate ? seededPgTemplate(adminUrl, pgTemplate, anchor) : null,
  ]);
  return { pgliteTemplate, pgTemplate, pgliteDemoTemplate, pgDemoTemplate, demoAnchor: anchor.toISOString() };
}

async function removeTemplates({ pgliteDemoTemplate, pgDemoTemplate, pgTemplate }: Templates): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  await rm(dirname(pgliteDemoTemplate), { recursive: true, force: true });
  if (adminUrl && pgDemoTemplate) await adminQuery(adminUrl, `drop database if exists ${pgDemoTemplate} with (force)`);
  if (adminUrl && pgTemplate) await adminQuery(adminUrl, `drop database if exists ${pgTemplate} with (force)`);
}

/** A copy of the migrated directory with the demo seeded, in a directory of this run's own (removed at teardown). */
async function seededPgliteDir(migrated: string, anchor: Date): Promise<string> {
  const dataDir = join(await mkdtemp(join(tmpdir(), 'admin-test-demo-')), 'pgdata');
  await copyDataDir(migrated, dataDir);
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    await seedDemoData(database.db, demoSeedConfig(), anchor);
  } finally {
    await database.close();
  }
  return dataDir;
}

/** A copy of the migrated template with the demo seeded; closed before any test copies it. */
async function seededPgTemplate(adminUrl: string, migrated: string, anchor: Date): Promise<string> {
  const name = `t_demo_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name} template ${migrated}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'pg', url: url.toString() });
  try {
    await seedDemoData(database.db, demoSeedConfig(), anchor);
  } finally {
    await database.close();
  }
  return name;
}

/**
 * Settings every PGlite test database starts with, kept in the template's `postgresql.auto.conf`
 * so every copy (and every crash test's server process) reads them. PGlite's own postgresql.conf
 * asks for 128 MB of shared buffers, which a start spends most of its time setting up: 0.9 s per
 * open against 0.4 s with 32 MB, on the two-core machine, for databases that hold at most the
 * demo. The product's embedded database keeps PGlite's default (decision 085).
 */
const TEST_PGLITE_SETTINGS = "shared_buffers = '32MB'\n";

/**
 * Migrates through the server's own opener (same SQL, same journal rows) into a data directory.
 * It is kept in the OS tmp dir under a name hashed from every migration file and the PGlite and
 * drizzle versions, so the next run (a developer's single file) reuses it and any change to a
 * migration makes a new one.
 */
async function migratedPgliteDir(): Promise<string> {
  const dir = join(tmpdir(), `admin-test-pglite-${await migrationsHash()}`);
  if (
    await access(join(dir, 'PG_VERSION')).then(
      () => true,
      () => false,
    )
  )
    return dir;
  const partial = await mkdtemp(join(tmpdir(), 'admin-test-db-'));
  try {
    const dataDir = join(partial, 'pgdata');
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await database.migrate();
    await database.close();
    await appendFile(join(dataDir, 'postgresql.auto.conf'), TEST_PGLITE_SETTINGS);
    // Made aside and renamed: a run starting meanwhile never reads half a directory. When another
    // run renamed its own first, the rename fails and that one is used.
    await rename(dataDir, dir).catch(() => undefined);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return dir;
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
  const hash = createHash('sha256').update(TEST_PGLITE_SETTINGS);
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
