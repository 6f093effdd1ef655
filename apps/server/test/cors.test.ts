import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

/** A console on another origin calling this server (CORS_ORIGINS; the plugin is database-blind). */
const CONSOLE = 'https://console.example.com';

describe('cross-origin calls from a listed console', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('pglite', { corsOrigins: [CONSOLE] });
  });
  afterAll(() => ctx.close());

  it('answers a listed origin’s preflight before sign-in, with the headers the console sends', async () => {
    const res = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/reputation?site=Google&clientId=1',
      headers: { origin: CONSOLE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,x-client-id' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization.*content-type.*x-client-id/);
    expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
  });

  it('lets the real call through access as any other: signed in it reads, signed out it is refused', async () => {
    const token = await login(ctx.app, 'admin@example.com');
    const ok = await ctx.app.inject({ method: 'GET', url: '/api/create-client', headers: { origin: CONSOLE, ...bearer(token) } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(String(ok.headers['access-control-expose-headers'])).toContain('x-current-client-id');
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/create-client', headers: { origin: CONSOLE } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('gives any other origin no CORS headers, and its preflight no answer of its own', async () => {
    const evil = 'https://console.example.com.evil.test';
    const pre = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/clients',
      headers: { origin: evil, 'access-control-request-method': 'DELETE' },
    });
    expect(pre.statusCode).not.toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const get = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: { origin: evil } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    expect(get.headers.vary).toContain('Origin');
  });
});

describe('CORS_ORIGINS', () => {
  it('reads a comma list down to exact origins, none by default, and refuses what is not an origin', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://b.example.com:8080' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://b.example.com:8080',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example.com/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
  });
});
