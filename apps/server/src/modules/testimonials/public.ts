import { createHash } from 'node:crypto';
import { idFilterItem, type PublicTestimonial, publicTestimonialsQuerySchema, testimonialEmbedQuerySchema } from '@admin/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { clients, locations, surveyResponses, testimonials } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { FeedCache } from './feed-cache.ts';
import { ratingMaxOf } from './repository.ts';
import { WIDGET_SCRIPT } from './widget-script.ts';

/** How long a browser or a CDN may keep the feed (a publish shows within a minute). */
const FEED_MAX_AGE_S = 60;
const SCRIPT_MAX_AGE_S = 3600;
const DEFAULT_LIMIT = 12;
const page = { config: { access: 'public' as const } };

/** The client (active or paused, never archived) and, when named, its location; 404 naming the parameter otherwise. */
async function checkTarget(db: Db, clientId: number, locationId: string | undefined): Promise<void> {
  const [client] = await db.select({ status: clients.status }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client || client.status === 'inactive')
    throw new HttpError(404, 'No testimonials are published for this client.', {
      client: ['The client parameter names no client with testimonials'],
    });
  if (locationId === undefined) return;
  const [location] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.id, locationId), eq(locations.clientId, clientId)))
    .limit(1);
  if (!location)
    throw new HttpError(404, 'This client has no such location.', {
      location: ['The location parameter names no location of this client'],
    });
}

/** Published testimonials, featured first, then newest; the display name only (no e-mail, phone or surname). */
export async function publishedFeed(db: Db, clientId: number, locationId: string | undefined, limit: number): Promise<PublicTestimonial[]> {
  const rows = await db
    .select({ t: testimonials, npsClass: surveyResponses.npsClass, locationName: locations.locationname })
    .from(testimonials)
    .innerJoin(surveyResponses, eq(surveyResponses.id, testimonials.responseId))
    .leftJoin(locations, eq(locations.id, testimonials.locationId))
    .where(
      and(
        eq(testimonials.clientId, clientId),
        eq(testimonials.status, 'published'),
        locationId === undefined ? undefined : eq(testimonials.locationId, locationId),
      ),
    )
    .orderBy(desc(testimonials.featured), desc(testimonials.publishedAt), desc(testimonials.id))
    .limit(limit);
  return rows.map(({ t, npsClass, locationName }) => ({
    id: t.id,
    name: t.displayName,
    text: t.displayText,
    rating: t.rating,
    rating_max: ratingMaxOf(t.rating, npsClass),
    date: t.submittedAt.toISOString().slice(0, 10),
    featured: t.featured,
    location: locationName,
  }));
}

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The widget's public surface (decision 046): the feed (CORS open, cached a minute with an ETag,
 * kept a few seconds in `feeds`),
 * the script of the `<selected-testimonials>` element, and a page to put in an iframe. Declared
 * public like `/s/` (apps/server/src/public/routes.ts); this plugin's own onSend hook runs after
 * the app's security headers and lets other sites use what is meant for them.
 */
export const publicTestimonialRoutes: FastifyPluginAsyncZod<{ feeds: FeedCache }> = async (app, { feeds }) => {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url ?? '';
    if (url === '/api/public/testimonials' || url === '/w/testimonials.js') {
      reply.header('access-control-allow-origin', '*');
      reply.header('cross-origin-resource-policy', 'cross-origin');
    }
    if (url === '/w/testimonials/:key') {
      // Made to be framed by any site: no frame ban, and a policy of its own (its script and feed are ours).
      reply.removeHeader('x-frame-options');
      reply.header(
        'content-security-policy',
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *",
      );
      reply.removeHeader('cross-origin-opener-policy');
    }
    return payload;
  });

  app.get('/api/public/testimonials', { ...page, schema: { querystring: publicTestimonialsQuerySchema } }, async (request, reply) => {
    const clientId = Number(request.query.client);
    const limit = request.query.limit ?? DEFAULT_LIMIT;
    let answer = feeds.kept(clientId, request.query.location, limit);
    if (!answer) {
      await checkTarget(app.db, clientId, request.query.location);
      const data = await publishedFeed(app.db, clientId, request.query.location, limit);
      // Serialised here (not by a response schema) so the ETag is the hash of the very bytes sent.
      const body = JSON.stringify({ data });
      answer = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
      feeds.keep(clientId, request.query.location, limit, answer);
    }
    const { body, etag } = answer;
    reply.header('cache-control', `public, max-age=${FEED_MAX_AGE_S}`).header('etag', etag).header('vary', 'Origin');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get('/w/testimonials.js', page, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', `public, max-age=${SCRIPT_MAX_AGE_S}`).send(WIDGET_SCRIPT),
  );

  app.get(
    '/w/testimonials/:key',
    { ...page, schema: { params: z.object({ key: idFilterItem }), querystring: testimonialEmbedQuerySchema } },
    async (request, reply) => {
      const clientId = Number(request.params.key);
      await checkTarget(app.db, clientId, request.query.location);
      const location = request.query.location ? ` location="${escapeAttr(request.query.location)}"` : '';
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Selected testimonials</title></head><body style="margin:0;font-family:system-ui,sans-serif"><main><selected-testimonials client="${clientId}"${location}></selected-testimonials></main><script src="/w/testimonials.js"></script></body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', `public, max-age=${FEED_MAX_AGE_S}`).send(html);
    },
  );
};
