import { type Answers, answerProblems, commentOf, keyScoreOf } from '@admin/shared/surveys/questions';
import { and, asc, count, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { surveyProcessingItems, surveyResponses, testimonials } from '../../db/schema/index.ts';
import { findInvitation, recordResponse } from '../../public/repository.ts';
import { makeTestimonial } from './make.ts';

type DemoState = { status: 'pending' | 'approved' | 'published' | 'rejected'; featured?: boolean };
/** The round the demo's testimonials take, so every client shows every state (issue 20, item 7). */
const ROUND: DemoState[] = [
  { status: 'pending' },
  { status: 'published', featured: true },
  { status: 'approved' },
  { status: 'published' },
  { status: 'rejected' },
  { status: 'pending' },
  { status: 'published' },
];
const HOUR_MS = 3_600_000;
/** Praise a few more of the first client's customers give, with consent, so its screen shows the whole round. */
const PRAISE = [
  'Friendly team, on time, and they explained everything before starting. Highly recommend!',
  'Quick, honest and spotless work. We will be back.',
  'Best service we have had in years: fair price and great follow-up.',
  'They went out of their way to fit us in the same day. Thank you!',
  'Professional from the first call to the last detail.',
];

/**
 * The first client's open invitations answered as happy customers who allow quoting, through the
 * public page's own path (`findInvitation` → `answerProblems` → `recordResponse`), until it has
 * `want` responses given with consent: a handful of answers, so the demo's response rates stay as
 * apps/server/test/demo-surveys.test.ts expects.
 */
async function answerHappyCustomers(db: Db, clientId: number, anchor: Date, want: number): Promise<void> {
  const [have] = await db
    .select({ n: count() })
    .from(surveyResponses)
    .where(and(eq(surveyResponses.clientId, clientId), eq(surveyResponses.testimonialConsent, true), isNotNull(surveyResponses.comment)));
  let need = want - (have?.n ?? 0);
  if (need <= 0) return;
  const open = await db
    .select({ token: surveyProcessingItems.token, sentAt: surveyProcessingItems.sentAt })
    .from(surveyProcessingItems)
    .leftJoin(surveyResponses, eq(surveyResponses.processingItemId, surveyProcessingItems.id))
    .where(
      and(
        eq(surveyProcessingItems.clientId, clientId),
        inArray(surveyProcessingItems.status, ['sent', 'delivered', 'opened', 'reminded']),
        gt(surveyProcessingItems.expiresAt, anchor),
        isNull(surveyResponses.id),
      ),
    )
    .orderBy(asc(surveyProcessingItems.id))
    .limit(need * 3);
  for (const [i, item] of open.entries()) {
    if (need <= 0) break;
    const invitation = await findInvitation(db, item.token);
    const key = invitation?.questions.find((q) => q.is_key_metric);
    const text = invitation?.questions.find((q) => q.type === 'text');
    if (!invitation || !key || !text) continue;
    const answers: Answers = { [String(key.id)]: key.type === 'nps_0_10' ? 10 : 5, [String(text.id)]: PRAISE[i % PRAISE.length] ?? '' };
    if (Object.keys(answerProblems(invitation.questions, answers)).length > 0) continue;
    const score = keyScoreOf(invitation.questions, answers);
    const sentAt = item.sentAt ?? anchor;
    await recordResponse(db, invitation, {
      answers,
      keyScore: score?.score ?? null,
      npsClass: score?.npsClass ?? null,
      comment: commentOf(invitation.questions, answers),
      testimonialConsent: true,
      submittedAt: new Date(Math.min(anchor.getTime(), sentAt.getTime() + 3 * HOUR_MS)),
    });
    need -= 1;
  }
}

/**
 * The demo's testimonials, made by the job's own function from the demo's responses (the same
 * `makeTestimonial` the `make-testimonial` job runs, so the queued jobs later find them made),
 * then moved through the states a staff member would, per client in turn, newest first.
 */
export async function seedTestimonials(db: Db, anchor: Date, firstClientId: number | null): Promise<void> {
  if (firstClientId !== null) await answerHappyCustomers(db, firstClientId, anchor, ROUND.length);
  const responses = await db
    .select({ id: surveyResponses.id })
    .from(surveyResponses)
    .where(and(eq(surveyResponses.testimonialConsent, true), isNotNull(surveyResponses.comment), eq(surveyResponses.test, false)))
    .orderBy(asc(surveyResponses.id));
  for (const r of responses) await makeTestimonial(db, r.id, anchor);
  const made = await db
    .select({ id: testimonials.id, clientId: testimonials.clientId, submittedAt: testimonials.submittedAt })
    .from(testimonials)
    .orderBy(asc(testimonials.clientId), asc(testimonials.submittedAt), asc(testimonials.id));
  const seen = new Map<number, number>();
  for (const t of made) {
    const n = seen.get(t.clientId) ?? 0;
    seen.set(t.clientId, n + 1);
    const state = ROUND[n % ROUND.length] ?? { status: 'pending' };
    if (state.status === 'pending') continue;
    const decided = new Date(Math.min(anchor.getTime(), t.submittedAt.getTime() + 2 * HOUR_MS));
    await db
      .update(testimonials)
      .set({
        status: state.status,
        featured: state.featured === true,
        approvedAt: state.status === 'rejected' ? null : decided,
        publishedAt: state.status === 'published' ? decided : null,
        updatedAt: decided,
      })
      .where(eq(testimonials.id, t.id));
  }
}
