import { randomBytes } from 'node:crypto';
import type { SurveyQuestion } from '@admin/shared/surveys/questions';
import { eq } from 'drizzle-orm';
import { evaluateResponse } from '../src/alerts/evaluate.ts';
import type { Db } from '../src/db/client.ts';
import {
  clients,
  clientUsers,
  locations,
  personnel,
  surveyAlertEvents,
  surveyAlertRecipients,
  surveyAlertRules,
  surveyProcessingItems,
  surveyResponses,
  surveys,
  users,
} from '../src/db/schema/index.ts';
import type { MovableClock } from '../src/pipeline/clock.ts';
import { afterResponseStored } from '../src/pipeline/response-stored.ts';

/** An NPS question (the key metric) and a comment, as a survey's questions. */
export const QUESTIONS: SurveyQuestion[] = [
  { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true },
  { id: 2, type: 'text', text: 'Tell us more', required: false, is_key_metric: false },
  { id: 3, type: 'text', text: 'Anything else?', required: false, is_key_metric: false },
] as SurveyQuestion[];

export type AlertWorld = {
  clientId: number;
  otherClientId: number;
  surveyId: number;
  otherSurveyId: number;
  locationId: string;
  otherLocationId: string;
  personnelId: number;
  /** Users of the client: `ann` active (email + sms), `bob` inactive, `cat` email only; `mgr` manages the location. */
  ann: number;
  bob: number;
  cat: number;
  mgr: number;
};

/** A client in Chicago with two locations, two surveys, personnel and users; another client beside it. */
export async function makeWorld(db: Db, tag: string): Promise<AlertWorld> {
  const [client, other] = await db
    .insert(clients)
    .values([
      { name: `Alert Co ${tag}`, timezone: 'America/Chicago' },
      { name: `Other Co ${tag}`, timezone: 'America/New_York' },
    ])
    .returning({ id: clients.id });
  const clientId = client?.id ?? 0;
  const otherClientId = other?.id ?? 0;
  const [mgr, ann, bob, cat] = await db
    .insert(users)
    .values([
      { name: 'Mia Manager', email: `mgr-${tag}@alert.test`, phone: '+13125550101' },
      { name: 'Ann Owner', email: `ann-${tag}@alert.test`, phone: '+13125550102' },
      { name: 'Bob Gone', email: `bob-${tag}@alert.test`, phone: '+13125550103' },
      { name: 'Cat Staff', email: `cat-${tag}@alert.test`, phone: '+13125550104' },
    ])
    .returning({ id: users.id });
  const ids = { mgr: mgr?.id ?? 0, ann: ann?.id ?? 0, bob: bob?.id ?? 0, cat: cat?.id ?? 0 };
  await db.insert(clientUsers).values([
    { clientId, userId: ids.ann, role: 'owner', alertChannels: ['email', 'sms'] },
    { clientId, userId: ids.bob, role: 'staff', alertChannels: ['email'], status: 'inactive' },
    { clientId, userId: ids.cat, role: 'staff', alertChannels: ['email'] },
  ]);
  const place = {
    clientId,
    address1: '1 Main St',
    city: 'Chicago',
    state: 'IL',
    postalCode: '60601',
    phone: '+13125550100',
    timezone: 'America/Chicago',
  };
  await db.insert(locations).values([
    { ...place, id: `AL-${tag}-1`, locationname: 'Downtown', managerUserId: ids.mgr },
    { ...place, id: `AL-${tag}-2`, locationname: 'Airport' },
  ]);
  const base = { clientId, type: 'nps', language: 'en', channel: 'email', senderName: 'Alert Co', questions: QUESTIONS };
  const made = await db
    .insert(surveys)
    .values([
      { ...base, name: 'After visit' },
      { ...base, name: 'After call' },
    ])
    .returning({ id: surveys.id });
  const [person] = await db
    .insert(personnel)
    .values({ clientId, firstName: 'Pete', lastName: 'Tech', email: `pete-${tag}@alert.test`, phone: '+13125550105' })
    .returning({ id: personnel.id });
  return {
    clientId,
    otherClientId,
    surveyId: made[0]?.id ?? 0,
    otherSurveyId: made[1]?.id ?? 0,
    locationId: `AL-${tag}-1`,
    otherLocationId: `AL-${tag}-2`,
    personnelId: person?.id ?? 0,
    ...ids,
  };
}

