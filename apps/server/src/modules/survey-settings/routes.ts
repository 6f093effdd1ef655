import {
  checkSurveySettings,
  dataEnvelope,
  domainCheckSchema,
  idParamSchema,
  NOTIFICATION_STATUSES,
  optionsAnswerSchema,
  optionsQuerySchema,
  type SurveySettings,
  type SurveySettingsBody,
  surveySettingsResetSchema,
  surveySettingsResource,
  surveyTestEmailPreviewSchema,
  surveyTestEmailSchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { clientSurveySettings } from '../../db/schema/index.ts';
import { listRoutes } from '../../kit/list-routes.ts';
import { assertFresh, versionRequired } from '../../kit/status.ts';
import { validateFields } from '../../kit/validate-body.ts';
import { conflict, fieldsRefused, notFound } from '../../lib/http-error.ts';
import { settingsTestEmail } from '../../messaging/invitation.ts';
import { SAMPLE_TOKEN } from '../../public/sample-link.ts';
import { checkDomain, type DnsResolver, recordsFor, systemResolver } from './domain-check.ts';
import { countPage, findOne, isActiveSurveyOf, listPage, recordOf, surveyOptions, toRecord, valuesOf } from './repository.ts';

const def = surveySettingsResource;
const one = dataEnvelope(def.record);
const s = clientSurveySettings;
/** A test e-mail's NotificationLog row (Tracking Logs shows it) and how its send ended. */
const testEmailAnswer = z.object({ id: z.number().int(), status: z.enum(NOTIFICATION_STATUSES), error: z.string().nullable() });

export type SurveySettingsRouteOptions = { resolver?: DnsResolver | undefined };

/** The fields of a record as a body, for checking the record as a save would leave it. */
function bodyOf(r: SurveySettings): SurveySettingsBody {
  return Object.fromEntries(def.fieldNames.map((name) => [name, Object.entries(r).find(([k]) => k === name)?.[1] ?? null]));
}

/**
 * The version stamp check of a row that may not exist yet: '' is "never saved" as loaded, so a
 * first save that another one beat, or a save of settings reset since they were loaded, is refused.
 * Like every edit's, the stamp is required (kit/status.ts `assertFresh`).
 */
function assertSameVersion(current: Date | null, seen: string | undefined): void {
  if (seen === undefined) throw versionRequired();
  if (current === null && seen === '') return;
  if (current === null || seen === '') {
    throw conflict('These survey settings were changed by someone else since you opened them. Reload them and try again.', {
      updated_at: ['The record has changed since it was loaded'],
    });
  }
  assertFresh(current, seen, 'These survey settings');
}

/**
 * Survey Admin (docs/screens.md): one row per client, its saved settings or the platform
 * defaults. The definition (packages/shared resources/survey-settings.ts) gives the schemas,
 * columns and rules; the routes are this module's own rather than the kit's `resourceRoutes`,
 * whose records are rows of one table that a create makes: here the list is of clients, the
 * first save writes the row (an upsert) and a reset deletes it.
 */
export const surveySettingsRoutes: FastifyPluginAsyncZod<SurveySettingsRouteOptions> = async (app, options) => {
  const resolver = options.resolver ?? systemResolver();

  async function load(db: Db, id: number, lock = false) {
    const found = await findOne(db, id, lock);
    if (!found) throw notFound('Client');
    return found;
  }

  listRoutes(app, def, {
    page: (_request, q, limit) => listPage(app.db, q, limit),
    count: (_request, q) => countPage(app.db, q),
  });

  app.get(`${def.path}/:id`, { schema: { params: idParamSchema, response: { 200: one } } }, async (request) => {
    const found = await load(app.db, request.params.id);
    return { data: recordOf(found) };
  });

  app.patch(`${def.path}/:id`, { schema: { params: idParamSchema, body: def.updateSchema, response: { 200: one } } }, async (request) => {
    const { updated_at: seen, ...changes } = request.body;
    const saved = await app.db.transaction(async (tx) => {
      const found = await load(tx, request.params.id, true);
      assertSameVersion(found.row?.updatedAt ?? null, seen);
      const before = recordOf(found);
      // The record as the save leaves it is checked whole: a first save writes every field.
      const merged = { ...bodyOf(before), ...changes };
      await validateFields(merged, def.rules, { names: def.labels });
      const problems = checkSurveySettings(merged);
      const surveyId = changes.default_survey_id;
      if (
        typeof surveyId === 'number' &&
        surveyId !== before.default_survey_id &&
        !(await isActiveSurveyOf(tx, found.client.id, surveyId))
      ) {
        problems.default_survey_id = [
          `The ${def.labels.default_survey_id} must be one of ${found.client.name}'s surveys that is not archived`,
        ];
      }
      if (Object.keys(problems).length > 0) throw fieldsRefused(problems, def.labels);
      const values = valuesOf(found.row ? changes : merged);
      const domainChanged = values.sendingDomain !== undefined && values.sendingDomain !== (found.row?.sendingDomain ?? null);
      const stamp = { ...(domainChanged ? { domainVerified: false, domainCheckedAt: null } : {}), updatedAt: sql`now()` };
      if (found.row) {
        await tx
          .update(s)
          .set({ ...values, ...stamp })
          .where(eq(s.clientId, found.client.id));
      } else {
        const { fromName, fromEmail, ...rest } = values;
        if (fromName === undefined || fromEmail === undefined) throw new Error('validated fields missing');
        await tx.insert(s).values({ clientId: found.client.id, fromName, fromEmail, ...rest });
      }
      const after = await load(tx, found.client.id);
      const record = recordOf(after);
      await request.audit(
        {
          action: 'survey_settings.update',
          message: `Updated survey settings of ${found.client.name}`,
          clientId: found.client.id,
          entityType: 'survey_settings',
          entityId: found.client.id,
          before,
          after: record,
        },
        tx,
      );
      return record;
    });
    return { data: saved };
  });

  app.post(
    `${def.path}/:id/reset`,
    { schema: { params: idParamSchema, body: surveySettingsResetSchema, response: { 200: one } } },
    async (request) => {
      const reset = await app.db.transaction(async (tx) => {
        const found = await load(tx, request.params.id, true);
        assertSameVersion(found.row?.updatedAt ?? null, request.body.updated_at);
        const before = recordOf(found);
        await tx.delete(s).where(eq(s.clientId, found.client.id));
        const record = toRecord(found.client, null);
        await request.audit(
          {
            action: 'survey_settings.reset',
            message: `Reset survey settings of ${found.client.name} to the platform defaults`,
            clientId: found.client.id,
            entityType: 'survey_settings',
            entityId: found.client.id,
            before,
            after: record,
          },
          tx,
        );
        return record;
      });
      return { data: reset };
    },
  );

  // The Default survey select's options: the client's surveys, paged on the server.
  app.get(
    `${def.path}/:id/survey-options`,
    { schema: { params: idParamSchema, querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
    async (request) => surveyOptions(app.db, (await load(app.db, request.params.id)).client.id, request.query),
  );

  /** The DNS records to add for the saved sending domain, each with whether DNS holds it now; the result is kept. */
  app.post(
    `${def.path}/:id/verify-domain`,
    { schema: { params: idParamSchema, response: { 200: dataEnvelope(domainCheckSchema) } } },
    async (request) => {
      const found = await load(app.db, request.params.id);
      const domain = found.row?.sendingDomain;
      if (!found.row || !domain) {
        throw fieldsRefused({ sending_domain: [`Save a ${def.labels.sending_domain} in Edit settings first`] }, def.labels);
      }
      const { records, verified } = await checkDomain(resolver, domain);
      const checkedAt = new Date();
      await app.db.update(s).set({ domainVerified: verified, domainCheckedAt: checkedAt }).where(eq(s.clientId, found.client.id));
      await request.audit({
        action: 'survey_settings.verify_domain',
        message: `Checked the DNS records of ${domain} for ${found.client.name}: ${verified ? 'verified' : `${records.filter((r) => !r.found).length} missing`}`,
        clientId: found.client.id,
        entityType: 'survey_settings',
        entityId: found.client.id,
        after: { domain, verified },
      });
      const after = await load(app.db, found.client.id);
      return { data: { domain, verified, checked_at: checkedAt.toISOString(), records, settings: recordOf(after) } };
    },
  );

  /** The records a domain needs, without a lookup (the panel shows them before the first check). */
  app.get(
    `${def.path}/:id/domain-records`,
    {
      schema: {
        params: idParamSchema,
        response: {
          200: dataEnvelope(z.object({ domain: z.string().nullable(), records: z.array(domainCheckSchema.shape.records.element) })),
        },
      },
    },
    async (request) => {
      const found = await load(app.db, request.params.id);
      const domain = found.row?.sendingDomain ?? null;
      return { data: { domain, records: domain ? recordsFor(domain) : [] } };
    },
  );

  /** The client's test e-mail as it is sent now: its sender, look and footer (messaging/invitation.ts). */
  async function testEmailOf(clientId: number) {
    const found = await load(app.db, clientId);
    return { found, email: settingsTestEmail(recordOf(found), app.messenger.link(`/u/${SAMPLE_TOKEN}`)) };
  }

  /**
   * Send test email's dialog shows this before sending: the From the transport will be given (the
   * platform's address unless the client's own domain is verified), reply-to, subject and HTML.
   */
  app.get(
    `${def.path}/:id/test-email`,
    { schema: { params: idParamSchema, response: { 200: dataEnvelope(surveyTestEmailPreviewSchema) } } },
    async (request) => {
      const { email } = await testEmailOf(request.params.id);
      const from = app.messenger.fromOf(email.sender);
      return {
        data: {
          from: from.name ? `${from.name} <${from.address}>` : from.address,
          reply_to: email.replyTo,
          subject: email.subject,
          html: email.html,
        },
      };
    },
  );

  /**
   * A test e-mail with the client's sender identity, look and footer, through the one sender
   * (apps/server/src/messaging): it lands where every message lands (outbox, SMTP) as a
   * NotificationLog row of the client.
   */
  app.post(
    `${def.path}/:id/test-email`,
    { schema: { params: idParamSchema, body: surveyTestEmailSchema, response: { 201: dataEnvelope(testEmailAnswer) } } },
    async (request, reply) => {
      const { found, email } = await testEmailOf(request.params.id);
      const result = await app.messenger.send({
        channel: 'email',
        type: 'system',
        to: request.body.to,
        clientId: found.client.id,
        related: { type: 'survey_settings', id: found.client.id },
        ...email,
      });
      await request.audit({
        action: 'survey_settings.test_email',
        message: `Sent a test e-mail of ${found.client.name}'s survey settings: ${result.status}`,
        clientId: found.client.id,
        entityType: 'notification_log',
        entityId: result.id,
      });
      return reply.code(201).send({ data: { id: result.id, status: result.status, error: result.error } });
    },
  );
};
