import { checkSmsTemplateBody, checkSurvey, type SurveyBody, smsTemplateResource, surveyResource } from '@admin/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailSuppressions, notificationEvents, notificationLogs, smsTemplates, surveys } from '../db/schema/index.ts';
import { validateFields } from '../kit/validate-body.ts';
import { HttpError } from '../lib/http-error.ts';
import { smsTemplateStore } from '../modules/sms-templates/repository.ts';
import { setLocations, surveyStore } from '../modules/surveys/repository.ts';
import { type GLOBAL_SMS_TEMPLATES, SMS_INVITE } from './survey-definitions.ts';

/**
 * A client's SMS template made the way `POST /api/sms-templates` makes one: the definition's rules,
 * the compliance check and the store's values (the computed encoding, segments and opt-out flag).
 */
export async function createSmsTemplate(
  db: Db,
  clientId: number | null,
  template: (typeof GLOBAL_SMS_TEMPLATES)[number] | typeof SMS_INVITE = SMS_INVITE,
): Promise<typeof smsTemplates.$inferSelect> {
  const body = smsTemplateResource.createSchema.parse(template);
  await validateFields(body, smsTemplateResource.rules, { names: smsTemplateResource.labels });
  const { errors } = checkSmsTemplateBody(body.purpose, body.body ?? '');
  if (errors.length > 0) throw new HttpError(422, `Demo SMS template: ${errors.join('; ')}`, { body: errors });
  const [row] = await db
    .insert(smsTemplates)
    .values({ ...(smsTemplateStore.values(body, { clientId }) as typeof smsTemplates.$inferInsert), clientId })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/**
 * A hard bounce as Amazon SES reports it (Permanent, a few minutes after the send), recorded at
 * once because the seed's later stories send to the address again: the message `bounced` in
 * Tracking Logs with the provider's words, and the address on the suppression list, which the
 * messenger checks before every send.
 */
export async function hardBounce(db: Db, notificationId: number, address: string, at: Date): Promise<void> {
  const detail = 'Bounce (Permanent, General): smtp; 550 5.1.1 user unknown';
  await db.update(notificationLogs).set({ status: 'bounced', error: detail, updatedAt: at }).where(eq(notificationLogs.id, notificationId));
  await db.insert(notificationEvents).values({ notificationId, status: 'bounced', at, detail });
  // Seen and suppressed when it bounced, with the bounce's words; the counts come from the SES
  // event the demo's deliverability step adds for this message (seed/deliverability.ts).
  await db.insert(emailSuppressions).values({
    email: address.toLowerCase(),
    reason: 'BOUNCE',
    lastBounceType: 'Permanent',
    lastBounceSubtype: 'General',
    lastDiagnosticCode: 'smtp; 550 5.1.1 user unknown',
    firstSeenAt: at,
    lastSeenAt: at,
    suppressedAt: at,
    createdAt: at,
  });
}

/**
 * A survey made the way `POST /api/surveys` makes one: the body checked by the definition's rules
 * and `checkSurvey`, turned into columns by the store's `values`, its locations by `setLocations`.
 */
export async function createSurvey(db: Db, clientId: number, input: Partial<SurveyBody>): Promise<typeof surveys.$inferSelect> {
  const body = { ...surveyResource.defaults, ...surveyResource.createSchema.parse(input) } as SurveyBody;
  await validateFields(body, surveyResource.rules, { names: surveyResource.labels });
  const errors = checkSurvey(body);
  if (Object.keys(errors).length > 0) throw new HttpError(422, `Demo survey ${body.name}: ${JSON.stringify(errors)}`, errors);
  const [row] = await db
    .insert(surveys)
    .values({ ...(surveyStore.values(body, { clientId }) as typeof surveys.$inferInsert), clientId })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  await setLocations(db, row.id, body.location_ids ?? []);
  return row;
}
