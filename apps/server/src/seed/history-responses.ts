import { type Answers, answerProblems, commentOf, keyScoreOf } from '@admin/shared/surveys/questions';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { newReviewToken } from '../reputation/amplify/invite.ts';
import { offeredSites } from '../reputation/amplify/offer.ts';
import type { HistoryInvitation } from './history-invitations.ts';
import { type Mood, moodsFor, scoreOf } from './history-plan.ts';
import { inChunks, iso, recordset } from './history-sql.ts';
import type { seededRandom } from './random.ts';

type Rnd = ReturnType<typeof seededRandom>;

/** What the demo's customers write, by mood (answer.ts has the last month's; these are the year's). */
const COMMENTS: Record<Mood, readonly string[]> = {
  promoter: ['Friendly and on time, as always.', 'Great service again this year.', 'Clear explanations and a fair price.'],
  passive: ['Fine, but the wait was long.', 'Good work, hard to get an appointment.'],
  detractor: ['Nobody followed up with me.', 'Took two visits to get it right.', 'More expensive than quoted.'],
};

/**
 * The answers of the history: the invitations planned answered (history-invitations.ts), in moods whose NPS is the client's trend for
 * the period (history-plan.ts). Each is what the public page's answer path writes (answer.ts,
 * `recordResponse`), checked by the same `answerProblems`, `keyScoreOf` and `commentOf`: the
 * response (its invitation was written `responded`), and an amplification `invited` per review site offered
 * (`offeredSites`, `inviteToReview`'s rows). Written in bulk; the response's two jobs are not
 * queued, as they would find nothing to do: the survey alert rules were made after these answers
 * (the engine alerts only on later ones) and no consent to quote is given, so no testimonial.
 */
export async function recordResponses(
  db: Db,
  invitations: readonly HistoryInvitation[],
  npsOf: (clientId: number, period: number) => number,
  rnd: Rnd,
): Promise<{ responseId: number; invitation: HistoryInvitation; submittedAt: number; keyScore: number | null }[]> {
  const groups = new Map<string, HistoryInvitation[]>();
  for (const p of invitations) {
    if (p.answeredAt === null) continue;
    const key = `${p.client.id}:${p.period}:${p.survey.type}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const answered: { invitation: HistoryInvitation; submittedAt: number; keyScore: number | null; row: Record<string, unknown> }[] = [];
  for (const group of groups.values()) {
    const [sample] = group;
    if (!sample) continue;
    const nps = sample.survey.type === 'nps';
    const moods = moodsFor(group.length, npsOf(sample.client.id, sample.period), rnd);
    group.forEach((p, i) => {
      const mood = moods[i] ?? 'passive';
      const answers: Answers = { '1': scoreOf(mood, nps, rnd) };
      if (rnd.next() < 0.6) answers['2'] = mood !== 'detractor';
      if (rnd.next() < 0.35) answers['3'] = rnd.pick(COMMENTS[mood]);
      const problems = answerProblems(p.survey.questions, answers);
      if (Object.keys(problems).length > 0) throw new Error(`demo history answers refused: ${JSON.stringify(problems)}`);
      const key = keyScoreOf(p.survey.questions, answers);
      const submittedAt = p.answeredAt ?? p.sentAt;
      answered.push({
        invitation: p,
        submittedAt,
        keyScore: key?.score ?? null,
        row: {
          item: p.itemId,
          survey: p.survey.id,
          client: p.client.id,
          location: p.location.id,
          personnel: p.person?.id ?? null,
          score: key?.score ?? null,
          class: key?.npsClass ?? null,
          comment: commentOf(p.survey.questions, answers),
          answers,
          questions: p.survey.questions,
          at: iso(submittedAt),
        },
      });
    });
  }
  answered.sort((a, b) => a.submittedAt - b.submittedAt);
  const ids = await inChunks(
    db,
    answered.map((a) => a.row),
    (json) => sql`insert into survey_responses (processing_item_id, survey_id, client_id, location_id, personnel_id, key_score, nps_class,
        comment, answers, questions, testimonial_consent, test, submitted_at, updated_at)
      select item, survey, client, location, personnel, score, class, comment, answers, questions, false, false, at, at
      from ${recordset(json, 'item int, survey int, client int, location text, personnel int, score int, class text, comment text, answers jsonb, questions jsonb, at timestamptz')}
      returning id, processing_item_id`,
  );
  const idOfItem = new Map(ids.map((r) => [Number(r.processing_item_id), Number(r.id)]));
  const done = answered.map((a) => ({ ...a, responseId: idOfItem.get(a.invitation.itemId) ?? 0 }));
  const amplifications = done.flatMap(({ invitation: p, responseId, keyScore, submittedAt }) =>
    offeredSites(
      {
        reviewLinks: p.location.reviewLinks,
        reviewSites: p.survey.reviewSites,
        reviewThreshold: p.survey.reviewInviteMode === 'threshold' ? p.survey.reviewInviteThreshold : null,
      },
      keyScore,
    ).map((s) => ({
      client: p.client.id,
      location: p.location.id,
      personnel: p.person?.id ?? null,
      response: responseId,
      site: s.site,
      channel: p.channel,
      token: newReviewToken(),
      name: `${p.first} ${p.last}`,
      score: keyScore,
      at: iso(submittedAt),
    })),
  );
  await inChunks(
    db,
    amplifications,
    (json) => sql`insert into amplifications (client_id, location_id, personnel_id, response_id, site, channel, token, customer_name,
        survey_score, invited_at, status, created_at, updated_at)
      select client, location, personnel, response, site, channel, token, name, score, at, 'invited', at, at
      from ${recordset(json, 'client int, location text, personnel int, response int, site text, channel text, token text, name text, score int, at timestamptz')}`,
  );
  return done.map(({ invitation, responseId, submittedAt, keyScore }) => ({ invitation, responseId, submittedAt, keyScore }));
}
