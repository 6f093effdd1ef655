import type { Database } from '../src/db/client.ts';
import {
  clientSurveySettings,
  clients,
  dataFeeds,
  emailOptOuts,
  emailSuppressions,
  locations,
  smsOptOuts,
  surveyProcessingItems,
  surveyResponses,
  surveys,
} from '../src/db/schema/index.ts';
import type { AdmitContext, NormalRow } from '../src/pipeline/types.ts';
import { type DbKind, openTestDatabase } from './helpers.ts';

/** Monday 2 March 2026, 09:00 in Chicago (CST, UTC−6). */
export const NOW = new Date('2026-03-02T15:00:00Z');
export const DAY = 86_400_000;

/** A client with its rules, locations, surveys and feeds, and contacts the database already holds. */
export type AdmitWorld = {
  database: Database;
  clientId: number;
  otherClientId: number;
  emailSurvey: number;
  smsSurvey: number;
  fallbackSurvey: number;
  pausedSurvey: number;
  activeFeed: number;
  pausedFeed: number;
};

const location = (id: string, client: number, status = 'active') => ({
  id,
  clientId: client,
  locationname: id,
  address1: '1 Main St',
  city: 'Chicago',
  state: 'IL',
  postalCode: '60601',
  phone: '+13125550100',
  timezone: 'America/Chicago',
  status,
});
const survey = (clientId: number, name: string, channel: string, status = 'active') => ({
  clientId,
  name,
  type: 'nps',
  language: 'en',
  channel,
  senderName: 'Acme',
  sendDelayHours: 0,
  linkExpiresDays: 30,
  status,
});

export async function openAdmitWorld(kind: DbKind): Promise<AdmitWorld> {
  const database = await openTestDatabase(kind);
  const db = database.db;
  const [c, o] = await db
    .insert(clients)
    .values([
      { name: 'Admit Co', timezone: 'America/Chicago' },
      { name: 'Other Co', timezone: 'America/Chicago' },
    ])
    .returning({ id: clients.id });
  const clientId = c?.id ?? 0;
  const otherClientId = o?.id ?? 0;
  await db.insert(clientSurveySettings).values({
    clientId,
    fromName: 'Acme',
    fromEmail: 'hello@acme.test',
    quietHoursStart: '21:00',
    quietHoursEnd: '08:00',
    sendDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    dailyCapPerLocation: 2,
    overSurveyDays: 90,
  });
  await db
    .insert(locations)
    .values([
      location('L-OPEN', clientId),
      location('L-PAUSED', clientId, 'paused'),
      location('L-CAP', clientId),
      location('L-AHEAD', clientId),
      location('L-OTHER', otherClientId),
    ]);
  const made = await db
    .insert(surveys)
    .values([
      survey(clientId, 'Email', 'email'),
      survey(clientId, 'SMS', 'sms'),
      survey(clientId, 'Fallback', 'email_then_sms'),
      survey(clientId, 'Paused', 'email', 'paused'),
    ])
    .returning({ id: surveys.id });
  const [emailSurvey, smsSurvey, fallbackSurvey, pausedSurvey] = made.map((s) => s.id) as [number, number, number, number];
  const feeds = await db
    .insert(dataFeeds)
    .values([
      { clientId, name: 'Feed', sourceType: 'csv_upload', triggerEvent: 'invoice_paid', surveyId: emailSurvey },
      {
        clientId,
        name: 'Paused feed',
        sourceType: 'csv_upload',
        triggerEvent: 'invoice_paid',
        surveyId: emailSurvey,
        status: 'paused',
      },
    ])
    .returning({ id: dataFeeds.id });
  const [activeFeed, pausedFeed] = feeds.map((f) => f.id) as [number, number];

  // What the database already holds: a transaction received, contacts sent or answering lately or long ago, opt-outs.
  const past = (email: string, transactionId: string | null, sentDaysAgo: number) => ({
    clientId,
    locationId: 'L-OPEN',
    surveyId: emailSurvey,
    firstName: 'Past',
    email,
    transactionId,
    channel: 'email' as const,
    status: 'sent' as const,
    sentAt: new Date(NOW.getTime() - sentDaysAgo * DAY),
    token: `past-${email}`,
    expiresAt: new Date(NOW.getTime() + DAY),
    source: 'csv_upload' as const,
  });
  const items = await db
    .insert(surveyProcessingItems)
    .values([
      past('old-tx@x.test', 'T-OLD', 400),
      past('recent@x.test', null, 10),
      past('long-ago@x.test', null, 100),
      past('answered@x.test', null, 200),
      // A staff member's Send test, answered: a test, not a survey of this contact.
      { ...past('tested@x.test', null, 10), source: 'manual_test' as const },
    ])
    .returning({ id: surveyProcessingItems.id, email: surveyProcessingItems.email });
  const answer = (email: string, test: boolean) => ({
    processingItemId: items.find((i) => i.email === email)?.id ?? 0,
    surveyId: emailSurvey,
    clientId,
    answers: {},
    questions: [],
    test,
    submittedAt: new Date(NOW.getTime() - 5 * DAY),
  });
  await db.insert(surveyResponses).values([answer('answered@x.test', false), answer('tested@x.test', true)]);
  await db.insert(emailOptOuts).values([
    { email: 'out@x.test', clientId, source: 'unsubscribe' },
    { email: 'out-elsewhere@x.test', clientId: otherClientId, source: 'unsubscribe' },
  ]);
  await db.insert(smsOptOuts).values({ phone: '+13125550199', clientId: null, keyword: 'STOP', source: 'sms' });
  await db.insert(emailSuppressions).values({ email: 'bounced@x.test', reason: 'BOUNCE' });
  return { database, clientId, otherClientId, emailSurvey, smsSurvey, fallbackSurvey, pausedSurvey, activeFeed, pausedFeed };
}

/** A row maker: each row its own number, transaction and e-mail address, `overrides` on top. */
export function rowMaker(): (overrides?: Partial<NormalRow>) => NormalRow {
  let n = 0;
  const row = (overrides: Partial<NormalRow> = {}): NormalRow => {
    n++;
    return {
      rowNumber: n,
      firstName: 'Pat',
      lastName: 'Lee',
      email: `pat${n}@x.test`,
      phone: null,
      transactionId: `T-${n}`,
      transactionDate: '2026-03-01',
      locationId: 'L-OPEN',
      personnelId: null,
      productId: null,
      referralSourceId: null,
      amount: '12.50',
      smsOptIn: false,
      raw: { first_name: 'Pat' },
      ...overrides,
    };
  };
  return row;
}

/** The admission context of the world's e-mail survey from its active feed, `overrides` on top. */
export const admitContext = (world: AdmitWorld, overrides: Partial<AdmitContext> = {}): AdmitContext => ({
  clientId: world.clientId,
  surveyId: world.emailSurvey,
  dataFeedId: world.activeFeed,
  runId: null,
  source: 'csv_upload',
  ...overrides,
});
