import {
  dataEnvelope,
  describeMoved,
  dismissGroupSchema,
  listEnvelope,
  mergeGroupsAnswerSchema,
  mergeGroupsQuerySchema,
  mergeHistoryColumns,
  mergeHistoryExportQuerySchema,
  mergeHistoryQuerySchema,
  mergePreviewSchema,
  mergeRecordSchema,
  mergeRequestSchema,
  mergeSelectionSchema,
} from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { HttpError } from '../../lib/http-error.ts';
import {
  applyMerge,
  assertClientPeople,
  countHistory,
  dismissGroup,
  findGroups,
  listHistory,
  type MergePlan,
  planMerge,
} from './repository.ts';

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
      config: { access: 'superadmin' },
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
    { config: { access: 'superadmin' }, schema: { body: mergeSelectionSchema, response: { 200: dataEnvelope(mergePreviewSchema) } } },
    async (request) => {
      const { survivor_id, duplicate_ids } = request.body;
      const plan = await planMerge(app.db, app.personnel, requireCurrentClientId(request), survivor_id, duplicate_ids, false);
      return { data: previewOf(plan) };
    },
  );

  app.post(
    '/api/get-merge-personnel',
    {
      config: { access: 'superadmin' },
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
          throw new HttpError(422, 'Please correct: confirm_name.', {
            confirm_name: [
              confirm_name.trim() === '' ? 'The confirm name field is required' : `Type the survivor's name exactly as shown: ${expected}`,
            ],
          });
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

  app.get(
    '/api/get-merge-personnel/history',
    {
      config: { access: 'superadmin' },
      schema: {
        querystring: mergeHistoryQuerySchema,
        response: { 200: listEnvelope(mergeRecordSchema).extend({ totalIsEstimate: z.boolean() }) },
      },
    },
    async (request) => {
      const clientId = requireCurrentClientId(request);
      const { rows, nextCursor } = await listHistory(app.db, app.personnel, clientId, request.query, request.query.perPage);
      return { data: rows, nextCursor, total: await countHistory(app.db, clientId), totalIsEstimate: false };
    },
  );

  app.get(
    '/api/get-merge-personnel/history/export',
    { config: { access: 'superadmin' }, schema: { querystring: mergeHistoryExportQuerySchema } },
    async (request, reply) => {
      const clientId = requireCurrentClientId(request);
      const { cursor: _c, perPage: _p, columns: chosen, ...q } = request.query;
      const columns = chosen
        ? chosen.map((k) => mergeHistoryColumns.find((c) => c.key === k)).filter((c) => c !== undefined)
        : mergeHistoryColumns.filter((c) => c.defaultVisible);
      const db = app.db;
      async function* batches() {
        let cursor: string | undefined;
        do {
          const page = await listHistory(db, app.personnel, clientId, { ...q, ...(cursor ? { cursor } : {}) }, 1000);
          yield page.rows.map((r) => ({
            ...r,
            merged_names: r.merged_names.join('; '),
            aliases_added: r.aliases_added.join('; '),
            moved: describeMoved(r.moved_counts),
          }));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      return sendCsv(reply, csvFileName('personnel-merge-history'), columns, batches());
    },
  );
};
