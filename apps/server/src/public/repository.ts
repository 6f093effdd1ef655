import type { Answers, NpsClass, SurveyQuestion, SurveyType } from '@admin/shared/surveys/questions';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  clientSurveySettings,
  clients,
  emailOptOuts,
  locations,
  smsOptOuts,
  surveyProcessingItems,
  surveyResponses,
  surveys,
} from '../db/schema/index.ts';
import { afterResponseStored } from '../pipeline/response-stored.ts';
import { inviteToReview } from '../reputation/amplify/invite.ts';

/** What the public pages need of one invitation, found by its link token. */
export type Invitation = {
  itemId: number;
  clientId: number;
  clientName: string;
  locationId: string | null;
  locationName: string | null;
  reviewLinks: Record<string, string>;
  personnelId: number | null;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  /** The channel the invitation went out on (email, sms). */
  channel: string;
  expiresAt: Date;
  status: string;
  surveyId: number;
  surveyName: string;
  surveyType: SurveyType;
  questions: SurveyQuestion[];
  reviewSites: string[];
  testimonialConsentText: string | null;
  logoUrl: string | null;
  brandColor: string | null;
  /** Set once the link has been answered. */
  responseId: number | null;
  /** A Send test invitation: its response is recorded as a test, left out of every figure. */
  test: boolean;
  /** The lowest key score offered review sites when the survey is in threshold mode; null: every respondent. */
  reviewThreshold: number | null;
  /** The recorded response's key score, once the link has been answered. */
  keyScore: number | null;
};

const SURVEY_TYPES: readonly SurveyType[] = ['nps', 'csat', 'star', 'custom'];
const surveyTypeOf = (value: string): SurveyType => SURVEY_TYPES.find((t) => t === value) ?? 'custom';

/** The invitation behind a link token, or undefined for a token no invitation has. */
export async function findInvitation(db: Db, token: string): Promise<Invitation | undefined> {
  const [row] = await db
    .select({
      itemId: surveyProcessingItems.id,
      clientId: surveyProcessingItems.clientId,
      clientName: clients.name,
      locationId: surveyProcessingItems.locationId,
      locationName: locations.locationname,
      reviewLinks: locations.reviewLinks,
      personnelId: surveyProcessingItems.personnelId,
      firstName: surveyProcessingItems.firstName,
      lastName: surveyProcessingItems.lastName,
      email: surveyProcessingItems.email,
      phone: surveyProcessingItems.phone,
      channel: surveyProcessingItems.channel,
      expiresAt: surveyProcessingItems.expiresAt,
      status: surveyProcessingItems.status,
      surveyId: surveys.id,
      surveyName: surveys.name,
      surveyType: surveys.type,
      questions: surveys.questions,
      reviewSites: surveys.reviewSites,
      testimonialConsentText: surveys.testimonialConsentText,
      logoUrl: clientSurveySettings.logoUrl,
      brandColor: clientSurveySettings.brandColor,
      responseId: surveyResponses.id,
      test: sql<boolean>`${surveyProcessingItems.source} = 'manual_test'`,
      reviewThreshold: sql<number | null>`case when ${surveys.reviewInviteMode} = 'threshold' then ${surveys.reviewInviteThreshold} end`,
      keyScore: surveyResponses.keyScore,
    })
    .from(surveyProcessingItems)
    .innerJoin(surveys, eq(surveys.id, surveyProcessingItems.surveyId))
    .innerJoin(clients, eq(clients.id, surveyProcessingItems.clientId))
    .leftJoin(locations, eq(locations.id, surveyProcessingItems.locationId))
    .leftJoin(clientSurveySettings, eq(clientSurveySettings.clientId, surveyProcessingItems.clientId))
    .leftJoin(surveyResponses, eq(surveyResponses.processingItemId, surveyProcessingItems.id))
    .where(eq(surveyProcessingItems.token, token))
    .limit(1);
  if (!row) return undefined;
  return { ...row, surveyType: surveyTypeOf(row.surveyType), reviewLinks: row.reviewLinks ?? {} };
}

export type NewResponse = {
  answers: Answers;
  keyScore: number | null;
  npsClass: NpsClass | null;
  comment: string | null;
  testimonialConsent: boolean;
  submittedAt: Date;
};

/**
 * Records the response, marks the invitation `responded`, enqueues what follows a response
 * (pipeline/response-stored.ts) and invites the respondent to the offered review sites
 * (reputation/amplify/invite.ts), in one transaction. The unique index
 * on `processing_item_id` decides a race between two submits: the loser gets null.
 */
export async function recordResponse(db: Db, invitation: Invitation, response: NewResponse): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(surveyResponses)
      .values({
        processingItemId: invitation.itemId,
        surveyId: invitation.surveyId,
        clientId: invitation.clientId,
        locationId: invitation.locationId,
        personnelId: invitation.personnelId,
        keyScore: response.keyScore,
        npsClass: response.npsClass,
        comment: response.comment,
        answers: response.answers,
        questions: invitation.questions,
        testimonialConsent: response.testimonialConsent,
        test: invitation.test,
        submittedAt: response.submittedAt,
        updatedAt: response.submittedAt,
      })
      .onConflictDoNothing({ target: surveyResponses.processingItemId })
      .returning({ id: surveyResponses.id });
    if (!row) return null;
    await tx
      .update(surveyProcessingItems)
      .set({ status: 'responded', updatedAt: response.submittedAt })
      .where(eq(surveyProcessingItems.id, invitation.itemId));
    await afterResponseStored(tx, row.id, response.submittedAt);
    await inviteToReview(tx, invitation, row.id, response.keyScore, response.submittedAt);
    return row.id;
  });
}

/**
 * Opts the invitation's address and phone out of this client's messages (the sender refuses them,
 * apps/server/src/messaging/send.ts). One row per address or phone: one already opted out of another
 * client becomes opted out of every client (`client_id` null), the wider choice, never a narrower one.
 */
export async function optOut(db: Db, invitation: Invitation, at: Date): Promise<void> {
  const email = invitation.email?.trim().toLowerCase();
  const phone = invitation.phone?.trim();
  await db.transaction(async (tx) => {
    if (email)
      await tx
        .insert(emailOptOuts)
        .values({ email, clientId: invitation.clientId, source: 'unsubscribe_link', createdAt: at })
        .onConflictDoUpdate({
          target: emailOptOuts.email,
          set: { clientId: sql`case when ${emailOptOuts.clientId} = excluded.client_id then excluded.client_id else null end` },
        });
    if (phone)
      await tx
        .insert(smsOptOuts)
        .values({ phone, clientId: invitation.clientId, keyword: 'UNSUBSCRIBE', source: 'unsubscribe_link', createdAt: at })
        .onConflictDoUpdate({
          target: smsOptOuts.phone,
          set: { clientId: sql`case when ${smsOptOuts.clientId} = excluded.client_id then excluded.client_id else null end` },
        });
  });
}
