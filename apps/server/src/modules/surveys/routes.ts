import {
  dataEnvelope,
  idParamSchema,
  SURVEY_DUPLICATE_LABELS,
  surveyDuplicateSchema,
  surveyOptionsAnswerSchema,
  surveyResource,
  surveySchema,
} from '@admin/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { smsTemplates, surveyLocations, surveys } from '../../db/schema/index.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { auditDuplicate, copyName } from '../../kit/duplicate.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { logSurveyChanges } from './change-log.ts';
import { surveyPreviewRoute } from './preview.ts';
import { loadSurvey, setLocations, surveyStore } from './repository.ts';
import { findSurvey } from './sample.ts';
import { surveySendTestRoute } from './send-test.ts';

/**
 * Surveys (collection `/api/surveys`): the kit's routes for the definition, the spec's
 * `GET /api/admin/surveys` (the current client's surveys as filter options), Duplicate (to the same
 * or another client) and Send test (a real invitation, source `manual_test`, through the messenger).
 */
export const surveyRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(resourceRoutes(surveyResource, surveyStore));

  app.get('/api/admin/surveys', { schema: { response: { 200: surveyOptionsAnswerSchema } } }, async (request) => {
    const clientId = requireCurrentClientId(request);
    const rows = await app.db
      .select({ label: surveys.name, value: surveys.id })
      .from(surveys)
      .where(and(eq(surveys.clientId, clientId), sql`${surveys.status} <> 'inactive'`))
      .orderBy(sql`lower(${surveys.name})`, asc(surveys.id));
    return { data: rows };
  });

  // Duplicate: an active copy "… (copy)" for the current client, or a paused one for another client,
  // whose locations and own SMS template the copy cannot keep (they are the source client's).
  app.post(
    `${surveyResource.path}/:id/duplicate`,
    {
      // Its dialog's label, so the input guard names a refused field by it (plugins/input-guard.ts).
      config: { labels: SURVEY_DUPLICATE_LABELS },
      schema: {
        params: idParamSchema,
        // A POST without a payload reaches the validator as null: the current client then.
        body: surveyDuplicateSchema.nullish(),
        response: { 201: dataEnvelope(surveySchema) },
      },
    },
    async (request, reply) => {
      const source = await findSurvey(app.db, request.params.id);
      const target = await requireWritableClient(request, request.body?.client_id ?? source.clientId);
      const sameClient = target.id === source.clientId;
      let smsTemplateId = source.smsTemplateId;
      if (!sameClient && smsTemplateId !== null) {
        const [global] = await app.db
          .select({ id: smsTemplates.id })
          .from(smsTemplates)
          .where(and(eq(smsTemplates.id, smsTemplateId), isNull(smsTemplates.clientId)))
          .limit(1);
        smsTemplateId = global?.id ?? null;
      }
      const copy = await app.db.transaction(async (tx) => {
        const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = source;
        const [row] = await tx
          .insert(surveys)
          .values({ ...rest, clientId: target.id, name: copyName(source.name), smsTemplateId, status: sameClient ? 'active' : 'paused' })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        if (sameClient) {
          const links = await tx
            .select({ id: surveyLocations.locationId })
            .from(surveyLocations)
            .where(eq(surveyLocations.surveyId, source.id));
          await setLocations(
            tx,
            row.id,
            links.map((l) => l.id),
          );
        }
        const record = await loadSurvey(tx, row.id);
        await logSurveyChanges(tx, row, request.auth?.user.id ?? null, [
          { action: 'duplicated', diff: { duplicated_from: { before: null, after: `${source.name} (#${source.id})` } } },
        ]);
        await auditDuplicate(request, tx, {
          entityType: 'survey',
          what: 'survey',
          source,
          copy: row,
          record,
          ...(sameClient ? {} : { forWhom: target.name }),
        });
        return record;
      });
      return reply.code(201).send({ data: copy });
    },
  );

  await app.register(surveySendTestRoute);
  await app.register(surveyPreviewRoute);
};
