import {
  channelUsesEmail,
  dataEnvelope,
  idParamSchema,
  SAMPLE_FIRST_NAME,
  SURVEY_TEST_LABELS,
  surveyResource,
  surveyTestResultSchema,
  surveyTestSchema,
} from '@admin/shared';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { locations, smsTemplates, surveyLocations, surveyProcessingItems } from '../../db/schema/index.ts';
import { requireWritableClient } from '../../kit/current-client.ts';
import { fieldsRefused, notFound } from '../../lib/http-error.ts';
import { invitationEmail, invitationSms } from '../../messaging/invitation.ts';
import type { SendResult } from '../../messaging/send.ts';
import { itemStatusOf } from '../../pipeline/item-status.ts';
import type { SurveyRow } from './repository.ts';
import { DAY_MS, findSurvey, newSurveyToken, SAMPLE_PERSONNEL } from './sample.ts';

/** Send test (`POST /api/surveys/:id/send-test`), registered by the survey routes (routes.ts). */
export const surveySendTestRoute: FastifyPluginAsyncZod = async (app) => {
  /**
   * The client's Survey Admin settings an invitation e-mail is built from (sender, footer, logo,
   * colour; the platform defaults under the client's name when it saved none).
   */
  async function settingsOf(survey: SurveyRow) {
    const settings = await app.surveySettings.of(survey.clientId);
    if (!settings) throw notFound('Client');
    return settings;
  }

  // Send test: a real invitation (a processing item with its own link token) rendered with sample
  // values and sent through the messenger's checks and transport; the public page opens its link.
  app.post(
    `${surveyResource.path}/:id/send-test`,
    {
      config: { labels: SURVEY_TEST_LABELS },
      schema: { params: idParamSchema, body: surveyTestSchema, response: { 201: dataEnvelope(surveyTestResultSchema) } },
    },
    async (request, reply) => {
      const survey = await findSurvey(app.db, request.params.id);
      const clientId = (await requireWritableClient(request, survey.clientId)).id;
      const to = request.body.to;
      const channel = to.startsWith('+') ? 'sms' : 'email';
      const refuse = (message: string) => fieldsRefused({ to: [message] }, SURVEY_TEST_LABELS);

      let template: { name: string; body: string } | undefined;
      if (channel === 'sms') {
        if (survey.smsTemplateId === null)
          throw refuse('This survey has no SMS template: choose one on Messaging, or send the test to an email');
        [template] = await app.db
          .select({ name: smsTemplates.name, body: smsTemplates.body })
          .from(smsTemplates)
          .where(and(eq(smsTemplates.id, survey.smsTemplateId), or(isNull(smsTemplates.clientId), eq(smsTemplates.clientId, clientId))))
          .limit(1);
        if (!template) throw refuse('The survey’s SMS template no longer exists');
      } else if (!survey.emailSubject || !survey.emailBody) {
        throw refuse(
          channelUsesEmail(survey.channel)
            ? 'This survey has no email subject or body yet'
            : 'This survey sends no email: fill its email subject and body on Messaging, or send the test to a phone',
        );
      }

      const [location] = await app.db
        .select({ id: locations.id, name: locations.locationname })
        .from(surveyLocations)
        .innerJoin(locations, eq(locations.id, surveyLocations.locationId))
        .where(inArray(surveyLocations.surveyId, [survey.id]))
        .orderBy(locations.locationname, locations.id)
        .limit(1);
      const token = newSurveyToken();
      const expiresAt = new Date(Date.now() + survey.linkExpiresDays * DAY_MS);
      const [item] = await app.db
        .insert(surveyProcessingItems)
        .values({
          clientId,
          locationId: location?.id ?? null,
          surveyId: survey.id,
          firstName: SAMPLE_FIRST_NAME,
          ...(channel === 'email' ? { email: to } : { phone: to }),
          channel,
          status: 'queued',
          token,
          expiresAt,
          source: 'manual_test',
        })
        .returning({ id: surveyProcessingItems.id });
      if (!item) throw new Error('insert returned nothing');

      const surveyLink = app.messenger.link(`/s/${token}`);
      const client = await app.clients.find(clientId);
      const values = {
        firstName: SAMPLE_FIRST_NAME,
        locationName: location?.name ?? null,
        personnelName: SAMPLE_PERSONNEL,
        businessName: client?.name ?? survey.senderName,
        surveyLink,
        unsubscribeLink: app.messenger.link(`/u/${token}`),
      };
      const common = {
        type: 'survey_invite' as const,
        to,
        clientId,
        locationId: location?.id ?? null,
        related: { type: 'survey_processing_item', id: item.id },
      };
      const result: SendResult = template
        ? await app.messenger.send({
            ...common,
            channel: 'sms',
            template: `${template.name} (test)`,
            text: invitationSms(template.body, values),
          })
        : await app.messenger.send({
            ...common,
            channel: 'email',
            ...invitationEmail(survey, values, await settingsOf(survey)),
          });

      const status = itemStatusOf(result);
      const [updated] = await app.db
        .update(surveyProcessingItems)
        .set({
          status,
          attempts: 1,
          sentAt: status === 'sent' ? new Date() : null,
          lastError: result.error,
          ...(status.startsWith('skipped_') ? { skipReason: result.error } : {}),
          updatedAt: new Date(),
        })
        .where(eq(surveyProcessingItems.id, item.id))
        .returning({ expiresAt: surveyProcessingItems.expiresAt });
      await request.audit({
        action: 'survey.send_test',
        message: `Sent a test of survey ${survey.name} by ${channel}: ${status}`,
        clientId,
        entityType: 'survey',
        entityId: survey.id,
        after: { item_id: item.id, notification_id: result.id, status },
      });
      return reply.code(201).send({
        data: {
          item_id: item.id,
          channel,
          status,
          link: surveyLink,
          expires_at: (updated?.expiresAt ?? expiresAt).toISOString(),
          notification_id: result.id,
          notification_status: result.status,
          error: result.error,
        },
      });
    },
  );
};
