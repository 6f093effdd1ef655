import {
  dataEnvelope,
  dismissSchema,
  E164_PHONE,
  idParamSchema,
  resendToSchema,
  surveyAlertEventResource,
  surveyAlertEventSchema,
} from '@admin/shared';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { surveyAlertEvents, surveyAlertRules, surveyResponses } from '../../db/schema/index.ts';
import { allOf } from '../../kit/keyset.ts';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { conflict, fieldsRefused, HttpError, notFound } from '../../lib/http-error.ts';
import { dismissEvent, RESENDABLE, resendEvents } from './actions.ts';
import {
  clientOptions,
  countEvents,
  type Filters,
  filtersWhere,
  findEvent,
  listPage,
  locationOptions,
  surveyOptions,
} from './repository.ts';

const def = surveyAlertEventResource;
/** A bulk Resend's target: chosen events, or every one the list's filter finds (as Survey Processing's Retry failed). */
const bulkTargetSchema = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1).max(1000).optional(),
  filter: z.record(z.string(), z.unknown()).optional(),
});
const bulkResendSchema = bulkTargetSchema.extend({ confirmed: z.number().int().min(0).optional() });
const previewSchema = z.object({ count: z.number().int(), scope: z.string() });
const labels = { to: 'Send to', note: 'Note', ids: 'Unsent alerts', filter: 'Filter' };
const config = { labels };
const answer = { 200: dataEnvelope(surveyAlertEventSchema) };
const plural = (n: number) => `${n.toLocaleString('en-US')} unsent alert${n === 1 ? '' : 's'}`;

/** The events a bulk body names (chosen ids, or the list's filter), among those Resend takes. */
async function targetIds(
  db: Parameters<typeof findEvent>[0],
  body: { ids?: number[] | undefined; filter?: Record<string, unknown> | undefined },
) {
  if ((body.ids === undefined) === (body.filter === undefined))
    throw fieldsRefused({ ids: ['Choose unsent alerts, or resend every one of the filter'] }, labels);
  let which: SQL | undefined;
  if (body.ids) which = inArray(surveyAlertEvents.id, body.ids);
  else {
    const parsed = def.listQuerySchema.safeParse(body.filter);
    if (!parsed.success) throw fieldsRefused({ filter: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }, labels);
    const { sort: _s, order: _o, perPage: _p, cursor: _c, ...filters } = parsed.data;
    which = filtersWhere(filters as Filters);
  }
  const rows = await db
    .select({ id: surveyAlertEvents.id, client: sql<string>`(select name from clients c where c.id = ${surveyAlertEvents.clientId})` })
    .from(surveyAlertEvents)
    .innerJoin(surveyAlertRules, sql`${surveyAlertRules.id} = ${surveyAlertEvents.ruleId}`)
    .leftJoin(surveyResponses, sql`${surveyResponses.id} = ${surveyAlertEvents.responseId}`)
    .where(allOf([which, inArray(surveyAlertEvents.state, [...RESENDABLE]), sql`not ${surveyAlertEvents.test}`]))
    .limit(5001);
  const clients = [...new Set(rows.map((r) => r.client))];
  const scope =
    clients.length === 0
      ? 'no client'
      : clients.length <= 3
        ? clients.join(', ')
        : `${clients.slice(0, 3).join(', ')} and ${clients.length - 3} more`;
  return { ids: rows.map((r) => r.id), scope };
}

/**
 * Survey Alerts Unsent events (domain.md §6): the kit's read-only list, export and filter options
 * over the events that did not reach their recipient, and the screen's actions — Resend (one, or
 * bulk after a preview that names count and scope), Resend to…, Dismiss with a note — each audited.
 */
