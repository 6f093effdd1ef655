import {
  dataEnvelope,
  idParamSchema,
  TESTIMONIAL_ACTIONS,
  TESTIMONIAL_LABELS,
  TESTIMONIAL_QUERY_LIMIT,
  testimonialActionSchema,
  testimonialBulkApproveSchema,
  testimonialEditSchema,
  testimonialEmbedQuerySchema,
  testimonialEmbedSchema,
  testimonialExportQuerySchema,
  testimonialQuerySchema,
  testimonialSchema,
} from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { testimonials } from '../../db/schema/index.ts';
import { csvFileName } from '../../kit/csv.ts';
import { sendCsv } from '../../kit/csv-export.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { assertFresh } from '../../kit/status.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { editOf, pendingOf, transition, unchanged } from './actions.ts';
import { cursorOf, EXPORT_COLUMNS, exportRow } from './export.ts';
import { createFeedCache } from './feed-cache.ts';
import { registerMakeTestimonial } from './make.ts';
import { publicTestimonialRoutes } from './public.ts';
import { filtersOf, findTestimonial, selectTestimonials, type TestimonialRow, toTestimonial, whereOf } from './repository.ts';

/** The most rows one export writes (a client's testimonials; the screen's query shows the newest 500). */
const listAnswer = z.object({ data: z.array(testimonialSchema), more: z.boolean() });
const asList = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/**
 * Testimonials Tool (domain.md §9): the spec's `POST /api/survey-comments-testimonials`, the state
 * actions, edits of the display text and name, bulk approve, CSV export and the embed code; all of
 * the tab's current client (docs/decisions/043), every write audited in its transaction. Also
 * registers the `make-testimonial` job and the public widget routes (decision 046).
 */
