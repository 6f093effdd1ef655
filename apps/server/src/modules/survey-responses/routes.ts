import { dataEnvelope, idParamSchema, locationOptionsQuerySchema, optionsAnswerSchema, optionsQuerySchema } from '@admin/shared';
import {
  RESPONSE_REASSIGN_LABELS,
  resendResultSchema,
  responseExclusionSchema,
  responseLocationSchema,
  responsePersonnelSchema,
  surveyResponseDetailSchema,
  surveyResponseResource,
} from '@admin/shared/resources/survey-responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { everyClient, everyLocation, everyPerson, everySurvey } from '../../kit/options.ts';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { conflict, fieldsRefused, notFound } from '../../lib/http-error.ts';
import { invitationEmail, invitationSms } from '../../messaging/invitation.ts';
import type { SendResult } from '../../messaging/send.ts';
import {
  findItemForResend,
  locationOfClient,
  locationOptionsOf,
  personnelOptionsOf,
  personOfClient,
  reassign,
  recordResend,
  setExcluded,
  smsTemplateOf,
} from './actions.ts';
import { countResponses, findResponse, listPage } from './repository.ts';

const def = surveyResponseResource;
/** The reassign inputs' labels; their routes carry them for the input guard (plugins/input-guard.ts). */
const labels = RESPONSE_REASSIGN_LABELS;
const config = { labels };
const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };
/** Statuses of an invitation that went out and may be sent again (not answered, not refused). */
const RESENDABLE = new Set(['sent', 'delivered', 'opened', 'reminded']);

/**
 * Survey Manager: read-mostly over the responses the public page recorded (apps/server/src/public).
 * The list, export, filter options and detail are the kit's read-only routes (kit/read-only-routes.ts);
 * a response is never created or edited here. The changes are Exclude / Include in reporting (with
 * a reason) and Reassign personnel / location (within the response's client, written on the
 * response and its processing item), each audited; and Resend of an unanswered invitation
 * (`items/:id/resend`, for Survey Processing's screen).
 */
