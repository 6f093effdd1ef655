import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { secretBox } from '../src/pipeline/ingest/secret.ts';

/** The embedded database's key for stored SFTP passwords lives inside DATA_DIR, never beside it (the repository root under `npm start`). */
describe('the embedded database’s secret.key', () => {
  const roots: string[] = [];
  const parent = () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-key-'));
    roots.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of roots) rmSync(dir, { recursive: true, force: true });
  });
  const boxOn = (dataDir: string) => secretBox({ secretKey: null, database: { kind: 'pglite', dataDir } });

  it('is made inside DATA_DIR by the server (mode 0600), nothing beside it', async () => {
    const root = parent();
    const dataDir = join(root, 'data');
    const app = await buildApp(testConfig({ database: { kind: 'pglite', dataDir }, secretKey: null }));
    await app.close();
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(true);
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(root, 'secret.key'))).toBe(false);
    // The same key on the next start: what it encrypted stays readable.
    const sealed = boxOn(dataDir).encrypt('open-sesame');
    expect(boxOn(dataDir).decrypt(sealed ?? '')).toBe('open-sesame');
  }, 120_000);

  it('moves a key an older version left beside DATA_DIR inside, so stored passwords stay readable', () => {
    // An older version's key: made by a box, then put where that version kept it.
    const elsewhere = join(parent(), 'data');
    const sealed = boxOn(elsewhere).encrypt('open-sesame') ?? '';
    const root = parent();
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'PG_VERSION'), '17\n');
    writeFileSync(join(root, 'secret.key'), readFileSync(join(elsewhere, 'secret.key')), { mode: 0o600 });

    expect(boxOn(dataDir).decrypt(sealed)).toBe('open-sesame');
    expect(existsSync(join(root, 'secret.key'))).toBe(false);
    expect(readFileSync(join(dataDir, 'secret.key'), 'utf8')).toBe(readFileSync(join(elsewhere, 'secret.key'), 'utf8'));
    expect(boxOn(dataDir).decrypt(sealed)).toBe('open-sesame');
  });

  it('copies it instead when another embedded database beside it may still use it', () => {
    const elsewhere = join(parent(), 'data');
    const sealed = boxOn(elsewhere).encrypt('open-sesame') ?? '';
    const root = parent();
    for (const name of ['data', 'data-staging']) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, 'PG_VERSION'), '17\n');
    }
    writeFileSync(join(root, 'secret.key'), readFileSync(join(elsewhere, 'secret.key')), { mode: 0o600 });

    expect(boxOn(join(root, 'data')).decrypt(sealed)).toBe('open-sesame');
    expect(existsSync(join(root, 'secret.key'))).toBe(true);
    // The neighbour, started next, finds the same key and takes it (the last one moves it).
    expect(boxOn(join(root, 'data-staging')).decrypt(sealed)).toBe('open-sesame');
    expect(existsSync(join(root, 'secret.key'))).toBe(false);
  });
});
