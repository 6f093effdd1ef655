import type { Answers } from '@admin/shared/surveys/questions';
import { answerProblems, commentOf, keyScoreOf } from '@admin/shared/surveys/questions';
import type { Db } from '../db/client.ts';
import { findInvitation, type Invitation, recordResponse } from '../public/repository.ts';
import type { seededRandom } from './random.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Share of invitations answered: a typical e-mail survey response rate. */
export const ANSWER_RATE = 0.35;

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

/** What the demo's customers write in the comment box, by how they scored. */
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

/** The invitation just sent, as the public pages find it by its link. */
export async function invitationOf(db: Db, token: string): Promise<Invitation> {
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
