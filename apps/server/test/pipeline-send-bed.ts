import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import {
  clientSurveySettings,
  clients,
  locations,
  notificationLogs,
  smsTemplates,
  surveyProcessingItems,
  surveys,
} from '../src/db/schema/index.ts';
import { admitRows } from '../src/pipeline/admit.ts';
import type { MovableClock } from '../src/pipeline/clock.ts';
import type { NormalRow } from '../src/pipeline/types.ts';
import { type DbKind, normalRow, openTestDatabase } from './helpers.ts';

/** Monday 2 March 2026, 09:00 in Chicago. */
export const START = new Date('2026-03-02T15:00:00Z');
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A client sending every day, one location, an SMS template and three surveys: e-mail, e-mail → SMS, e-mail reminded twice. */
export type SendWorld = {
  database: Database;
  app: FastifyInstance;
  clientId: number;
  emailSurvey: number;
  fallbackSurvey: number;
  twiceSurvey: number;
};

/** The send engine's world, with the app on `clock` (its jobs drained with `app.jobs.runDue()`). */
export async function openSendWorld(kind: DbKind, clock: MovableClock): Promise<SendWorld> {
  const database = await openTestDatabase(kind);
  const app = await buildApp(testConfig(), { database, clock });
  await app.ready();
  const db = database.db;
  const [client] = await db.insert(clients).values({ name: 'Send Co', timezone: 'America/Chicago' }).returning({ id: clients.id });
  const clientId = client?.id ?? 0;
  await db.insert(clientSurveySettings).values({
    clientId,
    fromName: 'Send Co',
    fromEmail: 'hello@send.test',
    quietHoursStart: '21:00',
    quietHoursEnd: '08:00',
    sendDays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    dailyCapPerLocation: 1000,
    overSurveyDays: 0,
  });
  await db.insert(locations).values({
    id: 'S-LOC',
    clientId,
    locationname: 'Downtown',
    address1: '1 Main St',
    city: 'Chicago',
    state: 'IL',
    postalCode: '60601',
    phone: '+13125550100',
    timezone: 'America/Chicago',
  });
  const [template] = await db
    .insert(smsTemplates)
    .values({
      clientId,
      name: 'Invite',
      purpose: 'survey_invite',
      language: 'en',
      body: 'Hi {first_name}, rate {business_name}: {link} STOP to opt out',
      encoding: 'GSM-7',
      segments: 1,
      hasOptOut: true,
    })
    .returning({ id: smsTemplates.id });
  const base = {
    clientId,
    type: 'nps',
    language: 'en',
    senderName: 'Send Co',
    emailSubject: 'How was {location_name}?',
    emailBody: 'Hi {first_name}, tell us: {survey_link}',
    smsTemplateId: template?.id ?? null,
    sendDelayHours: 2,
    reminderCount: 1,
    reminderIntervalDays: 3,
    linkExpiresDays: 10,
  };
  const made = await db
    .insert(surveys)
    .values([
      { ...base, name: 'Email', channel: 'email' },
      { ...base, name: 'Fallback', channel: 'email_then_sms' },
      { ...base, name: 'Twice', channel: 'email', reminderCount: 2, reminderIntervalDays: 2 },
    ])
    .returning({ id: surveys.id });
  const [emailSurvey, fallbackSurvey, twiceSurvey] = made.map((s) => s.id) as [number, number, number];
  return { database, app, clientId, emailSurvey, fallbackSurvey, twiceSurvey };
}

/** Rows admitted into the world on the clock's time, and what became of them. */
export function sendTools(world: () => SendWorld, clock: MovableClock, kind: DbKind) {
  let n = 0;
  const row = (overrides: Partial<NormalRow> = {}): NormalRow => {
    n++;
    return normalRow({
      rowNumber: n,
      email: `send${n}-${kind}@x.test`,
      transactionId: `S-${n}`,
      transactionDate: '2026-03-01',
      locationId: 'S-LOC',
      ...overrides,
    });
  };
  const admit = async (rows: NormalRow[], surveyId = world().emailSurvey) => {
    const outcomes = await admitRows(
      world().database.db,
      { clientId: world().clientId, surveyId, dataFeedId: null, runId: null, source: 'api' },
      rows,
      clock.now(),
    );
    return outcomes.map((o) => o.itemId);
  };
  const itemOf = async (id: number | undefined) => {
    const [item] = await world()
      .database.db.select()
      .from(surveyProcessingItems)
      .where(eq(surveyProcessingItems.id, id ?? 0));
    if (!item) throw new Error(`no item ${id}`);
    return item;
  };
  const messagesOf = (id: number | undefined) =>
    world()
      .database.db.select()
      .from(notificationLogs)
      .where(and(eq(notificationLogs.relatedType, 'survey_processing_item'), eq(notificationLogs.relatedId, String(id))))
      .orderBy(notificationLogs.id);
  return { row, admit, itemOf, messagesOf };
}
