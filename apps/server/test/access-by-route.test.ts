import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { lenientPath } from '../src/lib/request-path.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Access is decided by the route the router matched, never by the URL string: every protected
 * route, asked for anonymously under every disguise a router or proxy might see through, is
 * refused (401, or 404/400 when the disguise matches nothing) and runs nothing. Requests go over
 * a real socket, byte for byte, because `inject()` would normalise some of these URLs first.
 */

type Raw = { status: number; headers: string; body: string };

/** Sends one request exactly as written and reads the answer. */
function rawRequest(port: number, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const lines = [`${method} ${target} HTTP/1.1`, 'Host: localhost', 'Connection: close'];
    for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
    if (body || !['GET', 'HEAD'].includes(method)) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    socket.on('connect', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: rest.join('\r\n\r\n') });
    });
  });
}

/** Every disguise of one path: each character percent-encoded in turn, and the classic tricks. */
export function disguises(path: string): string[] {
  const out = new Set<string>();
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  for (let i = 1; i < path.length; i++) {
    const c = path[i] ?? '';
    out.add(path.slice(0, i) + hex(c) + path.slice(i + 1));
    out.add(path.slice(0, i) + hex(c).toUpperCase() + path.slice(i + 1));
  }
  out.add(path.replace(/[a-z]/g, (c) => hex(c)));
  out.add(path.replace('/a', '/%2561')); // double encoding
  const segments = path.split('/');
  out.add(`/${path}`);
  out.add(path.replace(/\//g, '//'));
  out.add(path.replace('/api/', '/api/./'));
  out.add(`/./${path.slice(1)}`);
  out.add(path.replace('/api/', '/api/x/../'));
  out.add(`/x/..${path}`);
  out.add(`/%2e%2e${path}`);
  out.add(`${path}/`);
  out.add(`${path}/.`);
  out.add(`${path};`);
  out.add(`${path};x=1`);
  out.add(path.replace('/api', '/api;x=1'));
  out.add(path.replace('/api/', '/api%2f'));
  out.add(path.replace('/api/', '\\api\\'));
  out.add(path.toUpperCase());
  out.add(segments.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('/'));
  out.add(`${path}?x=1`);
  out.add(`${path}#x`);
  out.add(`http://localhost${path}`);
  out.add(`HTTP://LOCALHOST:1${path}`);
  out.add(`https://evil.example${path}`);
  out.add(`//localhost${path}`);
  out.delete(path);
  return [...out];
}

describe('lenientPath', () => {
  it('reads a path the way a lenient router or proxy would', () => {
    expect(lenientPath('HTTP://h/%41pi//./x/../clients;a=1?q')).toBe('/api/clients');
    expect(lenientPath('/%2561pi/x')).toBe('/api/x');
    expect(lenientPath('\\api\\x')).toBe('/api/x');
    expect(lenientPath('/%zz/%E0%A4%A')).toBe('/%zz/\u00e0\u00a4%a');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`access decided by the matched route, default deny (${kind})`, () => {
    let ctx: TestContext;
    let port = 0;
    let admin = '';
    const dist = mkdtempSync(join(tmpdir(), 'console-dist-'));

    beforeAll(async () => {
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Admin Panel</title>');
      writeFileSync(join(dist, 'assets', 'main-abc123.js'), 'console.log(1);');
      writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      ctx = await startTestApp(kind, { webDistDir: dist, clockControl: true });
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      port = (ctx.app.server.address() as AddressInfo).port;
      admin = await login(ctx.app, 'admin@example.com');
    });
    afterAll(async () => {
      await ctx.close();
      rmSync(dist, { recursive: true, force: true });
    });

    const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, '1');
    // A provider callback's refusal is recorded (System Logs, by design: decision 058); nothing else may be written.
    const counts = async () => {
      const [row] = rowsOf(
        await ctx.database.db.execute(
          sql`select (select count(*) from clients)::int as clients, (select count(*) from system_logs where action not in ('ses.refused', 'sms.refused'))::int as logs, (select count(*) from user_preferences)::int as prefs`,
        ),
      );
      return row;
    };

    it('serves no protected route anonymously under any disguise, and runs nothing', async () => {
      const before = await counts();
      const routes = ctx.app.routeTable.filter((r) => r.access !== 'public');
      expect(routes.length).toBeGreaterThan(40);
      let sent = 0;
      const served: string[] = [];
      for (const route of routes) {
        const path = concrete(route.url);
        for (const target of [path, ...disguises(path)]) {
          const body = route.method === 'GET' ? '' : JSON.stringify({ name: `Disguised ${sent}`, status: 'paused', value: 1, csv: 'a\n1' });
          const res = await rawRequest(port, route.method, target, body ? { 'content-type': 'application/json' } : {}, body);
          sent++;
          // A provider callback refuses what carries no valid signature with 403 (a disguise that matches no route is the 401 of unknown API paths).
          const refusals = typeof route.access === 'object' && 'signed' in route.access ? [400, 401, 403, 404, 415] : [400, 401, 404];
          if (!refusals.includes(res.status)) served.push(`${route.method} ${target} → ${res.status}`);
        }
      }
      expect(served).toEqual([]);
      expect(sent).toBeGreaterThan(routes.length * 40);
      expect(await counts()).toEqual(before);
      console.log(`access walk (${kind}): ${routes.length} protected routes, ${sent} disguised anonymous requests, none served`);
    });

    it('answers the reported bypasses with 401', async () => {
      const exported = await rawRequest(port, 'GET', '/%61pi/system-logs/export');
      expect(exported.status).toBe(401);
      expect(exported.body).not.toContain('text/csv');
      const created = await rawRequest(
        port,
        'POST',
        '/%61pi/create-client',
        { 'content-type': 'application/json' },
        JSON.stringify({ name: 'Anonymous Co', industry: 'other', timezone: 'America/New_York' }),
      );
      expect(created.status).toBe(401);
      expect((await rawRequest(port, 'GET', 'http://localhost/api/staff-users')).status).toBe(401);
      const [row] = rowsOf(await ctx.database.db.execute(sql`select count(*)::int as n from clients where name = 'Anonymous Co'`));
      expect(row?.n).toBe(0);
    });

    it('still serves the admin on the plain paths, and the disguised ones reach the same route or nothing', async () => {
      const plain = await rawRequest(port, 'GET', '/api/staff-users', bearer(admin));
      expect(plain.status).toBe(200);
      const absolute = await rawRequest(port, 'GET', 'http://localhost/api/staff-users', bearer(admin));
      expect([200, 404]).toContain(absolute.status);
    });

    it('serves the console (files and pages) to anyone, and unknown paths as 404 or 401', async () => {
      const asset = await rawRequest(port, 'GET', '/assets/main-abc123.js');
      expect(asset.status).toBe(200);
      expect(asset.headers).toMatch(/cache-control: public, max-age=31536000, immutable/i);
      expect((await rawRequest(port, 'GET', '/favicon.svg')).status).toBe(200);
      const page = await rawRequest(port, 'GET', '/personnel', { accept: 'text/html' });
      expect(page.status).toBe(200);
      expect(page.body).toContain('Admin Panel');
      expect((await rawRequest(port, 'GET', '/runtime-config.js')).status).toBe(200);
      expect((await rawRequest(port, 'GET', '/healthz')).status).toBe(200);
      // Unknown paths and methods: the API's shape is not probed anonymously.
      expect((await rawRequest(port, 'GET', '/api/nope')).status).toBe(401);
      expect((await rawRequest(port, 'DELETE', '/api/clients/1')).status).toBe(401);
      expect((await rawRequest(port, 'GET', '/%61pi/nope', { accept: 'text/html' })).status).toBe(401);
      expect((await rawRequest(port, 'DELETE', '/api/clients/1', bearer(admin))).status).toBe(404);
      expect((await rawRequest(port, 'GET', '/nope.js')).status).toBe(404);
      expect((await rawRequest(port, 'PROPFIND', '/')).status).toBe(404);
    });
  });
}
