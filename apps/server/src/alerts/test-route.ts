import { dataEnvelope, idParamSchema } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCurrentClientId } from '../kit/current-client.ts';
import { fireTest } from './test-fire.ts';

const testAnswer = dataEnvelope(z.object({ sent: z.number().int(), recipients: z.array(z.string()) }));

/**
 * `POST /api/survey-alert-settings/:id/test`, Survey Alert Settings' Test (the rest of that path is
 * apps/server/src/modules/survey-alert-rules/): the rule of the current client fired on a sample,
 * to its real recipients, marked as a test; audited. Staff only (the access plugin's default).
 */
export const alertTestRoute: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/survey-alert-settings/:id/test', { schema: { params: idParamSchema, response: { 200: testAnswer } } }, async (request) => {
    const clientId = requireCurrentClientId(request);
    const now = app.clock.now();
    const { rule, sent, recipients } = await fireTest(app.db, app.messenger, Number(request.params.id), clientId, now);
    await request.audit({
      action: 'survey_alert_rule.test',
      message: `Sent a test of survey alert rule ${rule.name} to ${recipients.length} ${recipients.length === 1 ? 'recipient' : 'recipients'}`,
      clientId,
      entityType: 'survey_alert_rule',
      entityId: rule.id,
      after: { sent, recipients },
    });
    return { data: { sent, recipients } };
  });
};
