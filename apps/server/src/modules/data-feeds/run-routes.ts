import type { IncomingMessage } from 'node:http';
import {
  dataEnvelope,
  dataFeedResource,
  FEED_FILE_LABELS,
  type FeedFileBody,
  feedFileSchema,
  feedRunNowSchema,
  feedRunStartedSchema,
  feedValidationSchema,
  idParamSchema,
} from '@admin/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireWritableClient } from '../../kit/current-client.ts';
import { fieldsRefused, HttpError } from '../../lib/http-error.ts';
import { FeedFileError } from '../../pipeline/ingest/parse.ts';
import { type DataFeedRow, type RunDeps, receiveFile, validateFile } from '../../pipeline/ingest/run.ts';
import { LeaseLost } from '../../pipeline/ingest/run-store.ts';
import { pullNow } from '../../pipeline/ingest/sftp.ts';

/** A small file may come as JSON (`{ csv, file_name }`); a big one comes as the file itself (`text/csv`), read as it arrives. */
const JSON_FILE_LIMIT = 1024 * 1024;
const fileQuerySchema = z.strictObject({ file_name: z.string().trim().min(1).max(255).optional() });
/** Routes with a file carry its input's labels, so the input guard names refused fields by them (plugins/input-guard.ts). */
const fileConfig = { labels: FEED_FILE_LABELS };

/**
 * The file of Validate file and Upload CSV: the JSON body's text, or the request itself when it
 * is `text/csv` (its content-type parser below leaves the body unread, so a 60 MB file is read in
 * chunks while it arrives, never held whole). No file at all is a 422 naming the input.
 */
function fileOf(request: FastifyRequest, body: FeedFileBody | null | undefined, fileName: string | undefined) {
  if (body) return { input: [body.csv], name: body.file_name ?? fileName ?? 'upload.csv' };
  if (!request.headers['content-type']?.startsWith('text/csv')) {
    throw fieldsRefused({ csv: [`The ${FEED_FILE_LABELS.csv} field is required`] }, FEED_FILE_LABELS);
  }
  const raw: IncomingMessage = request.raw;
  return { input: raw, name: fileName ?? 'upload.csv' };
}

/** What a file that cannot be read becomes: a 422 naming the file input; a file arriving too slowly, a 408. */
function refusal(err: unknown): unknown {
  if (err instanceof FeedFileError) return fieldsRefused({ csv: [err.message] }, FEED_FILE_LABELS);
  if (err instanceof LeaseLost) return new HttpError(408, 'The file arrived too slowly and its run was given up. Upload it again.');
  return err;
}

/**
 * Survey Platform's file routes: Validate file (dry run), Upload CSV (a run, answered 202 once the
 * file is stored; the workers admit its rows, and Survey Manager Logs shows its progress) and Run
 * now (queues an SFTP pull).
 */
export const dataFeedRunRoutes: FastifyPluginAsyncZod<{ deps: RunDeps; findFeed(id: number): Promise<DataFeedRow> }> = async (
  app,
  { deps, findFeed },
) => {
  const path = dataFeedResource.path;
  // The body is read by the handler as it arrives (fileOf).
  app.addContentTypeParser('text/csv', (_request, _payload, done) => done(null, undefined));

  const fileRoute = {
    config: fileConfig,
    bodyLimit: JSON_FILE_LIMIT,
    schema: { params: idParamSchema, querystring: fileQuerySchema, body: feedFileSchema.nullish() },
  };

  app.post(
    `${path}/:id/validate`,
    { ...fileRoute, schema: { ...fileRoute.schema, response: { 200: dataEnvelope(feedValidationSchema) } } },
    async (request) => {
      const feed = await findFeed(request.params.id);
      const file = fileOf(request, request.body, request.query.file_name);
      try {
        return { data: await validateFile(deps, feed, file.input) };
      } catch (err) {
        throw refusal(err);
      }
    },
  );

  app.post(
    `${path}/:id/upload`,
    { ...fileRoute, schema: { ...fileRoute.schema, response: { 202: dataEnvelope(feedRunStartedSchema) } } },
    async (request, reply) => {
      const feed = await findFeed(request.params.id);
      await requireWritableClient(request, feed.clientId);
      if (feed.status !== 'active') {
        throw new HttpError(
          423,
          `The feed is ${feed.status === 'paused' ? 'paused' : 'archived'}: it ingests nothing until it is resumed.`,
        );
      }
      const file = fileOf(request, request.body, request.query.file_name);
      const start = { source: 'csv_upload' as const, sourceName: file.name, startedBy: request.auth?.user.id ?? null };
      let received: Awaited<ReturnType<typeof receiveFile>>;
      try {
        received = await receiveFile(deps, feed, start, { input: file.input });
      } catch (err) {
        throw refusal(err);
      }
      if (!received) throw new Error('an upload run was not kept');
      const { runId, rowsRead } = received;
      await request.audit({
        action: 'data_feed.upload',
        message: `Uploaded ${file.name} to feed ${feed.name}: run ${runId} admits its rows`,
        clientId: feed.clientId,
        entityType: 'data_feed',
        entityId: feed.id,
        after: { run_id: runId },
      });
      return reply
        .code(202)
        .send({ data: { id: runId, data_feed_id: feed.id, source_name: file.name, run_status: 'running' as const, rows_read: rowsRead } });
    },
  );

  app.post(
    `${path}/:id/run`,
    { schema: { params: idParamSchema, response: { 202: dataEnvelope(feedRunNowSchema) } } },
    async (request, reply) => {
      const feed = await findFeed(request.params.id);
      await requireWritableClient(request, feed.clientId);
      if (feed.sourceType !== 'sftp') {
        throw new HttpError(409, 'Run now pulls an SFTP feed; upload a file to run this feed.');
      }
      if (feed.status !== 'active') throw new HttpError(423, 'The feed is not active: resume it before running it.');
      const jobId = await pullNow(app.jobs, feed.id);
      await request.audit({
        action: 'data_feed.run',
        message: `Queued an SFTP pull of feed ${feed.name}`,
        clientId: feed.clientId,
        entityType: 'data_feed',
        entityId: feed.id,
      });
      return reply.code(202).send({
        data: {
          queued: jobId !== null,
          job_id: jobId,
          message:
            jobId === null ? 'A pull of this feed is already waiting.' : 'The SFTP pull is queued; its run appears in Survey Manager Logs.',
        },
      });
    },
  );
};
