import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clients, locations, personnel, surveyProcessingItems, type surveys } from '../db/schema/index.ts';
import { invitationEmail, invitationSms } from '../messaging/invitation.ts';
import { createMessenger, type SendResult } from '../messaging/send.ts';
import { newSurveyToken } from '../modules/surveys/sample.ts';
import { itemStatusOf } from '../pipeline/item-status.ts';
import { optOut } from '../public/repository.ts';
import { ANSWER_RATE, answerInvitation, invitationOf } from './answer.ts';
import { demoOutbox } from './outbox.ts';
import { seededRandom } from './random.ts';
import {
  EMAIL_BODY,
  FIRST,
  GLOBAL_SMS_TEMPLATES,
  LAST,
  QUIET_CLIENT,
  QUIET_DAYS,
  questionsOf,
  SECOND_SURVEY,
  TEXTING_CLIENTS,
} from './survey-definitions.ts';
import { createSmsTemplate, createSurvey, hardBounce } from './survey-records.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
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
    // The quiet client's run ends QUIET_DAYS before the anchor (one draw each all the same, so the rest stay as they were).
    const from = client.name === QUIET_CLIENT ? QUIET_DAYS : 0;
    const times = Array.from({ length: count }, () => options.anchor.getTime() - (from + rnd.next() * (30 - from)) * DAY_MS);
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
