import { dataEnvelope, idParamSchema, reportScheduleResource, reportScheduleSchema } from '@admin/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reportSchedules } from '../db/schema/index.ts';
import { requireCurrentClientId } from '../kit/current-client.ts';
import { resourceRoutes } from '../kit/resource-routes.ts';
import { HttpError, notFound } from '../lib/http-error.ts';
import { claimRun, runOf } from './claim.ts';
import { lastCompletePeriod } from './period.ts';
import { sendRun, timingOf } from './run.ts';
import { reportScheduleStore, toSchedule } from './store.ts';

const sendBody = z.strictObject({ force: z.boolean().optional() }).optional();
const sentSchema = z.object({
  schedule: reportScheduleSchema,
  run: z.object({ id: z.number(), status: z.enum(['sent', 'failed']), error: z.string().nullable(), period: z.string() }),
});

/**
 * Scheduled reports (`/api/report-schedules`): the kit's routes for the resource (list, export,
 * get, create, edit, pause/resume/archive), and Delete and Send now. Staff only (the access
 * plugin's default), the current client's schedules.
 */
export const reportScheduleRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(resourceRoutes(reportScheduleResource, reportScheduleStore));

  const own = async (request: Parameters<typeof requireCurrentClientId>[0], id: number) => {
    const clientId = requireCurrentClientId(request);
    const [row] = await app.db
      .select()
      .from(reportSchedules)
      .where(and(eq(reportSchedules.id, id), eq(reportSchedules.clientId, clientId)))
      .limit(1);
    if (!row) throw notFound('Scheduled report');
    return row;
  };

  app.delete(`${reportScheduleResource.path}/:id`, { schema: { params: idParamSchema } }, async (request, reply) => {
    const row = await own(request, request.params.id);
    await app.db.transaction(async (tx) => {
      await tx.delete(reportSchedules).where(eq(reportSchedules.id, row.id));
      await request.audit(
        {
          action: 'report_schedule.delete',
          message: `Deleted scheduled report ${row.name}`,
          clientId: row.clientId,
          entityType: 'report_schedule',
          entityId: row.id,
          before: toSchedule(row),
        },
        tx,
      );
    });
    return reply.code(204).send();
  });

  /**
   * Send now: the last complete period (the one the latest send time reports), at once, to every
   * recipient. Once per period like the loop: a period already sent is a 409 saying so unless
   * `force`, which sends it again as a new attempt; a failed one is retried for its failed recipients.
   */
  app.post(
    `${reportScheduleResource.path}/:id/send`,
    { schema: { params: idParamSchema, body: sendBody, response: { 200: dataEnvelope(sentSchema) } } },
    async (request) => {
      const row = await own(request, request.params.id);
      // An archived schedule is kept for its history only; it is restored before it sends again.
      if (row.status === 'inactive') throw new HttpError(409, `${row.name} is archived: restore it before sending it.`);
      const now = app.clock.now();
      const period = lastCompletePeriod(now, timingOf(row));
      const force = request.body?.force === true;
      const claim = await claimRun(app.db, row.id, period, now, { force, retryFailed: true });
      const words = `${period.start} – ${period.end}`;
      if (!claim) {
        const run = await runOf(app.db, row.id, period.start);
        throw new HttpError(
          409,
          run?.status === 'sending'
            ? `The report for ${words} is being sent right now.`
            : `The report for ${words} was already sent. Send it again to send it once more.`,
        );
      }
      const outcome = await sendRun(app.db, app.messenger, row, period, claim, now);
      await request.audit({
        action: 'report_schedule.send',
        message: `Sent scheduled report ${row.name} for ${words}: ${outcome.status}`,
        clientId: row.clientId,
        entityType: 'report_schedule',
        entityId: row.id,
        after: { period: words, status: outcome.status, error: outcome.error, force },
      });
      const [after] = await app.db.select().from(reportSchedules).where(eq(reportSchedules.id, row.id));
      return {
        data: {
          schedule: toSchedule(after ?? row),
          run: { id: outcome.runId, status: outcome.status, error: outcome.error, period: words },
        },
      };
    },
  );
};
