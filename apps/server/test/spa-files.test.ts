import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`the console's built files (${kind})`, () => {
    let ctx: TestContext;
    const dist = mkdtempSync(join(tmpdir(), 'console-dist-'));

    beforeAll(async () => {
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Admin Panel</title>');
      writeFileSync(join(dist, 'assets', 'main-abc123.js'), 'console.log(1);\n//# sourceMappingURL=main-abc123.js.map');
      // A map an older build (sourcemap: true) left behind.
      writeFileSync(join(dist, 'assets', 'main-abc123.js.map'), '{"version":3,"sources":["../src/secret-source.tsx"]}');
      ctx = await startTestApp(kind, { webDistDir: dist });
    });
    afterAll(async () => {
      await ctx.close();
      rmSync(dist, { recursive: true, force: true });
    });

    it('serves the assets but never a source map, to anyone', async () => {
      const script = await ctx.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
      expect(script.statusCode).toBe(200);
      for (const accept of ['*/*', 'application/json']) {
        const map = await ctx.app.inject({ method: 'GET', url: '/assets/main-abc123.js.map', headers: { accept } });
        expect(map.statusCode, accept).toBe(404);
        expect(map.body).not.toContain('secret-source');
      }
      // A browser opening the address gets the console's page, not the map.
      const page = await ctx.app.inject({ method: 'GET', url: '/assets/main-abc123.js.map', headers: { accept: 'text/html' } });
      expect(page.body).not.toContain('secret-source');
    });
  });
}
