import { checkSmsTemplateBody, checkSurvey, type SurveyBody, smsTemplateResource, surveyResource } from '@admin/shared';
import type { Answers, SurveyQuestion } from '@admin/shared/surveys/questions';
import { answerProblems, commentOf, keyScoreOf } from '@admin/shared/surveys/questions';
import { and, asc, eq } from 'drizzle-orm';
import type { MessagingConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import {
  clients,
  emailSuppressions,
  locations,
  notificationEvents,
  notificationLogs,
  personnel,
  smsTemplates,
  surveyProcessingItems,
  surveys,
} from '../db/schema/index.ts';
import { validateFields } from '../kit/validate-body.ts';
import { HttpError } from '../lib/http-error.ts';
import { invitationEmail, invitationSms } from '../messaging/invitation.ts';
import { createMessenger, type SendResult } from '../messaging/send.ts';
import { smsTemplateStore } from '../modules/sms-templates/repository.ts';
import { setLocations, surveyStore } from '../modules/surveys/repository.ts';
import { newSurveyToken } from '../modules/surveys/routes.ts';
import { itemStatusOf } from '../pipeline/item-status.ts';
import { findInvitation, type Invitation, optOut, recordResponse } from '../public/repository.ts';
import { seededRandom } from './random.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Share of invitations answered: a typical e-mail survey response rate. */
export const ANSWER_RATE = 0.35;
/**
 * Invitations to returning customers who unsubscribed from an earlier one (refused: opted out), to
 * addresses that hard-bounced before (refused: suppressed), and e-mails mistyped in the business's
 * records (refused: not an address). Small shares, as real sending has them.
 */
const OPTED_OUT_RATE = 0.025;
const BOUNCED_RATE = 0.02;
const MISTYPED_RATE = 0.015;
/** The earlier visit of a returning customer: further back than over-survey protection (90 days by default). */
const EARLIER_VISIT_DAYS: [number, number] = [95, 140];
/** Customers of an e-mail → SMS survey who gave only a phone, so the text is their invitation. */
const PHONE_ONLY_RATE = 0.3;

/** The demo clients that text their customers: an SMS survey, or e-mail with SMS for those without an address. */
const TEXTING_CLIENTS: Record<string, 'sms' | 'email_then_sms'> = {
  'Pioneer Plumbing Co.': 'sms',
  'Clearwater Pest Control': 'sms',
  'Northstar Toyota': 'email_then_sms',
};

/** The texting clients' own survey invitation (SMS Text), written to pass the compliance rules. */
const SMS_INVITE = {
  name: 'Survey invite (text)',
  purpose: 'survey_invite',
  language: 'en',
  body: 'Hi {first_name}, thanks for choosing {business_name}! How did we do? It takes 30 seconds: {link} Reply STOP to opt out',
} as const;

/**
 * The global defaults every client sees on SMS Text and may copy for itself (docs/screens.md,
 * SMS Text): one per purpose a demo client would start from.
 */
const GLOBAL_SMS_TEMPLATES = [
  { ...SMS_INVITE, name: 'Survey invite (default)' },
  {
    name: 'Review request (default)',
    purpose: 'review_invite',
    language: 'en',
    body: 'Hi {first_name}, thank you for visiting {business_name}! Would you share a quick review? {link} Reply STOP to opt out',
  },
] as const;

/** Promoters, passives, detractors (shares summing to 1) of an industry's NPS answers. */
const NPS_MIX: Record<string, [number, number, number]> = {
  home_services: [0.62, 0.24, 0.14],
  automotive: [0.55, 0.27, 0.18],
  dental: [0.7, 0.2, 0.1],
  senior_care: [0.58, 0.27, 0.15],
  healthcare: [0.6, 0.25, 0.15],
  legal: [0.57, 0.26, 0.17],
  financial: [0.52, 0.3, 0.18],
  retail: [0.5, 0.3, 0.2],
  hospitality: [0.6, 0.25, 0.15],
};
const DEFAULT_MIX: [number, number, number] = [0.6, 0.25, 0.15];

/** Industries that also run a satisfaction survey next to NPS, and its kind. */
const SECOND_SURVEY: Record<string, 'csat' | 'star'> = {
  healthcare: 'csat',
  dental: 'csat',
  senior_care: 'csat',
  hospitality: 'star',
  retail: 'star',
};

const COMMENTS = {
  promoter: [
    'Friendly staff and everything was done on time.',
    'Very professional, explained every step. Highly recommend!',
    'Quick, easy and fairly priced. Will be back.',
    'Great experience from start to finish.',
    'They went above and beyond for us.',
  ],
  passive: [
    'Good overall, but I waited longer than expected.',
    'Fine service, a bit pricey.',
    'Did the job. Communication could be better.',
    'Solid work, scheduling was a little hard.',
  ],
  detractor: [
    'Nobody called me back about my question.',
    'Had to come back twice to get it fixed.',
    'The bill was higher than the estimate.',
    'Long wait and the front desk seemed overwhelmed.',
  ],
} as const;

const FIRST = ['Avery', 'Jordan', 'Riley', 'Morgan', 'Casey', 'Taylor', 'Jamie', 'Quinn', 'Parker', 'Reese', 'Drew', 'Skyler'];
const LAST = ['Reyes', 'Chen', 'Okafor', 'Schmidt', 'Rossi', 'Silva', 'Novak', 'Haddad', 'Larsen', 'Murphy', 'Ito', 'Bauer'];

const EMAIL_BODY = [
  'Hi {first_name},',
  '',
  'Thank you for choosing {location_name}. {personnel_name} and the team would love to hear how it went.',
  'It takes less than a minute: {survey_link}',
  '',
  'No longer want these e-mails? {unsubscribe_link}',
].join('\n');

function questionsOf(type: 'nps' | 'csat' | 'star', clientName: string): SurveyQuestion[] {
  const key: SurveyQuestion =
    type === 'nps'
      ? {
          id: 1,
          type: 'nps_0_10',
          text: `How likely are you to recommend ${clientName} to a friend or colleague?`,
          options: [],
          required: true,
          is_key_metric: true,
        }
      : {
          id: 1,
          type: 'rating_1_5',
          text: type === 'csat' ? 'How satisfied were you with your visit?' : 'How would you rate your stay overall?',
          options: [],
          required: true,
          is_key_metric: true,
        };
  return [
    key,
    { id: 2, type: 'yes_no', text: 'Was everything done the way you expected?', options: [], required: false, is_key_metric: false },
    { id: 3, type: 'text', text: 'Tell us more about your experience', options: [], required: false, is_key_metric: false },
  ];
}

/**
 * A client's SMS template made the way `POST /api/sms-templates` makes one: the definition's rules,
 * the compliance check and the store's values (the computed encoding, segments and opt-out flag).
 */
async function createSmsTemplate(
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
 * A hard bounce as Amazon SES reports it (Permanent, a few minutes after the send) and as the SES
 * event path is to record it (no such route yet): the message `bounced` in Tracking Logs with the
 * provider's words, and the address on the suppression list, which the messenger checks before
 * every send.
 */
async function hardBounce(db: Db, notificationId: number, address: string, at: Date): Promise<void> {
  const detail = 'Bounce (Permanent, General): smtp; 550 5.1.1 user unknown';
  await db.update(notificationLogs).set({ status: 'bounced', error: detail, updatedAt: at }).where(eq(notificationLogs.id, notificationId));
  await db.insert(notificationEvents).values({ notificationId, status: 'bounced', at, detail });
  await db.insert(emailSuppressions).values({ email: address.toLowerCase(), reason: 'BOUNCE', createdAt: at });
}

/**
 * A survey made the way `POST /api/surveys` makes one: the body checked by the definition's rules
 * and `checkSurvey`, turned into columns by the store's `values`, its locations by `setLocations`.
 */
async function createSurvey(db: Db, clientId: number, input: Partial<SurveyBody>): Promise<typeof surveys.$inferSelect> {
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

/** The invitation just sent, as the public pages find it by its link. */
async function invitationOf(db: Db, token: string): Promise<Invitation> {
  const invitation = await findInvitation(db, token);
  if (!invitation) throw new Error('the invitation just sent was not found');
  return invitation;
}

/**
 * A customer answers an invitation as the public page records it: found by its link
 * (`findInvitation`), the answers checked (`answerProblems`), the key score and comment taken
 * (`keyScoreOf`, `commentOf`), then `recordResponse`; within two days of the send, never after
 * the anchor, in the industry's mix of promoters, passives and detractors.
 */
export async function answerInvitation(
  db: Db,
  rnd: ReturnType<typeof seededRandom>,
  options: { token: string; sentAt: Date; anchor: Date; industry: string },
): Promise<void> {
  const { sentAt } = options;
  const [promoterShare, passiveShare] = NPS_MIX[options.industry] ?? DEFAULT_MIX;
  const invitation = await invitationOf(db, options.token);
  const submittedAt = new Date(Math.min(options.anchor.getTime(), sentAt.getTime() + (0.5 + rnd.next() * 47.5) * HOUR_MS));
  const roll = rnd.next();
  const mood = roll < promoterShare ? 'promoter' : roll < promoterShare + passiveShare ? 'passive' : 'detractor';
  const keyQuestion = invitation.questions.find((q) => q.is_key_metric);
  const score =
    keyQuestion?.type === 'nps_0_10'
      ? mood === 'promoter'
        ? rnd.int(9, 10)
        : mood === 'passive'
          ? rnd.int(7, 8)
          : rnd.pick([2, 3, 4, 5, 5, 6, 6, 6])
      : mood === 'promoter'
        ? 5
        : mood === 'passive'
          ? rnd.pick([3, 4])
          : rnd.pick([1, 2, 2]);
  const answers: Answers = { '1': score };
  if (rnd.next() < 0.6) answers['2'] = mood !== 'detractor';
  if (rnd.next() < 0.45) answers['3'] = rnd.pick(COMMENTS[mood]);
  const problems = answerProblems(invitation.questions, answers);
  if (Object.keys(problems).length > 0) throw new Error(`demo answers refused: ${JSON.stringify(problems)}`);
  const key = keyScoreOf(invitation.questions, answers);
  const comment = commentOf(invitation.questions, answers);
  await recordResponse(db, invitation, {
    answers,
    keyScore: key?.score ?? null,
    npsClass: key?.npsClass ?? null,
    comment,
    testimonialConsent: comment !== null && mood === 'promoter' && rnd.next() < 0.5,
    submittedAt,
  });
}

/** One invitation to send: to whom, by which channel, and what the customer does afterwards. */
type Planned = {
  survey: typeof surveys.$inferSelect;
  location: { id: string; name: string };
  person: { id: number; firstName: string } | undefined;
  first: string;
  last: string;
  channel: 'email' | 'sms';
  /** The e-mail address or the E.164 phone. */
  to: string;
  sentAt: Date;
  token: string;
  /** `answer` (about a third do), or the earlier visit of a customer who then unsubscribes or whose address bounces. */
  afterwards: 'answer' | 'unsubscribe' | 'bounce';
};

/**
 * Demo surveys for every client, then a month of invitations and answers made by the code the
 * product runs rather than inserted as outputs: surveys (and the texting clients' SMS template)
 * through the definitions' rules; invitations as Send test makes them (a processing item with a
 * fresh token, sent through the messenger to the outbox on a simulated clock spread over the last
 * 30 days), by e-mail or SMS as the survey's channel says; about a third answered through the
 * public page's `findInvitation` → `answerProblems` → `recordResponse`. A few percent are refused
 * by the messenger's own checks: returning customers who unsubscribed on `/u/` after an earlier
 * visit (`optOut`), addresses that hard-bounced on an earlier visit, and mistyped addresses. So
 * Tracking Logs, Survey Manager and Surveys count the same. Tokens stay random (they are
 * credentials); everything else follows the seeded random.
 */
/** The outbox whatever the configuration: demo invitations go to made-up addresses. */
export const demoOutbox = (publicBaseUrl: string): MessagingConfig => ({
  publicBaseUrl,
  email: { transport: 'outbox' },
  emailFrom: 'Demo <demo@example.com>',
  sms: { transport: 'outbox' },
  smsFrom: '',
});

export async function seedSurveys(db: Db, options: { publicBaseUrl: string; anchor: Date }): Promise<void> {
  const rnd = seededRandom(20261123);
  let clock = options.anchor;
  const messenger = createMessenger(db, demoOutbox(options.publicBaseUrl), { now: () => clock });
  const allClients = await db
    .select({ id: clients.id, name: clients.name, industry: clients.industry, phone: clients.phone })
    .from(clients)
    .orderBy(asc(clients.id));
  for (const template of GLOBAL_SMS_TEMPLATES) await createSmsTemplate(db, null, template);

  for (const client of allClients) {
    const own = await db
      .select({ id: locations.id, name: locations.locationname })
      .from(locations)
      .where(and(eq(locations.clientId, client.id), eq(locations.status, 'active')))
      .orderBy(asc(locations.locationname), asc(locations.id));
    if (own.length === 0) continue;
    const staff = await db
      .select({ id: personnel.id, firstName: personnel.firstName })
      .from(personnel)
      .where(eq(personnel.clientId, client.id))
      .orderBy(asc(personnel.id))
      .limit(8);
    const industry = client.industry ?? '';
    const kinds: ('nps' | 'csat' | 'star')[] = ['nps'];
    const second = SECOND_SURVEY[industry];
    if (second) kinds.push(second);
    const texting = TEXTING_CLIENTS[client.name];
    const template = texting ? await createSmsTemplate(db, client.id) : undefined;

    const made: { survey: typeof surveys.$inferSelect; locations: typeof own }[] = [];
    for (const kind of kinds) {
      const covered = kind === 'nps' ? own : own.slice(0, Math.max(1, Math.ceil(own.length / 2)));
      const survey = await createSurvey(db, client.id, {
        name: kind === 'nps' ? 'Customer experience NPS' : kind === 'csat' ? 'Visit satisfaction (CSAT)' : 'Stay rating',
        type: kind,
        // A texting client's NPS survey goes by its channel; the e-mail stays for the fallback's customers.
        channel: kind === 'nps' && texting ? texting : 'email',
        ...(kind === 'nps' && template ? { sms_template_id: template.id } : {}),
        language: 'en',
        // The NPS survey covers every location; the second one the first half of them.
        location_ids: covered.map((l) => l.id),
        questions: questionsOf(kind, client.name),
        email_subject: kind === 'nps' ? 'How was your visit to {location_name}?' : 'A quick question about {location_name}',
        email_body: EMAIL_BODY,
        sender_name: client.name.slice(0, 60),
        // Review sites go to every respondent: asking only high scorers is review gating, which
        // Google's policy forbids (docs/decisions/037-test-responses-and-review-gating.md).
        review_invite_mode: 'all_respondents',
        review_sites: ['google'],
        testimonial_consent_text: 'You may quote my comment on your website.',
      });
      made.push({ survey, locations: covered });
    }

    // A few dozen invitations over the last 30 days; demo phones are the client's area code and
    // the 555-01xx numbers kept for fiction.
    const count = rnd.int(18, 30);
    const times = Array.from({ length: count }, () => options.anchor.getTime() - rnd.next() * 30 * DAY_MS);
    const areaCode = client.phone?.slice(2, 5) ?? '303';
    const planned: Planned[] = [];
    for (const [i, time] of times.entries()) {
      const target = made.length > 1 && rnd.next() < 0.35 ? made[1] : made[0];
      if (!target) throw new Error('a client without a demo survey');
      const { survey } = target;
      const byText = survey.channel === 'sms' || (survey.channel === 'email_then_sms' && rnd.next() < PHONE_ONLY_RATE);
      const first = rnd.pick(FIRST);
      const last = rnd.pick(LAST);
      const visit = {
        survey,
        location: rnd.pick(target.locations),
        person: staff.length > 0 ? rnd.pick(staff) : undefined,
        first,
        last,
        channel: byText ? ('sms' as const) : ('email' as const),
        to: byText ? `+1${areaCode}55501${String(i).padStart(2, '0')}` : `${first}.${last}.${client.id}-${i}@example.com`.toLowerCase(),
      };
      const roll = rnd.next();
      const earlier = roll < OPTED_OUT_RATE ? 'unsubscribe' : roll < OPTED_OUT_RATE + BOUNCED_RATE && !byText ? 'bounce' : null;
      if (earlier) {
        // A returning customer: the invitation of an earlier visit, then the unsubscribe or the bounce.
        const daysBefore = rnd.int(...EARLIER_VISIT_DAYS) + rnd.next();
        planned.push({ ...visit, sentAt: new Date(Math.floor(time - daysBefore * DAY_MS)), token: newSurveyToken(), afterwards: earlier });
      } else if (!byText && roll < OPTED_OUT_RATE + BOUNCED_RATE + MISTYPED_RATE) {
        visit.to = visit.to.replace('@example.com', '@example,com');
      }
      planned.push({ ...visit, sentAt: new Date(Math.floor(time)), token: newSurveyToken(), afterwards: 'answer' });
    }
    // Oldest first, so ids follow time.
    planned.sort((a, b) => a.sentAt.getTime() - b.sentAt.getTime());

    // The invitations as Send test makes them (queued, each with a fresh token), in one insert per
    // client to keep start-up fast; each is then sent on its own, on its own simulated time.
    const items = await db
      .insert(surveyProcessingItems)
      .values(
        planned.map((p) => ({
          clientId: client.id,
          locationId: p.location.id,
          surveyId: p.survey.id,
          firstName: p.first,
          lastName: p.last,
          ...(p.channel === 'email' ? { email: p.to } : { phone: p.to }),
          personnelId: p.person?.id ?? null,
          channel: p.channel,
          status: 'queued' as const,
          token: p.token,
          expiresAt: new Date(p.sentAt.getTime() + p.survey.linkExpiresDays * DAY_MS),
          source: 'demo' as const,
          createdAt: p.sentAt,
          updatedAt: p.sentAt,
        })),
      )
      .returning({ id: surveyProcessingItems.id });
    for (const [i, p] of planned.entries()) {
      const item = items[i];
      if (!item) throw new Error('insert returned too few rows');
      const { survey, location, person, token, sentAt } = p;
      clock = sentAt;
      const values = {
        firstName: p.first,
        locationName: location.name,
        personnelName: person?.firstName ?? null,
        businessName: client.name,
        surveyLink: messenger.link(`/s/${token}`),
        unsubscribeLink: messenger.link(`/u/${token}`),
      };
      const common = {
        type: 'survey_invite' as const,
        to: p.to,
        clientId: client.id,
        locationId: location.id,
        related: { type: 'survey_processing_item', id: item.id },
      };
      let result: SendResult;
      // Demo clients keep the platform defaults in Survey Admin (no settings saved).
      if (p.channel === 'email') result = await messenger.send({ ...common, channel: 'email', ...invitationEmail(survey, values, null) });
      else if (template)
        result = await messenger.send({ ...common, channel: 'sms', template: template.name, text: invitationSms(template.body, values) });
      else throw new Error('an SMS invitation of a client without an SMS template');
      const status = itemStatusOf(result);
      await db
        .update(surveyProcessingItems)
        .set({
          status,
          attempts: 1,
          sentAt: status === 'sent' ? sentAt : null,
          lastError: result.error,
          ...(status.startsWith('skipped_') ? { skipReason: result.error } : {}),
          updatedAt: sentAt,
        })
        .where(eq(surveyProcessingItems.id, item.id));
      if (status !== 'sent') continue;

      if (p.afterwards === 'bounce') {
        await hardBounce(db, result.id, p.to, new Date(sentAt.getTime() + rnd.int(1, 20) * 60_000));
        continue;
      }
      if (p.afterwards === 'unsubscribe') {
        // One click on the invitation's unsubscribe link within a day, as the public page records it.
        await optOut(db, await invitationOf(db, token), new Date(sentAt.getTime() + (0.2 + rnd.next() * 23.8) * HOUR_MS));
        continue;
      }

      // About a third answer within two days (never after the anchor), as the public page records it.
      if (rnd.next() >= ANSWER_RATE) continue;
      await answerInvitation(db, rnd, { token, sentAt, anchor: options.anchor, industry });
    }
  }
  messenger.close();
}
