import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { testConfig } from '../../src/config.ts';
import type { DbKind } from '../helpers.ts';
import { dataDirCopy } from '../setup/data-dir.ts';

/** Where a server process keeps its data: a PGlite directory or a PostgreSQL database, and the env naming it. */
export type DemoStore = {
  dataDir: string | null;
  databaseUrl: string | null;
  /** DATA_DIR or DATABASE_URL, DEMO_DATA and the SECRET_KEY the demo's secrets were sealed with. */
  env: Record<string, string>;
  remove(): Promise<void>;
};

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query(text).finally(() => client.end());
}

/**
 * A store for a server process started with DEMO_DATA on: a copy of the run's seeded template
 * (setup/databases.ts) when there is one, so the process finds the demo there and does not seed it
 * again (a minute of a test's time per engine); else an empty one, which the process seeds.
 */
export async function demoStore(kind: DbKind): Promise<DemoStore> {
  const { secretKey, passwordHashCost } = testConfig();
  // The template's key and hash cost, so its stored secrets open and sign-ins cost what its hashes do.
  const env: Record<string, string> = { DEMO_DATA: 'on', SECRET_KEY: secretKey ?? '', PASSWORD_HASH_COST: String(passwordHashCost) };
  if (kind === 'pglite') {
    const template = inject('pgliteDemoTemplate');
    if (template) {
      const copy = await dataDirCopy(template);
      return { dataDir: copy.dataDir, databaseUrl: null, env: { ...env, DATA_DIR: copy.dataDir }, remove: copy.remove };
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'crash-data-'));
    return { dataDir, databaseUrl: null, env: { ...env, DATA_DIR: dataDir }, remove: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `crash_${randomBytes(5).toString('hex')}`;
  const template = inject('pgDemoTemplate');
  await admin(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    dataDir: null,
    databaseUrl,
    env: { ...env, DATABASE_URL: databaseUrl },
    remove: () => admin(`drop database if exists ${name} with (force)`),
  };
}
