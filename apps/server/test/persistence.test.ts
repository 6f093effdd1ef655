import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { bearer, login } from './helpers.ts';

describe('the embedded database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'admin-console-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const config = testConfig({ database: { kind: 'pglite', dataDir: dir }, demoData: true, demoPassword: 'demo-password' });

  it('migrates and loads demo data on first start, and keeps data across restarts', async () => {
    const first = await buildApp(config);
    const token = await login(first, 'admin@example.com');
    const teams = (await first.inject({ method: 'GET', url: '/api/client-root-teams', headers: bearer(token) })).json().data;
    expect(teams).toHaveLength(12);
    const target = teams[3].clientId as number;
    await first.inject({ method: 'PUT', url: `/api/users/switch-client/${target}`, headers: bearer(token) });
    await first.close();

    const second = await buildApp(config);
    // The same token still works: sessions live in the database, not in the process.
    const me = await second.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.user.current_client_id).toBe(target);
    const again = (await second.inject({ method: 'GET', url: '/api/client-root-teams', headers: bearer(token) })).json().data;
    expect(again).toEqual(teams); // not seeded twice
    await second.close();
    // Two starts on disk, the first migrating and seeding the demo and its year of history
    // (≈ 35 s idle, over two minutes on a busy machine).
  }, 300_000);
});
