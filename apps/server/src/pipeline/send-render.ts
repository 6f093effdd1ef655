import type { SurveySettings } from '@admin/shared';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clients, locations, personnel, smsTemplates, type surveyProcessingItems, surveys } from '../db/schema/index.ts';
import { invitationEmail, invitationSms } from '../messaging/invitation.ts';
import type { Messenger, OutboundMessage } from '../messaging/send.ts';
import type { SurveySettingsAccess } from './types.ts';

/**
 * What the send engine (pipeline/send.ts) makes of claimed invitations before it sends them: what
 * each one names, read once per batch, whether it may still go out, and its message.
 */

/** An invitation as the engine claimed it (a processing item's row). */
export type Claimed = typeof surveyProcessingItems.$inferSelect;

/** What rendering an item needs besides the item: its survey, SMS template, location, personnel and client. */
export async function detailsOf(db: Db, surveySettings: SurveySettingsAccess, items: Claimed[]) {
  const ids = (values: (number | string | null)[]) => [...new Set(values.filter((v) => v !== null))];
  const surveyIds = ids(items.map((i) => i.surveyId)) as number[];
  const locationIds = ids(items.map((i) => i.locationId)) as string[];
  const personnelIds = ids(items.map((i) => i.personnelId)) as number[];
  const clientIds = ids(items.map((i) => i.clientId)) as number[];
  // One after another: the engine may run inside a transaction (the demo seed), whose one
  // connection must not be sent a query while another is running.
  const surveyRows = await db.select().from(surveys).where(inArray(surveys.id, surveyIds));
  const locationRows = locationIds.length
    ? await db
        .select({ id: locations.id, name: locations.locationname, status: locations.status })
        .from(locations)
        .where(inArray(locations.id, locationIds))
    : [];
  const personnelRows = personnelIds.length
    ? await db
        .select({ id: personnel.id, first: personnel.firstName, last: personnel.lastName })
        .from(personnel)
        .where(inArray(personnel.id, personnelIds))
    : [];
  const clientRows = await db
    .select({ id: clients.id, name: clients.name, status: clients.status })
    .from(clients)
    .where(inArray(clients.id, clientIds));
  const templateIds = ids(surveyRows.map((s) => s.smsTemplateId)) as number[];
  const templates = templateIds.length
    ? await db
        .select({ id: smsTemplates.id, clientId: smsTemplates.clientId, name: smsTemplates.name, body: smsTemplates.body })
        .from(smsTemplates)
        .where(inArray(smsTemplates.id, templateIds))
    : [];
  const settings = new Map<number, SurveySettings>();
  for (const clientId of clientIds) {
    const found = await surveySettings.of(clientId);
    if (found) settings.set(clientId, found);
  }
  return {
    surveys: new Map(surveyRows.map((s) => [s.id, s])),
    locations: new Map(locationRows.map((l) => [l.id, l.name])),
    personnel: new Map(personnelRows.map((p) => [p.id, [p.first, p.last].filter(Boolean).join(' ')])),
    clients: new Map(clientRows.map((c) => [c.id, c.name])),
    /** Each client's, survey's and location's status now (a pause after admission stops the send). */
    clientStatus: new Map(clientRows.map((c) => [c.id, c.status])),
    locationStatus: new Map(locationRows.map((l) => [l.id, l.status])),
    templates: new Map(templates.map((t) => [t.id, t])),
    settings,
  };
}

/** What `detailsOf` read for one batch. */
export type Details = Awaited<ReturnType<typeof detailsOf>>;

/**
 * Why an item must not go out now although it was admitted: its client, survey or location was
 * paused or archived since (rule 1 again, at send time); null when all are active.
 */
export function pausedOf(item: Claimed, d: Details): string | null {
  const client = d.clientStatus.get(item.clientId);
  if (client !== undefined && client !== 'active') return `The client is ${client}`;
  const survey = d.surveys.get(item.surveyId)?.status;
  if (survey !== undefined && survey !== 'active') return `The survey is ${survey}`;
  const location = item.locationId ? d.locationStatus.get(item.locationId) : undefined;
  if (location !== undefined && location !== 'active') return `The location is ${location}`;
  return null;
}

/** The message of one item by one channel, or why it cannot be made. */
export function messageOf(
  item: Claimed,
  channel: 'email' | 'sms',
  kind: 'survey_invite' | 'survey_reminder',
  d: Details,
  messenger: Messenger,
): OutboundMessage | string {
  const survey = d.surveys.get(item.surveyId);
  if (!survey) return 'The survey no longer exists';
  const values = {
    firstName: item.firstName,
    locationName: item.locationId ? (d.locations.get(item.locationId) ?? null) : null,
    personnelName: item.personnelId ? (d.personnel.get(item.personnelId) ?? null) : null,
    businessName: d.clients.get(item.clientId) ?? survey.senderName,
    surveyLink: messenger.link(`/s/${item.token}`),
    unsubscribeLink: messenger.link(`/u/${item.token}`),
  };
  const common = {
    type: kind,
    clientId: item.clientId,
    locationId: item.locationId,
    related: { type: 'survey_processing_item', id: item.id },
  };
  if (channel === 'sms') {
    if (!item.phone) return 'No phone to text';
    const template = survey.smsTemplateId === null ? undefined : d.templates.get(survey.smsTemplateId);
    if (!template || (template.clientId !== null && template.clientId !== item.clientId)) return 'The survey has no SMS template';
    const name = kind === 'survey_reminder' ? `${template.name} (reminder)` : template.name;
    return { ...common, channel: 'sms', to: item.phone, template: name, text: invitationSms(template.body, values) };
  }
  if (!item.email) return 'No e-mail address';
  if (!survey.emailSubject || !survey.emailBody) return 'The survey has no e-mail subject or body';
  // The client's Survey Admin settings give the sender, footer, logo and colour (the defaults when it saved none).
  const rendered = invitationEmail(survey, values, d.settings.get(item.clientId) ?? null);
  return {
    ...common,
    channel: 'email',
    to: item.email,
    ...rendered,
    subject: kind === 'survey_reminder' ? `Reminder: ${rendered.subject}` : rendered.subject,
  };
}
