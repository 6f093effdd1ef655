import {
  dataEnvelope,
  dataFeedResource,
  FEED_DELIMITERS,
  FEED_SAMPLE_LABELS,
  feedFileSchema,
  feedPreviewSchema,
  feedTemplateCsv,
  idParamSchema,
  optionsAnswerSchema,
  optionsQuerySchema,
} from '@admin/shared';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataFeeds, surveys } from '../../db/schema/index.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { allOf, containsPattern } from '../../kit/keyset.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { fieldsRefused, notFound } from '../../lib/http-error.ts';
import { FeedFileError, parseFeedFile } from '../../pipeline/ingest/parse.ts';
import type { DataFeedRow } from '../../pipeline/ingest/run.ts';
import { batchSizeFor } from '../../pipeline/ingest/run-store.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';
import { schedulePull } from '../../pipeline/ingest/sftp.ts';
import { dataFeedStore, toDataFeed } from './repository.ts';
import { dataFeedRunRoutes } from './run-routes.ts';
import { templateCodes } from './template.ts';

/** Rows the mapping editor's preview shows. */
const PREVIEW_ROWS = 10;
/** A 50 MB file's text in a JSON body, with room for escaping. */
const FILE_BODY_LIMIT = 64 * 1024 * 1024;
const previewBodySchema = feedFileSchema.extend({
  delimiter: z.enum(FEED_DELIMITERS).optional(),
  has_header: z.boolean().optional(),
});

/** A file that cannot be read at all is a 422 naming the file as its input labels it (`labels`). */
const fileRefused = (err: FeedFileError, labels: Readonly<Record<string, string>>) => fieldsRefused({ csv: [err.message] }, labels);
const sampleConfig = { labels: FEED_SAMPLE_LABELS };

/**
 * Survey Platform (collection `/api/data-feeds`): the kit's routes for the definition (Pause,
 * Resume and Archive are its status route), and the feed's own: survey options for the filter,
 * the mapping editor's preview of a sample's first rows, the sample template CSV, and the file
 * routes of run-routes.ts (Validate file, Upload CSV, Run now). Saving or resuming an SFTP feed
 * with a schedule queues its next pull.
 */
export const dataFeedRoutes: FastifyPluginAsyncZod<{ secrets: SecretBox; allowPrivateHosts: boolean }> = async (
  app,
  { secrets, allowPrivateHosts },
) => {
  const base = dataFeedStore(secrets, { allowPrivateHosts });
  const store: typeof base = {
    ...base,
    async afterWrite(tx, row) {
      await schedulePull(app.jobs, app.db, row, app.clock.now(), tx);
    },
    async beforeStatus(tx, row, to) {
      if (to === 'active') await schedulePull(app.jobs, app.db, { ...row, status: to }, app.clock.now(), tx);
    },
  };
  await app.register(resourceRoutes(dataFeedResource, store));
  const runDeps = { db: app.db, clock: app.clock, batchSize: batchSizeFor(app.database.kind) };

  const path = dataFeedResource.path;

  /** A feed of any client (the list shows the clients chosen in its filter), or 404. */
  async function findFeed(id: number): Promise<DataFeedRow> {
    const [feed] = await app.db.select().from(dataFeeds).where(eq(dataFeeds.id, id)).limit(1);
    if (!feed) throw notFound('Feed');
    return feed;
  }

  /** The filter's survey options: the current client's surveys, with the chosen ones. */
  app.get(
    `${path}/options/survey`,
    { schema: { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
    async (request) => {
      const q = request.query;
      const clientId = requireCurrentClientId(request);
      const like = containsPattern(q.q);
      const rows = await app.db
        .select({ value: sql<string>`${surveys.id}::text`, label: surveys.name })
        .from(surveys)
        .where(allOf([eq(surveys.clientId, clientId), like ? sql`${surveys.name} ilike ${like}` : undefined]))
        .orderBy(sql`lower(${surveys.name})`, asc(surveys.id))
        .limit(q.perPage + 1);
      const found = rows.slice(0, q.perPage);
      const chosen = (q.value ?? []).filter((v) => /^[1-9]\d{0,9}$/.test(v) && !found.some((r) => r.value === v)).map(Number);
      const extra =
        chosen.length === 0
          ? []
          : await app.db
              .select({ value: sql<string>`${surveys.id}::text`, label: surveys.name })
              .from(surveys)
              .where(inArray(surveys.id, chosen));
      return { data: [...found, ...extra], more: rows.length > q.perPage };
    },
  );

  // The mapping editor's preview: a sample's columns and first rows, read as the feed would (or with the form's unsaved delimiter and header).
  app.post(
    `${path}/preview`,
    {
      config: sampleConfig,
      bodyLimit: FILE_BODY_LIMIT,
      schema: { body: previewBodySchema, response: { 200: dataEnvelope(feedPreviewSchema) } },
    },
    async (request) => {
      const { csv, delimiter = 'comma', has_header = true } = request.body;
      // Only the first rows are needed: parse a prefix, cut at a line end.
      const head = csv.length > 256 * 1024 ? csv.slice(0, csv.lastIndexOf('\n', 256 * 1024) + 1) : csv;
      try {
        const { columns, records } = parseFeedFile(head, { delimiter, hasHeader: has_header });
        return {
          data: { columns, rows: records.slice(0, PREVIEW_ROWS).map((r) => columns.map((c) => r.raw[c] ?? '')) },
        };
      } catch (err) {
        if (err instanceof FeedFileError) throw fileRefused(err, FEED_SAMPLE_LABELS);
        throw err;
      }
    },
  );

  app.get(`${path}/:id/template`, { schema: { params: idParamSchema } }, async (request, reply) => {
    const feed = await findFeed(request.params.id);
    const record = toDataFeed(feed);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="feed-${feed.id}-template.csv"`)
      .send(feedTemplateCsv(record, await templateCodes(app.db, feed)));
  });

  await app.register(dataFeedRunRoutes, { deps: runDeps, findFeed });
};