type RuleInput = Partial<typeof surveyAlertRules.$inferInsert> & { userIds?: number[] };

/** A rule of the world's client (what Survey Alert Settings would save), with its chosen users. */
export async function makeRule(db: Db, world: AlertWorld, input: RuleInput, createdAt: Date): Promise<number> {
  const { userIds = [], ...fields } = input;
  const [rule] = await db
    .insert(surveyAlertRules)
    .values({ clientId: world.clientId, name: 'Rule', trigger: 'detractor', createdAt, updatedAt: createdAt, ...fields })
    .returning({ id: surveyAlertRules.id });
  const id = rule?.id ?? 0;
  if (userIds.length > 0) await db.insert(surveyAlertRecipients).values(userIds.map((userId) => ({ ruleId: id, userId })));
  return id;
}

type ResponseInput = {
  score?: number | null;
  comment?: string | null;
  more?: string;
  surveyId?: number;
  locationId?: string;
  personnel?: boolean;
  test?: boolean;
  excluded?: boolean;
};

/** A stored response, as `recordResponse` stores it: the invitation answered, and its jobs queued. */
export async function makeResponse(db: Db, world: AlertWorld, input: ResponseInput, at: Date): Promise<number> {
  const surveyId = input.surveyId ?? world.surveyId;
  const locationId = input.locationId ?? world.locationId;
  const personnelId = input.personnel ? world.personnelId : null;
  const itemId = await makeInvitation(db, world, { surveyId, locationId, personnelId, status: 'responded' }, at);
  const score = input.score === undefined ? 3 : input.score;
  const answers: Record<string, string | number> = {};
  if (score !== null) answers['1'] = score;
  if (input.comment) answers['2'] = input.comment;
  if (input.more) answers['3'] = input.more;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(surveyResponses)
      .values({
        processingItemId: itemId,
        surveyId,
        clientId: world.clientId,
        locationId,
        personnelId,
        keyScore: score,
        npsClass: score === null ? null : score >= 9 ? 'promoter' : score >= 7 ? 'passive' : 'detractor',
        comment: input.comment ?? null,
        answers,
        questions: QUESTIONS,
        test: input.test ?? false,
        excluded: input.excluded ?? false,
        submittedAt: at,
        updatedAt: at,
      })
      .returning({ id: surveyResponses.id });
    await afterResponseStored(tx, row?.id ?? 0, at);
    return row?.id ?? 0;
  });
}

/** An invitation sent at `at` (a processing item), answered or not. */
export async function makeInvitation(
  db: Db,
  world: AlertWorld,
  input: { surveyId?: number; locationId?: string; personnelId?: number | null; status?: 'sent' | 'responded' },
  at: Date,
): Promise<number> {
  const [item] = await db
    .insert(surveyProcessingItems)
    .values({
      clientId: world.clientId,
      surveyId: input.surveyId ?? world.surveyId,
      locationId: input.locationId ?? world.locationId,
      personnelId: input.personnelId ?? null,
      firstName: 'Dana',
      email: 'dana@customer.test',
      phone: '+13125559999',
      channel: 'email',
      status: input.status ?? 'sent',
      sentAt: at,
      expiresAt: new Date(at.getTime() + 30 * 86_400_000),
      source: 'api',
      token: randomBytes(16).toString('base64url'),
    })
    .returning({ id: surveyProcessingItems.id });
  return item?.id ?? 0;
}

/**
 * A detractor alert to one address of a fresh rule (the client's earlier rules archived, so they
 * leave it alone), evaluated and not yet delivered: its event.
 */
export async function detractorAlert(db: Db, world: AlertWorld, clock: MovableClock, address: { email?: string; phone?: string }) {
  clock.advance(60_000);
  await db.update(surveyAlertRules).set({ status: 'archived' }).where(eq(surveyAlertRules.clientId, world.clientId));
  const ruleId = await makeRule(
    db,
    world,
    {
      trigger: 'detractor',
      channels: address.phone ? ['sms'] : ['email'],
      extraEmails: address.email ? [address.email] : [],
      extraPhones: address.phone ? [address.phone] : [],
    },
    clock.now(),
  );
  clock.advance(60_000);
  const responseId = await makeResponse(db, world, { score: 2 }, clock.now());
  await evaluateResponse(db, responseId, clock.now());
  const [event] = await db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.ruleId, ruleId));
  if (!event) throw new Error('no event');
  return event;
}
