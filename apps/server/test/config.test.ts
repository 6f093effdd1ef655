import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'pglite', dataDir: './data' },
      demoData: true,
      demoPassword: 'demo-password',
      passwordHashCost: 15,
      retiredMasterEmail: 'master@example.com',
      cookieDomain: null,
      publicUrls: { api: '', reputation: '', identity: '' },
      logLevel: 'info',
    });
  });

  it('uses a PostgreSQL server when DATABASE_URL is set, without demo data by default', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://app:app@127.0.0.1:5432/appdb' });
    expect(c.database).toEqual({ kind: 'pg', url: 'postgres://app:app@127.0.0.1:5432/appdb' });
    expect(c.demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db', DEMO_DATA: 'on' }).demoData).toBe(true);
  });

  it('names each bad variable', () => {
    const bad = { PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', API_BASE_URL: 'not a url', DEMO_DATA: 'maybe' };
    expect(() => loadConfig(bad)).toThrow(ConfigError);
    try {
      loadConfig(bad);
    } catch (err) {
      const message = (err as Error).message;
      for (const name of Object.keys(bad)) expect(message).toContain(name);
    }
  });

  it('lowers the password hash cost only within its bounds (tests; decision 088)', () => {
    expect(loadConfig({ PASSWORD_HASH_COST: '10' }).passwordHashCost).toBe(10);
    for (const bad of ['9', '16', '12.5', 'low']) {
      expect(() => loadConfig({ PASSWORD_HASH_COST: bad }), bad).toThrow(/PASSWORD_HASH_COST/);
    }
  });

  it('treats empty values as unset and strips trailing slashes from base URLs', () => {
    const c = loadConfig({ PORT: '', API_BASE_URL: 'https://api.example.com/' });
    expect(c.port).toBe(3000);
    expect(c.publicUrls.api).toBe('https://api.example.com');
  });

  it('refuses private SFTP hosts unless SFTP_ALLOW_PRIVATE is on, and checks its value', () => {
    expect(loadConfig({}).sftpAllowPrivate).toBe(false);
    expect(loadConfig({ SFTP_ALLOW_PRIVATE: 'on' }).sftpAllowPrivate).toBe(true);
    expect(loadConfig({ SFTP_ALLOW_PRIVATE: 'no' }).sftpAllowPrivate).toBe(false);
    expect(() => loadConfig({ SFTP_ALLOW_PRIVATE: 'sometimes' })).toThrow(/SFTP_ALLOW_PRIVATE/);
  });
});