export const surveyResponseRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(def, {
      list: listPage,
      count: countResponses,
      exportAudit: { action: 'survey_responses.export', message: 'Exported survey responses as CSV' },
      // The Personnel filter lists everyone, merged people too (their responses stay theirs until a merge moves them).
      options: { client: everyClient, location: everyLocation, survey: everySurvey, personnel: everyPerson },
      detail: { schema: surveyResponseDetailSchema, find: findResponse, what: 'Response' },
    }),
  );

  app.post(
    `${def.path}/:id/exclusion`,
    { schema: { params: idParamSchema, body: responseExclusionSchema, response: { 200: dataEnvelope(surveyResponseDetailSchema) } } },
    async (request) => {
      const { id } = request.params;
      const before = await findResponse(app.db, id);
      if (!before) throw notFound('Response');
      const { excluded, reason } = request.body;
      await setExcluded(app.db, id, excluded, reason, new Date());
      const after = await findResponse(app.db, id);
      if (!after) throw notFound('Response');
      await request.audit({
        action: excluded ? 'survey_responses.exclude' : 'survey_responses.include',
        message: `${excluded ? 'Excluded' : 'Included'} response ${id} ${excluded ? 'from' : 'in'} reporting: ${reason}`,
        entityType: 'survey_response',
        entityId: String(id),
        clientId: after.client_id,
        before: { excluded: before.excluded, excluded_reason: before.excluded_reason },
        after: { excluded: after.excluded, excluded_reason: after.excluded_reason },
      });
      return { data: after };
    },
  );

  const responseOf = async (id: number) => {
    const found = await findResponse(app.db, id);
    if (!found) throw notFound('Response');
    return found;
  };

  // Option lists of the response's own client, paged on the server as the user types.
  app.get(`${def.path}/:id/options/personnel`, { schema: { params: idParamSchema, ...options } }, async (request) =>
    personnelOptionsOf(app.db, (await responseOf(request.params.id)).client_id, request.query),
  );
  app.get(
    `${def.path}/:id/options/location`,
    { schema: { params: idParamSchema, ...options, querystring: locationOptionsQuerySchema } },
    async (request) => locationOptionsOf(app.db, (await responseOf(request.params.id)).client_id, request.query),
  );

  app.post(
    `${def.path}/:id/personnel`,
    {
      config,
      schema: { params: idParamSchema, body: responsePersonnelSchema, response: { 200: dataEnvelope(surveyResponseDetailSchema) } },
    },
    async (request) => {
      const before = await responseOf(request.params.id);
      const personId = request.body.personnel_id;
      if (!(await personOfClient(app.db, before.client_id, personId)))
        throw fieldsRefused(
          { personnel_id: [`The ${labels.personnel_id} field must be a person of ${before.client_name ?? 'the response’s client'}`] },
          labels,
        );
      await reassign(app.db, { id: before.id, processingItemId: before.processing_item_id }, { personnelId: personId }, new Date());
      const after = await responseOf(before.id);
      await request.audit({
        action: 'survey_responses.reassign_personnel',
        message: `Reassigned response ${before.id} from ${before.personnel_name ?? 'no one'} to ${after.personnel_name ?? personId}`,
        entityType: 'survey_response',
        entityId: String(before.id),
        clientId: before.client_id,
        before: { personnel_id: before.personnel_id, personnel_name: before.personnel_name },
        after: { personnel_id: after.personnel_id, personnel_name: after.personnel_name },
      });
      return { data: after };
    },
  );

  app.post(
    `${def.path}/:id/location`,
    {
      config,
      schema: { params: idParamSchema, body: responseLocationSchema, response: { 200: dataEnvelope(surveyResponseDetailSchema) } },
    },
    async (request) => {
      const before = await responseOf(request.params.id);
      const locationId = request.body.location_id;
      if (!(await locationOfClient(app.db, before.client_id, locationId)))
        throw fieldsRefused(
          { location_id: [`The ${labels.location_id} field must be a location of ${before.client_name ?? 'the response’s client'}`] },
          labels,
        );
      await reassign(app.db, { id: before.id, processingItemId: before.processing_item_id }, { locationId }, new Date());
      const after = await responseOf(before.id);
      await request.audit({
        action: 'survey_responses.reassign_location',
        message: `Moved response ${before.id} from ${before.location_name ?? 'no location'} to ${after.location_name ?? locationId}`,
        entityType: 'survey_response',
        entityId: String(before.id),
        clientId: before.client_id,
        before: { location_id: before.location_id, location_name: before.location_name },
        after: { location_id: after.location_id, location_name: after.location_name },
      });
      return { data: after };
    },
  );

  // Resend the survey link: the same invitation (same token and expiry) again through the
  // messenger, which writes a new NotificationLog row related to the item.
  app.post(
    `${def.path}/items/:id/resend`,
    { schema: { params: idParamSchema, response: { 201: dataEnvelope(resendResultSchema) } } },
    async (request, reply) => {
      const found = await findItemForResend(app.db, request.params.id);
      if (!found) throw notFound('Processing item');
      const { item } = found;
      if (found.answered || item.status === 'responded')
        throw conflict('This invitation was already answered: there is nothing to resend.');
      if (item.expiresAt.getTime() <= Date.now())
        throw conflict(`This invitation’s link expired on ${item.expiresAt.toISOString().slice(0, 10)}: it cannot be resent.`);
      if (!RESENDABLE.has(item.status))
        throw conflict(`This invitation was never sent (status ${item.status}): there is nothing to resend.`);
      const to = item.channel === 'email' ? item.email : item.phone;
      if (!to) throw conflict(`This invitation has no ${item.channel === 'email' ? 'e-mail address' : 'phone'} to resend to.`);

      const values = {
        firstName: item.firstName,
        locationName: found.locationName,
        personnelName: found.personnelName,
        businessName: found.clientName ?? found.senderName,
        surveyLink: app.messenger.link(`/s/${item.token}`),
        unsubscribeLink: app.messenger.link(`/u/${item.token}`),
      };
      const common = {
        type: 'survey_invite' as const,
        to,
        clientId: item.clientId,
        locationId: item.locationId,
        related: { type: 'survey_processing_item', id: item.id },
      };
      let result: SendResult;
      if (item.channel === 'sms') {
        const template = found.smsTemplateId === null ? undefined : await smsTemplateOf(app.db, item.clientId, found.smsTemplateId);
        if (!template) throw conflict('The survey has no SMS template any more: the invitation cannot be rendered again.');
        result = await app.messenger.send({
          ...common,
          channel: 'sms',
          template: template.name,
          text: invitationSms(template.body, values),
        });
      } else {
        if (!found.emailSubject || !found.emailBody)
          throw conflict('The survey has no e-mail subject or body any more: the invitation cannot be rendered again.');
        result = await app.messenger.send({
          ...common,
          channel: 'email',
          // Built again from the survey and its client's Survey Admin settings as they are now.
          ...invitationEmail(found, values, (await app.surveySettings.of(item.clientId)) ?? null),
        });
      }
      await recordResend(app.db, item.id, result.status === 'sent' ? null : result.error, new Date());
      await request.audit({
        action: 'survey_processing_items.resend',
        message: `Resent the invitation of ${found.surveyName} to ${to}: ${result.status}`,
        entityType: 'survey_processing_item',
        entityId: String(item.id),
        clientId: item.clientId,
        after: { notification_id: result.id, status: result.status, error: result.error },
      });
      return reply.code(201).send({
        data: { item_id: item.id, notification_id: result.id, notification_status: result.status, error: result.error },
      });
    },
  );
};
