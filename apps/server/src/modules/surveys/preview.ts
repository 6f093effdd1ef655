import { dataEnvelope, idParamSchema, SAMPLE_FIRST_NAME, surveyResource } from '@admin/shared';
import { countSms, type SurveyPreview, surveyPreviewSchema } from '@admin/shared/surveys/preview';
import { SURVEY_TYPES, type SurveyType } from '@admin/shared/surveys/questions';
import { and, eq, isNull, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { locations, smsTemplates, surveyLocations } from '../../db/schema/index.ts';
import { invitationEmail, invitationSms } from '../../messaging/invitation.ts';
import { SAMPLE_TOKEN } from '../../public/sample-link.ts';
import { surveyPage } from '../../public/survey-page.ts';
import { DAY_MS, findSurvey, SAMPLE_PERSONNEL } from './sample.ts';

const surveyTypeOf = (value: string): SurveyType => SURVEY_TYPES.find((t) => t === value) ?? 'custom';

/** Preview (`GET /api/surveys/:id/preview`), registered by the survey routes (routes.ts). */
export const surveyPreviewRoute: FastifyPluginAsyncZod = async (app) => {
  // Preview: the invitation e-mail and SMS as they would be sent, and the public survey page as
  // `/s/{token}` renders it (the same function), all with sample values; nothing is recorded.
  app.get(
    `${surveyResource.path}/:id/preview`,
    { schema: { params: idParamSchema, response: { 200: dataEnvelope(surveyPreviewSchema) } } },
    async (request) => {
      const survey = await findSurvey(app.db, request.params.id);
      const clientId = survey.clientId;
      const [location] = await app.db
        .select({ id: locations.id, name: locations.locationname, reviewLinks: locations.reviewLinks })
        .from(surveyLocations)
        .innerJoin(locations, eq(locations.id, surveyLocations.locationId))
        .where(eq(surveyLocations.surveyId, survey.id))
        .orderBy(locations.locationname, locations.id)
        .limit(1);
      const brand = await app.surveySettings.of(clientId);
      const client = await app.clients.find(clientId);
      const clientName = client?.name ?? survey.senderName;
      const values = {
        firstName: SAMPLE_FIRST_NAME,
        locationName: location?.name ?? null,
        personnelName: SAMPLE_PERSONNEL,
        businessName: clientName,
        surveyLink: app.messenger.link(`/s/${SAMPLE_TOKEN}`),
        unsubscribeLink: app.messenger.link(`/u/${SAMPLE_TOKEN}`),
      };

      let email: SurveyPreview['email'] = null;
      let emailMissing: string | null = null;
      if (survey.emailSubject && survey.emailBody) {
        // The From the message goes out with, the platform's address where the client has none of its own.
        const { sender, replyTo, ...rendered } = invitationEmail(survey, values, brand ?? null);
        const from = app.messenger.fromOf(sender);
        email = { ...rendered, from_name: from.name ?? sender.name, from_address: from.address, reply_to: replyTo };
      } else {
        emailMissing = 'This survey has no email subject or body yet: fill them on Messaging.';
      }

      let sms: SurveyPreview['sms'] = null;
      let smsMissing: string | null = 'This survey has no SMS template: choose one on Messaging.';
      if (survey.smsTemplateId !== null) {
        const [template] = await app.db
          .select({ name: smsTemplates.name, body: smsTemplates.body })
          .from(smsTemplates)
          .where(and(eq(smsTemplates.id, survey.smsTemplateId), or(isNull(smsTemplates.clientId), eq(smsTemplates.clientId, clientId))))
          .limit(1);
        if (template) {
          const text = invitationSms(template.body, values);
          const count = countSms(text);
          sms = { template_name: template.name, text, characters: count.characters, encoding: count.encoding, segments: count.segments };
          smsMissing = null;
        } else {
          smsMissing = 'The survey’s SMS template no longer exists: choose another on Messaging.';
        }
      }

      const landing = surveyPage(
        {
          itemId: 0,
          clientId,
          clientName,
          locationId: location?.id ?? null,
          locationName: location?.name ?? null,
          reviewLinks: location?.reviewLinks ?? {},
          personnelId: null,
          firstName: SAMPLE_FIRST_NAME,
          lastName: null,
          email: null,
          phone: null,
          channel: 'email',
          expiresAt: new Date(Date.now() + survey.linkExpiresDays * DAY_MS),
          status: 'sent',
          surveyId: survey.id,
          surveyName: survey.name,
          surveyType: surveyTypeOf(survey.type),
          questions: survey.questions,
          reviewSites: survey.reviewSites,
          testimonialConsentText: survey.testimonialConsentText,
          logoUrl: brand?.logo_url ?? null,
          brandColor: brand?.brand_color ?? null,
          responseId: null,
          // A preview is no invitation: nothing can be answered from it.
          test: true,
          reviewThreshold: survey.reviewInviteMode === 'threshold' ? survey.reviewInviteThreshold : null,
          keyScore: null,
        },
        `/s/${SAMPLE_TOKEN}`,
        { answers: {}, problems: {}, consent: false },
      );
      return {
        data: {
          sample: { first_name: SAMPLE_FIRST_NAME, location_name: values.locationName ?? 'Your location', link: values.surveyLink },
          email,
          email_missing: emailMissing,
          sms,
          sms_missing: smsMissing,
          landing_html: landing,
        },
      };
    },
  );
};
