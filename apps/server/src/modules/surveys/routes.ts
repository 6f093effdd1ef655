import { randomBytes } from 'node:crypto';
import {
  channelUsesEmail,
  dataEnvelope,
  idParamSchema,
  SAMPLE_FIRST_NAME,
  SURVEY_DUPLICATE_LABELS,
  SURVEY_TEST_LABELS,
  surveyDuplicateSchema,
  surveyOptionsAnswerSchema,
  surveyResource,
  surveySchema,
  surveyTestResultSchema,
  surveyTestSchema,
} from '@admin/shared';
import { countSms, type SurveyPreview, surveyPreviewSchema } from '@admin/shared/surveys/preview';
import { SURVEY_TYPES, type SurveyType } from '@admin/shared/surveys/questions';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { locations, smsTemplates, surveyLocations, surveyProcessingItems, surveys } from '../../db/schema/index.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { auditDuplicate, copyName } from '../../kit/duplicate.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { fieldsRefused, notFound } from '../../lib/http-error.ts';
import { invitationEmail, invitationSms } from '../../messaging/invitation.ts';
import type { SendResult } from '../../messaging/send.ts';
import { itemStatusOf } from '../../pipeline/item-status.ts';
import { SAMPLE_TOKEN } from '../../public/sample-link.ts';
import { surveyPage } from '../../public/survey-page.ts';
import { logSurveyChanges } from './change-log.ts';
import { loadSurvey, type SurveyRow, setLocations, surveyStore } from './repository.ts';

/** The sample personnel name of a test invitation. */
const SAMPLE_PERSONNEL = 'Jordan';
const DAY_MS = 24 * 60 * 60 * 1000;
const surveyTypeOf = (value: string): SurveyType => SURVEY_TYPES.find((t) => t === value) ?? 'custom';

/** A link token: 256 random bits, URL-safe (docs/decisions/023-survey-questions-as-jsonb.md). */
export const newSurveyToken = () => randomBytes(32).toString('base64url');

/**
 * Surveys (collection `/api/surveys`): the kit's routes for the definition, the spec's
 * `GET /api/admin/surveys` (the current client's surveys as filter options), Duplicate (to the same
 * or another client) and Send test (a real invitation, source `manual_test`, through the messenger).
 */
export const surveyRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(resourceRoutes(surveyResource, surveyStore));

  /** A survey of any client (the list shows the clients chosen in its filter), or 404; what it does acts on its own client. */
  async function findSurvey(id: number) {
    const [survey] = await app.db.select().from(surveys).where(eq(surveys.id, id)).limit(1);
    if (!survey) throw notFound('Survey');
    return survey;
  }

  /**
   * The client's Survey Admin settings an invitation e-mail is built from (sender, footer, logo,
   * colour; the platform defaults under the client's name when it saved none).
   */
  async function settingsOf(survey: SurveyRow) {
    const settings = await app.surveySettings.of(survey.clientId);
    if (!settings) throw notFound('Client');
    return settings;
  }

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
      const source = await findSurvey(request.params.id);
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

  // Send test: a real invitation (a processing item with its own link token) rendered with sample
  // values and sent through the messenger's checks and transport; the public page opens its link.
  app.post(
    `${surveyResource.path}/:id/send-test`,
    {
      config: { labels: SURVEY_TEST_LABELS },
      schema: { params: idParamSchema, body: surveyTestSchema, response: { 201: dataEnvelope(surveyTestResultSchema) } },
    },
    async (request, reply) => {
      const survey = await findSurvey(request.params.id);
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

  // Preview: the invitation e-mail and SMS as they would be sent, and the public survey page as
  // `/s/{token}` renders it (the same function), all with sample values; nothing is recorded.
  app.get(
    `${surveyResource.path}/:id/preview`,
    { schema: { params: idParamSchema, response: { 200: dataEnvelope(surveyPreviewSchema) } } },
    async (request) => {
      const survey = await findSurvey(request.params.id);
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
          email: null,
          phone: null,
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
