import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { surveyProcessingItems, surveyResponses, testimonials } from '../../db/schema/index.ts';
import type { Jobs } from '../../pipeline/types.ts';

/** The queue apps/server/src/pipeline/response-stored.ts fills, one job per stored response. */
export const MAKE_TESTIMONIAL_QUEUE = 'make-testimonial';

/** "Maria G.": the first name and the surname's initial, the only personal data a testimonial carries. */
export function displayNameOf(firstName: string, lastName: string | null): string {
  const first = firstName.trim() || 'Customer';
  const initial = (lastName ?? '').trim().charAt(0).toUpperCase();
  return initial ? `${first} ${initial}.` : first;
}

/**
 * A response given with a comment and consent, not a test answer, becomes a `pending` testimonial
 * (pipeline.md "Testimonials"). Answers the new testimonial's id, or null when the response makes
 * none or already made one: the unique index on the response makes a retried job a no-op.
 */
export async function makeTestimonial(db: Db, responseId: number, now: Date): Promise<number | null> {
  const [row] = await db
    .select({ response: surveyResponses, firstName: surveyProcessingItems.firstName, lastName: surveyProcessingItems.lastName })
    .from(surveyResponses)
    .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId))
    .where(eq(surveyResponses.id, responseId))
    .limit(1);
  if (!row) return null;
  const { response } = row;
  const comment = (response.comment ?? '').trim();
  if (!comment || !response.testimonialConsent || response.test) return null;
  const [made] = await db
    .insert(testimonials)
    .values({
      responseId: response.id,
      clientId: response.clientId,
      locationId: response.locationId,
      surveyId: response.surveyId,
      personnelId: response.personnelId,
      displayName: displayNameOf(row.firstName, row.lastName),
      originalText: comment,
      displayText: comment,
      rating: response.keyScore,
      consent: true,
      status: 'pending',
      submittedAt: response.submittedAt,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: testimonials.responseId })
    .returning({ id: testimonials.id });
  return made?.id ?? null;
}

/** Registers the handler; a worker (`npm start` or `npm run worker`) runs it (pipeline/worker.ts). */
export function registerMakeTestimonial(jobs: Jobs, db: Db): void {
  jobs.register(MAKE_TESTIMONIAL_QUEUE, async (payload, job) => {
    const responseId = Number(payload.responseId);
    if (!Number.isSafeInteger(responseId) || responseId <= 0) return;
    await makeTestimonial(db, responseId, job.now);
  });
}