export const testimonialRoutes: FastifyPluginAsyncZod<{ publicBaseUrl: string }> = async (app, { publicBaseUrl }) => {
  registerMakeTestimonial(app.jobs, app.db);
  const feeds = createFeedCache(app.clock);
  await app.register(publicTestimonialRoutes, { feeds });

  app.post(
    '/api/survey-comments-testimonials',
    { config: { labels: TESTIMONIAL_LABELS }, schema: { body: testimonialQuerySchema, response: { 200: listAnswer } } },
    async (request) => {
      const clientId = requireCurrentClientId(request);
      const filters = filtersOf(request.body);
      if ((filters.startDate === undefined) !== (filters.endDate === undefined))
        throw new HttpError(422, 'Choose both dates of the range, or neither.', {
          [filters.startDate === undefined ? 'startDate' : 'endDate']: [
            `The ${filters.startDate === undefined ? TESTIMONIAL_LABELS.startDate : TESTIMONIAL_LABELS.endDate} field is required when the other date is set`,
          ],
        });
      const rows = await selectTestimonials(app.db, whereOf(clientId, filters)).limit(TESTIMONIAL_QUERY_LIMIT + 1);
      return { data: rows.slice(0, TESTIMONIAL_QUERY_LIMIT).map(toTestimonial), more: rows.length > TESTIMONIAL_QUERY_LIMIT };
    },
  );

  /** The client's testimonial row, or 404 (another client's is not found, never shown). */
  async function rowOf(request: FastifyRequest, id: number) {
    const clientId = requireCurrentClientId(request);
    const [row] = await app.db
      .select()
      .from(testimonials)
      .where(and(eq(testimonials.clientId, clientId), eq(testimonials.id, id)))
      .limit(1);
    if (!row) throw notFound('Testimonial');
    return row;
  }

  async function answer(clientId: number, id: number) {
    const found = await findTestimonial(app.db, clientId, id);
    if (!found) throw notFound('Testimonial');
    return { data: found };
  }

  const raced = () => new HttpError(409, 'The testimonial was changed by someone else since you opened it. Reload it and try again.');

  /**
   * Writes a change to one testimonial with its audit row, in one transaction, only if the row is
   * still as it was read (docs/decisions/033: its state and version are its version); answers it.
   */
  async function save(
    request: Parameters<typeof rowOf>[0],
    row: TestimonialRow,
    change: Partial<typeof testimonials.$inferInsert>,
    audit: { action: string; message: string; before: Record<string, unknown>; after: Record<string, unknown> },
  ) {
    const now = app.clock.now();
    await app.db.transaction(async (tx) => {
      const done = await tx
        .update(testimonials)
        .set({ ...change, updatedAt: now })
        .where(unchanged(row))
        .returning({ id: testimonials.id });
      if (done.length === 0) throw raced();
      await request.audit({ ...audit, clientId: row.clientId, entityType: 'testimonial', entityId: row.id }, tx);
    });
    feeds.forget(row.clientId);
    return answer(row.clientId, row.id);
  }

  for (const action of TESTIMONIAL_ACTIONS) {
    app.post(
      `/api/testimonials/:id/${action}`,
      {
        config: { labels: TESTIMONIAL_LABELS },
        schema: { params: idParamSchema, body: testimonialActionSchema.nullish(), response: { 200: dataEnvelope(testimonialSchema) } },
      },
      async (request) => {
        const row = await rowOf(request, request.params.id);
        const change = transition(row, action, request.auth?.user.id ?? 0, app.clock.now());
        return save(request, row, change, {
          action: `testimonial.${action}`,
          message: `Testimonial ${row.id} (${row.displayName}): ${action}`,
          before: { status: row.status, featured: row.featured },
          after: { status: change.status ?? row.status, featured: change.featured ?? row.featured },
        });
      },
    );
  }

  app.patch(
    '/api/testimonials/:id',
    {
      config: { labels: TESTIMONIAL_LABELS },
      schema: { params: idParamSchema, body: testimonialEditSchema, response: { 200: dataEnvelope(testimonialSchema) } },
    },
    async (request) => {
      const row = await rowOf(request, request.params.id);
      assertFresh(row.updatedAt, request.body.updated_at, 'The testimonial');
      const change = editOf(request.body);
      return save(request, row, change, {
        action: 'testimonial.edit',
        message: `Testimonial ${row.id} (${row.displayName}) edited`,
        before: { display_text: row.displayText, display_name: row.displayName },
        after: { display_text: change.displayText ?? row.displayText, display_name: change.displayName ?? row.displayName },
      });
    },
  );

  app.post(
    '/api/testimonials/bulk-approve',
    {
      config: { labels: TESTIMONIAL_LABELS },
      schema: { body: testimonialBulkApproveSchema, response: { 200: dataEnvelope(z.object({ approved: z.number().int() })) } },
    },
    async (request) => {
      const clientId = requireCurrentClientId(request);
      const now = app.clock.now();
      const approved = await app.db.transaction(async (tx) => {
        const rows = await tx
          .update(testimonials)
          .set({ status: 'approved', approvedBy: request.auth?.user.id ?? null, approvedAt: now, updatedAt: now })
          .where(pendingOf(clientId, request.body.ids))
          .returning({ id: testimonials.id });
        await request.audit(
          {
            action: 'testimonial.bulk_approve',
            message: `${rows.length} testimonial(s) approved`,
            clientId,
            entityType: 'testimonial',
            after: { ids: rows.map((r) => r.id) },
          },
          tx,
        );
        return rows.length;
      });
      return { data: { approved } };
    },
  );

  app.get('/api/testimonials/export', { schema: { querystring: testimonialExportQuerySchema } }, async (request, reply) => {
    const clientId = requireCurrentClientId(request);
    const q = request.query;
    const location = asList(q.location);
    const survey = asList(q.survey)?.map(Number);
    const filters = filtersOf({
      ...(location ? { location } : {}),
      ...(survey ? { survey } : {}),
      startDate: q.startDate,
      endDate: q.endDate,
    });
    const zone = (await app.clients.find(clientId))?.timezone ?? null;
    // Streamed in paced keyset pages like every export (kit/csv-export.ts), newest first.
    return sendCsv(reply, {
      fileName: csvFileName('testimonials-tool', app.clock.now()),
      columns: EXPORT_COLUMNS,
      async read(cursor, limit) {
        const after = cursor ? cursorOf(cursor) : null;
        const page = await selectTestimonials(
          app.db,
          and(
            whereOf(clientId, filters),
            after ? sql`(${testimonials.submittedAt}, ${testimonials.id}) < (${after.at}::timestamptz, ${after.id})` : undefined,
          ),
        ).limit(limit);
        const last = page.at(-1);
        return {
          rows: page.map((row) => exportRow(toTestimonial(row), zone)),
          nextCursor: page.length === limit && last ? `${last.t.submittedAt.toISOString()}_${last.t.id}` : null,
        };
      },
      onStart: () =>
        request.audit({ action: 'testimonials.export', message: 'Exported testimonials as CSV', entityType: 'testimonial', clientId }),
    });
  });

  app.get(
    '/api/testimonials/embed',
    { schema: { querystring: testimonialEmbedQuerySchema, response: { 200: dataEnvelope(testimonialEmbedSchema) } } },
    async (request) => {
      const clientId = requireCurrentClientId(request);
      const location = request.query.location;
      const attrs = `client="${clientId}"${location ? ` location="${encodeURIComponent(location)}"` : ''}`;
      const key = location ? `${clientId}?location=${encodeURIComponent(location)}` : String(clientId);
      return {
        data: {
          script: `<script src="${publicBaseUrl}/w/testimonials.js" async></script>\n<selected-testimonials ${attrs}></selected-testimonials>`,
          iframe: `<iframe src="${publicBaseUrl}/w/testimonials/${key}" title="Selected testimonials" style="width:100%;height:420px;border:0" loading="lazy"></iframe>`,
        },
      };
    },
  );
};
