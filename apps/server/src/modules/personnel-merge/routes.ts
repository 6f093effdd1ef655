import {
  dataEnvelope,
  describeMoved,
  dismissGroupSchema,
  MERGE_REQUEST_LABELS,
  mergeGroupsAnswerSchema,
  mergeGroupsQuerySchema,
  mergeHistoryResource,
  mergePreviewSchema,
  mergeRequestSchema,
  mergeSelectionSchema,
} from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { listRoutes } from '../../kit/list-routes.ts';
import { fieldsRefused } from '../../lib/http-error.ts';
import { countHistory, listHistory } from './history.ts';
import { applyMerge, type MergePlan, planMerge } from './merge.ts';
import { assertClientPeople, dismissGroup } from './repository.ts';
import { findGroups } from './suggestions.ts';

const labels = MERGE_REQUEST_LABELS;
/** Routes with a body carry the panel's labels, so the input guard names refused fields by them (plugins/input-guard.ts). */
const config = { access: 'superadmin', labels } as const;

/** The preview without the rows the merge itself needs. */
function previewOf(plan: MergePlan) {
  const { survivorRow: _s, duplicateRows: _d, aliases: _a, fill: _f, ...preview } = plan;
  return preview;
}

/**
 * Merge Personnel Data (docs/screens.md, Merge Personnel Data) under the collection `/api/get-merge-personnel`:
 * suggestions, dismissals, preview, the merge, and its history. Always the current client's people.
 */
export const personnelMergeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/get-merge-personnel',
    {
      config: { access: 'superadmin' },
      schema: {
        querystring: mergeGroupsQuerySchema,
        response: { 200: mergeGroupsAnswerSchema },
      },
    },
    async (request) => {
      const { groups, total, nextCursor } = await findGroups(
        app.db,
        app.personnel,
        requireCurrentClientId(request),
        request.query,
        request.query.perPage,
      );
      return { data: groups, total, nextCursor };
    },
  );

  app.post(
    '/api/get-merge-personnel/dismissals',
    {
      config,
      schema: { body: dismissGroupSchema, response: { 201: dataEnvelope(z.object({ dismissed: z.array(z.number()) })) } },
    },
    async (request, reply) => {
      const clientId = requireCurrentClientId(request);
      const ids = request.body.personnel_ids;
      await assertClientPeople(app.db, clientId, ids);
      await app.db.transaction(async (tx) => {
        await dismissGroup(tx, clientId, ids, request.auth?.user.id ?? 0);
        await request.audit(
          {
            action: 'personnel.merge.dismiss',
            message: `Marked personnel ${ids.join(', ')} as not duplicates`,
            clientId,
            entityType: 'personnel',
            after: { personnel_ids: ids },
          },
          tx,
        );
      });
      return reply.code(201).send({ data: { dismissed: ids } });
    },
  );

  app.post(
    '/api/get-merge-personnel/preview',
    { config, schema: { body: mergeSelectionSchema, response: { 200: dataEnvelope(mergePreviewSchema) } } },
    async (request) => {
      const { survivor_id, duplicate_ids } = request.body;
      const plan = await planMerge(app.db, app.personnel, requireCurrentClientId(request), survivor_id, duplicate_ids, false);
      return { data: previewOf(plan) };
    },
  );

  app.post(
    '/api/get-merge-personnel',
    {
      config,
      schema: {
        body: mergeRequestSchema,
        response: { 201: dataEnvelope(z.object({ merge_id: z.number().int(), preview: mergePreviewSchema })) },
      },
    },
    async (request, reply) => {
      const clientId = requireCurrentClientId(request);
      const { survivor_id, duplicate_ids, confirm_name } = request.body;
      const result = await app.db.transaction(async (tx) => {
        const plan = await planMerge(tx, app.personnel, clientId, survivor_id, duplicate_ids, true);
        const expected = plan.survivor.name;
        if (confirm_name.trim().replace(/\s+/g, ' ') !== expected) {
          // The empty case repeats the input's label, an instruction, with the name to type.
          throw fieldsRefused(
            {
              confirm_name: [
                confirm_name.trim() === ''
                  ? `${labels.confirm_name}: ${expected}`
                  : `Type the survivor's name exactly as shown: ${expected}`,
              ],
            },
            labels,
          );
        }
        const mergeId = await applyMerge(tx, app.personnel, clientId, plan, request.auth?.user.id ?? 0);
        await request.audit(
          {
            action: 'personnel.merge',
            message: `Merged ${plan.duplicates.map((d) => d.name).join(', ')} into ${expected} (${describeMoved(plan.moved_counts)})`,
            clientId,
            entityType: 'personnel',
            entityId: survivor_id,
            before: { survivor: plan.survivor, duplicates: plan.duplicates },
            after: { merge_id: mergeId, filled: plan.filled, aliases_added: plan.aliases_added, moved_counts: plan.moved_counts },
          },
          tx,
        );
        return { merge_id: mergeId, preview: previewOf(plan) };
      });
      return reply.code(201).send({ data: result });
    },
  );

  // The History tab on the kit's list and export routes (kit/list-routes.ts `listRoutes`):
  // the definition's schemas, sorts and columns, the CSV through the columns' formats, the export
  // audited. Not `readOnlyRoutes`, whose store is given no request, so no current client.
  const history = mergeHistoryResource;
  await app.register(async (scope) =>
    listRoutes(scope, history, {
      page: (request, q, limit) => listHistory(app.db, app.personnel, requireCurrentClientId(request), q, limit),
      count: async (request) => ({ total: await countHistory(app.db, requireCurrentClientId(request)), totalIsEstimate: false }),
      onExport: (request, filters) =>
        request.audit({
          action: 'personnel_merge.export',
          message: 'Exported the merge history as CSV',
          clientId: requireCurrentClientId(request),
          entityType: history.name,
          after: filters,
        }),
    }),
  );
};
