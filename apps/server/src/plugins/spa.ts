import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

/**
 * Serves the built console: hashed assets cached for a year, `index.html` for every other
 * browser path (history-mode routing), and `/runtime-config.js` telling the browser which hosts
 * to call. The config is a script file, not inline, so the CSP can forbid inline scripts.
 */
export const spaPlugin = fp<{
  distDir: string;
  publicUrls: Config['publicUrls'];
  retiredMasterEmail: string;
  cookieDomain: string | null;
  /** API Managers says how long calls are kept (API_CALL_LOGS_RETENTION_DAYS); null: forever. */
  apiCallLogRetentionDays: number | null;
}>(
  async (app, { distDir, publicUrls, retiredMasterEmail, cookieDomain, apiCallLogRetentionDays }) => {
    const runtimeConfig = `window.__ADMIN_CONFIG__ = ${JSON.stringify({
      apiBaseUrl: publicUrls.api,
      reputationBaseUrl: publicUrls.reputation,
      identityBaseUrl: publicUrls.identity,
      retiredMasterEmail,
      cookieDomain,
      apiCallLogRetentionDays,
    })};\n`;
    app.get('/runtime-config.js', { config: { access: 'public' } }, async (_request, reply) => {
      return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(runtimeConfig);
    });

    if (readIndexHtml(distDir) === null) {
      app.log.warn({ distDir }, 'The web app is not built; serving the API only. Run `npm run build`.');
      return;
    }
    // The built files are the console itself, which anyone may load (the sign-in page is one of
    // them). Declared public here, by the one plugin that serves them, inside its own context.
    await app.register(async (files) => {
      files.addHook('onRoute', (route) => {
        route.config = Object.assign(route.config ?? {}, { access: 'public' as const });
      });
      await files.register(fastifyStatic, {
        root: distDir,
        // Routes for the files present at start (the build), so every other path falls to the SPA.
        wildcard: false,
        // Source maps would publish the console's source: the build makes none (apps/web/vite.config.ts),
        // and one left in the directory by another build gets no route.
        globIgnore: ['**/*.map'],
        index: false,
        decorateReply: false,
        setHeaders(res, path) {
          res.header('cache-control', path.includes(`${join('/', 'assets', '/')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    });
  },
  { name: 'spa' },
);

/** The console's `index.html`, served for every page path (history mode); null when not built. */
export function readIndexHtml(distDir: string | null): string | null {
  if (!distDir) return null;
  const file = join(distDir, 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}
