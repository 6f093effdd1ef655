import { dataEnvelope, idParamSchema, reviewAlertRuleResource } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCurrentClientId } from '../kit/current-client.ts';
import { sendTest } from './test-send.ts';

const testAnswer = dataEnvelope(z.object({ sent: z.number().int(), recipients: z.array(z.string()) }));

/**
 * `POST /api/review-alert-settings/:id/test`, Review Alert Settings' Send test (the rest of that
 * path is apps/server/src/modules/review-alert-rules/): the current client's rule sent now to its
 * real recipients, marked as a test; audited. Staff only (the access plugin's default).
 */
export const reviewAlertTestRoute: FastifyPluginAsyncZod = async (app) => {
  app.post(
    `${reviewAlertRuleResource.path}/:id/test`,
    { schema: { params: idParamSchema, response: { 200: testAnswer } } },
    async (request) => {
      const clientId = requireCurrentClientId(request);
      const { rule, sent, recipients } = await sendTest(app.db, app.messenger, Number(request.params.id), clientId, app.clock.now());
      await request.audit({
        action: 'review_alert_rule.test',
        message: `Sent a test of review alert rule ${rule.name} to ${recipients.length} ${recipients.length === 1 ? 'recipient' : 'recipients'}`,
        clientId,
        entityType: reviewAlertRuleResource.name,
        entityId: rule.id,
        after: { sent, recipients },
      });
      return { data: { sent, recipients } };
    },
  );
};
