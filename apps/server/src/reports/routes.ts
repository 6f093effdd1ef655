import type { FastifyPluginAsync } from 'fastify';
import { checkOwnership, parsePerformanceQuery } from './performance/query.ts';
import { runPerformanceReport } from './performance/run.ts';

/**
 * The reports' API (issue 23). Access is the default of every /api route: staff only
 * (plugins/auth.ts). The query string is read by the handler (performance/query.ts) so every
 * refusal is a 422 naming the field as the report's filters label it. The counts come from the
 * rollup (rollups/read.ts); performance/raw.ts computes the same from the raw tables for the tests
 * and the bench.
 */
export const reportRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/reports/performance', async (request) => {
    const q = parsePerformanceQuery(request.query);
    await checkOwnership(app.db, q);
    return { data: await runPerformanceReport(app.db, q) };
  });
};
