import { dataEnvelope, testClockSchema, testClockSetSchema } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/http-error.ts';
import type { ControlledClock } from '../../pipeline/clock.ts';

/** At most a year either way: enough for any send delay, reminder or expiry a test waits for. */
const MAX_OFFSET_MS = 366 * 86_400_000;

/**
 * `/api/test-clock`, registered only with `CLOCK_CONTROL=on` (docs/decisions/030-test-clock.md):
 * a browser test reads the pipeline's clock, sets it to a later time (the due jobs and sends run
 * before the answer, so the next page shows their result), and puts it back. Sessions keep the
 * real time, so moving the clock never signs anyone out.
 */
export const testClockRoutes: FastifyPluginAsyncZod<{ clock: ControlledClock }> = async (app, { clock }) => {
  const answer = (jobsRun: number) => ({ data: { now: clock.now().toISOString(), offset_ms: clock.offsetMs(), jobs_run: jobsRun } });
  const response = { 200: dataEnvelope(testClockSchema) };

  app.get('/api/test-clock', { config: { access: 'superadmin' }, schema: { response } }, async () => answer(0));

  app.put('/api/test-clock', { config: { access: 'superadmin' }, schema: { body: testClockSetSchema, response } }, async (request) => {
    const offset = new Date(request.body.now).getTime() - Date.now();
    if (!Number.isFinite(offset) || Math.abs(offset) > MAX_OFFSET_MS) {
      throw new HttpError(422, 'The time is more than a year from now.', { now: ['The Now field must be within a year of the real time'] });
    }
    clock.setOffset(offset);
    return answer(await app.jobs.runDue(clock.now()));
  });

  app.delete('/api/test-clock', { config: { access: 'superadmin' }, schema: { response } }, async () => {
    clock.setOffset(0);
    return answer(0);
  });
};
