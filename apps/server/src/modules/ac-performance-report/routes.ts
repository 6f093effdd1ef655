import {
  type AcPerformanceQuery,
  type AcPerformanceReport,
  type OptionsQuery,
  optionsAnswerSchema,
  optionsQuerySchema,
  type PerformanceFigures,
  type PerformanceQuery,
} from '@admin/shared';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { validated } from '../../kit/validated.ts';
import { boundedRead } from '../../lib/bounded-read.ts';
import { clientFacts } from './facts.ts';
import { coordinatorOptions } from './options.ts';
import { checkIds, parseAcQuery, previousPeriod } from './query.ts';
import { acRows } from './rows.ts';

/**
 * What this module takes from the Performance Report (apps/server/src/reports/performance/by-client.ts).
 * A module may not import that folder (biome.json), so app.ts hands it in.
 */
export type AcReportDeps = {
  figuresByClient: (db: Db, query: Omit<PerformanceQuery, 'groupBy'>) => Promise<Map<number, PerformanceFigures>>;
};

/**
 * The AC Performance Report for a validated query: the chosen clients' facts (facts.ts) and the
 * Performance Report's figures per client for the period and the previous equal one
 * (figuresByClient), summed per coordinator (rows.ts); bounded like the Performance Report (503).
 */
export function acPerformanceReport(deps: AcReportDeps, db: Db, q: AcPerformanceQuery, now: Date): Promise<AcPerformanceReport> {
  const previous = previousPeriod(q.from, q.to);
  return boundedRead(
    db,
    async (tx) => {
      const facts = await clientFacts(tx, q);
      const clients = facts.map((f) => f.id);
      const figures = async (from: string, to: string) =>
        // No client chosen means none here, while figuresByClient reads an empty list as every client.
        clients.length === 0
          ? new Map<number, PerformanceFigures>()
          : deps.figuresByClient(tx, { clients, locations: [], surveys: [], personnel: [], channel: 'all', from, to });
      const current = await figures(q.from, q.to);
      const before = await figures(previous.from, previous.to);
      return { query: q, previous, asOf: now.toISOString(), rows: acRows(facts, current, before, now) };
    },
    { what: 'This report' },
  );
}

/**
 * `GET /api/reports/ac-performance` (domain §28; issue 23). Staff only: the access plugin's
 * default for /api routes (plugins/auth.ts). The query string is read by the handler (query.ts) so
 * every refusal is a 422 naming the field as the report's filters label it.
 */
export const acPerformanceReportRoutes: FastifyPluginAsync<AcReportDeps> = async (app, deps) => {
  app.get('/api/reports/ac-performance', async (request) => {
    const q = parseAcQuery(request.query);
    await checkIds(app.db, q);
    return { data: await acPerformanceReport(deps, app.db, q, app.clock.now()) };
  });
  app.get(
    '/api/reports/ac-performance/options/coordinators',
    { schema: { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
    async (request) => coordinatorOptions(app.db, validated<OptionsQuery>(request.query)),
  );
};