export const surveyAlertEventRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(def, {
      list: listPage,
      count: countEvents,
      exportAudit: { action: 'survey_alert_events.export', message: 'Exported survey alerts unsent events as CSV' },
      options: { client: clientOptions, location: locationOptions, survey: surveyOptions },
      detail: { schema: surveyAlertEventSchema, params: z.object({ id: idParamSchema.shape.id }), find: findEvent, what: 'Unsent alert' },
    }),
  );

  const one = async (id: number) => {
    const event = await findEvent(app.db, id);
    if (!event) throw notFound('Unsent alert');
    return event;
  };

  app.post(`${def.path}/:id/resend`, { config, schema: { params: idParamSchema, response: answer } }, async (request) => {
    const event = await one(Number(request.params.id));
    if (!(RESENDABLE as readonly string[]).includes(event.state))
      throw conflict(`Only an unsent or retrying alert can be resent; this one is ${event.state}.`);
    const sent = await resendEvents(app.db, app.messenger, [event.id], app.clock.now());
    await request.audit({
      action: 'survey_alert_events.resend',
      message: `Resent alert ${event.id} of rule ${event.rule_name}: ${sent > 0 ? 'delivered' : 'not delivered'}`,
      clientId: event.client_id,
      entityType: 'survey_alert_event',
      entityId: event.id,
    });
    return { data: await one(event.id) };
  });

  app.post(
    `${def.path}/:id/resend-to`,
    { config, schema: { params: idParamSchema, body: resendToSchema, response: answer } },
    async (request) => {
      const event = await one(Number(request.params.id));
      const to = request.body.to;
      const valid = event.channel === 'email' ? z.email().safeParse(to).success : E164_PHONE.test(to);
      if (!valid)
        throw new HttpError(422, 'Please correct: Send to.', {
          to: [
            event.channel === 'email'
              ? 'The Send to field must be a valid email'
              : 'The Send to field must be a phone in E.164 form (+15555550142)',
          ],
        });
      if (!(RESENDABLE as readonly string[]).includes(event.state))
        throw conflict(`Only an unsent or retrying alert can be resent; this one is ${event.state}.`);
      const sent = await resendEvents(
        app.db,
        app.messenger,
        [event.id],
        app.clock.now(),
        event.channel === 'email' ? to.toLowerCase() : to,
      );
      await request.audit({
        action: 'survey_alert_events.resend_to',
        message: `Resent alert ${event.id} of rule ${event.rule_name} to ${to}: ${sent > 0 ? 'delivered' : 'not delivered'}`,
        clientId: event.client_id,
        entityType: 'survey_alert_event',
        entityId: event.id,
        after: { to },
      });
      return { data: await one(event.id) };
    },
  );

  app.post(
    `${def.path}/:id/dismiss`,
    { config, schema: { params: idParamSchema, body: dismissSchema, response: answer } },
    async (request) => {
      const event = await one(Number(request.params.id));
      if (!(await dismissEvent(app.db, event.id, request.body.note, request.auth?.user.id ?? null, app.clock.now())))
        throw conflict(`Only an unsent or retrying alert can be dismissed; this one is ${event.state}.`);
      await request.audit({
        action: 'survey_alert_events.dismiss',
        message: `Dismissed alert ${event.id} of rule ${event.rule_name}: ${request.body.note}`,
        clientId: event.client_id,
        entityType: 'survey_alert_event',
        entityId: event.id,
        after: { note: request.body.note },
      });
      return { data: await one(event.id) };
    },
  );

  app.post(
    `${def.path}/resend/preview`,
    { config, schema: { body: bulkTargetSchema, response: { 200: dataEnvelope(previewSchema) } } },
    async (request) => {
      const { ids, scope } = await targetIds(app.db, request.body);
      return { data: { count: ids.length, scope } };
    },
  );

  app.post(
    `${def.path}/resend`,
    {
      config,
      schema: {
        body: bulkResendSchema,
        response: { 200: dataEnvelope(z.object({ changed: z.number().int(), delivered: z.number().int() })) },
      },
    },
    async (request) => {
      const { confirmed, ...target } = request.body;
      const { ids, scope } = await targetIds(app.db, target);
      if (confirmed !== undefined && ids.length !== confirmed)
        throw conflict(
          `The filter now finds ${plural(ids.length)} in ${scope}, not ${confirmed}: nothing was resent. Look again and confirm.`,
        );
      if (ids.length > 5000) throw conflict('More than 5,000 unsent alerts: narrow the filter first.');
      const sent = await resendEvents(app.db, app.messenger, ids, app.clock.now());
      await request.audit({
        action: 'survey_alert_events.resend_bulk',
        message: `Resent ${plural(ids.length)} in ${scope}: ${sent} delivered`,
        entityType: 'survey_alert_event',
        after: { ids: ids.slice(0, 1000), ...(target.filter ? { filter: target.filter } : {}) },
      });
      return { data: { changed: ids.length, delivered: sent } };
    },
  );
};
