import { dataEnvelope, idParamSchema } from '@admin/shared';
import { feedRunDetailSchema, feedRunResource, surveyChangeResource } from '@admin/shared/resources/survey-manager-logs';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataFeeds } from '../../db/schema/index.ts';
import { csvFileName } from '../../kit/csv.ts';
import { sendCsv } from '../../kit/csv-export.ts';
import { everyClient, everyFeed, everySurvey, everyUser } from '../../kit/options.ts';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import { startRun } from '../../pipeline/ingest/run.ts';
import { batchSizeFor } from '../../pipeline/ingest/run-store.ts';
import { rejectedColumns, rejectedRowsPage, rowErrorColumns } from './rejected-rows.ts';
import { countChanges, countRuns, findRerun, findRun, listChanges, listRuns, rowErrors } from './repository.ts';

/** The rejected-rows CSV holds every refused row of a run, up to this many. */
const MAX_REJECTED = 100_000;

/**
 * Survey Manager Logs: the feeds' runs and the surveys' changes, each a read-only list on the kit
 * (kit/read-only-routes.ts) under `/api/survey-manager-logs/{runs,changes}`; a run's detail has its
 * per-row errors, and `runs/:id/rejected` downloads its refused rows (as received, with the reason)
 * as CSV, audited like an export.
 */
export const surveyManagerLogRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(feedRunResource, {
      list: listRuns,
      count: countRuns,
      exportAudit: { action: 'survey_manager_logs.export_runs', message: 'Exported feed runs as CSV' },
      options: { client: everyClient, feed: everyFeed, survey: everySurvey, user: everyUser },
      detail: { schema: feedRunDetailSchema, find: findRun, what: 'Run' },
    }),
  );
  await app.register(
    readOnlyRoutes(surveyChangeResource, {
      list: listChanges,
      count: countChanges,
      exportAudit: { action: 'survey_manager_logs.export_changes', message: 'Exported survey changes as CSV' },
      options: { client: everyClient, survey: everySurvey, user: everyUser },
    }),
  );

  // The run's refused rows, one line each as received (the file can be fixed and uploaded again),
  // with the line each came from and all its errors in one column (rejected-rows.ts).
  app.get(`${feedRunResource.path}/:id/rejected`, { schema: { params: idParamSchema } }, async (request, reply) => {
    const run = await findRun(app.db, request.params.id);
    if (!run) throw notFound('Run');
    const [feed] = await app.db
      .select({ mapping: dataFeeds.fieldMapping, hasHeader: dataFeeds.hasHeader })
      .from(dataFeeds)
      .where(eq(dataFeeds.id, run.data_feed_id));
    const names = rejectedColumns(feed?.mapping ?? {}, feed?.hasHeader ?? true, await rowErrorColumns(app.db, run.id));
    const own = names.slice(0, -2);
    const columns = names.map((label, i) => ({ key: `c${i}`, label }));
    // Streamed in paced pages like every export (kit/csv-export.ts), up to MAX_REJECTED rows.
    let written = 0;
    return sendCsv(reply, {
      fileName: csvFileName(`run-${run.id}-rejected`),
      columns,
      async read(cursor, limit) {
        const page = await rejectedRowsPage(app.db, run.id, cursor, Math.min(limit, MAX_REJECTED - written));
        written += page.rows.length;
        const rows = page.rows.map((r) =>
          Object.fromEntries([...own.map((c) => r.raw[c] ?? ''), r.line, r.errors].map((v, i) => [`c${i}`, v])),
        );
        return { rows, nextCursor: written < MAX_REJECTED ? page.nextCursor : null };
      },
      onStart: () =>
        request.audit({
          action: 'survey_manager_logs.export_rejected',
          message: `Downloaded the ${Math.min(run.rows_invalid, MAX_REJECTED)} rejected rows of run ${run.id} (${run.source_name})`,
          entityType: 'data_feed_run',
          entityId: run.id,
          clientId: run.client_id,
        }),
    });
  });

  // Re-run failed rows: the run's refused rows as they were received, through the feed's mapping
  // and rules again (source `rerun`), as a new run that names this one; answered once the rows
  // are stored (202), the workers admit them and the run's detail shows how far it got.
  app.post(
    `${feedRunResource.path}/:id/rerun`,
    { schema: { params: idParamSchema, response: { 202: dataEnvelope(feedRunDetailSchema) } } },
    async (request, reply) => {
      const run = await findRun(app.db, request.params.id);
      if (!run) throw notFound('Run');
      // Its refused rows are known only once it ended; and they are re-run once (a unique index
      // on rerun_of decides between two clicks at once: the second gets the generic 409).
      if (run.run_status === 'running') throw conflict('This run is still running: re-run its failed rows once it has finished.');
      const earlier = await findRerun(app.db, run.id);
      if (earlier)
        throw conflict(`The failed rows of run ${run.id} were already re-run as run ${earlier.id}: re-run that run's failed rows instead.`);
      const errors = await rowErrors(app.db, run.id, MAX_REJECTED);
      if (errors.length === 0) throw conflict('This run refused no rows: there is nothing to re-run.');
      const [feed] = await app.db.select().from(dataFeeds).where(eq(dataFeeds.id, run.data_feed_id)).limit(1);
      if (!feed) throw notFound('Feed');
      // A row refused for several reasons has one error each: it is re-run once.
      const records = [...new Map(errors.map((e) => [e.rowNumber, { rowNumber: e.rowNumber, raw: e.raw }])).values()];
      const runId = await startRun(
        { db: app.db, clock: app.clock, batchSize: batchSizeFor(app.database.kind) },
        feed,
        {
          source: 'rerun',
          sourceName: `Re-run of run ${run.id} (${run.source_name})`,
          startedBy: request.auth?.user.id ?? null,
          rerunOf: run.id,
        },
        records,
      );
      const rerun = await findRun(app.db, runId);
      if (!rerun) throw conflict('The re-run did not start: try again.');
      await request.audit({
        action: 'survey_manager_logs.rerun',
        message: `Re-running the ${records.length} failed rows of run ${run.id} as run ${rerun.id}`,
        entityType: 'data_feed_run',
        entityId: rerun.id,
        clientId: run.client_id,
        after: { rerun_of: run.id, rows_read: rerun.rows_read },
      });
      return reply.code(202).send({ data: rerun });
    },
  );
};
