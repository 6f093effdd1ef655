import { type Testimonial, type TestimonialQuery, type TestimonialStatus, wordCount } from '@admin/shared';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, locations, personnel, surveyResponses, surveys, testimonials } from '../../db/schema/index.ts';

export type TestimonialRow = typeof testimonials.$inferSelect;

/** The filters of the screen's query and of its export, as the server reads them. */
export type TestimonialFilters = { location?: string[]; survey?: number[]; startDate?: string; endDate?: string };

/** The spec's body, empty values left out, as filters (an empty list filters nothing). */
export function filtersOf(q: TestimonialQuery): TestimonialFilters {
  return {
    ...(q.location && q.location.length > 0 ? { location: q.location } : {}),
    ...(q.survey && q.survey.length > 0 ? { survey: q.survey } : {}),
    ...(q.startDate ? { startDate: q.startDate } : {}),
    ...(q.endDate ? { endDate: q.endDate } : {}),
  };
}

/** The conditions: the client's, then each filter given; days are the client's (its time zone). */
export function whereOf(clientId: number, f: TestimonialFilters): SQL | undefined {
  const zone = sql`(select ${clients.timezone} from ${clients} where ${clients.id} = ${clientId})`;
  return and(
    eq(testimonials.clientId, clientId),
    f.location ? inArray(testimonials.locationId, f.location) : undefined,
    f.survey ? inArray(testimonials.surveyId, f.survey) : undefined,
    f.startDate ? sql`${testimonials.submittedAt} >= (${f.startDate}::date::timestamp at time zone ${zone})` : undefined,
    f.endDate ? sql`${testimonials.submittedAt} < ((${f.endDate}::date + 1)::timestamp at time zone ${zone})` : undefined,
  );
}

/** A testimonial with the names the screen shows, newest first. */
export function selectTestimonials(db: Db, where: SQL | undefined) {
  return db
    .select({
      t: testimonials,
      locationName: locations.locationname,
      surveyName: surveys.name,
      personnelFirst: personnel.firstName,
      personnelLast: personnel.lastName,
      npsClass: surveyResponses.npsClass,
    })
    .from(testimonials)
    .innerJoin(surveys, eq(surveys.id, testimonials.surveyId))
    .innerJoin(surveyResponses, eq(surveyResponses.id, testimonials.responseId))
    .leftJoin(locations, eq(locations.id, testimonials.locationId))
    .leftJoin(personnel, eq(personnel.id, testimonials.personnelId))
    .where(where)
    .orderBy(desc(testimonials.submittedAt), desc(testimonials.id));
}

type Selected = Awaited<ReturnType<typeof selectTestimonials>>[number];

/** A key score's scale: NPS answers carry a class (0–10), star ratings do not (1–5). */
export const ratingMaxOf = (rating: number | null, npsClass: string | null): number | null =>
  rating === null ? null : npsClass !== null ? 10 : 5;

export function toTestimonial(s: Selected): Testimonial {
  const { t } = s;
  return {
    id: t.id,
    response_id: t.responseId,
    client_id: t.clientId,
    submitted_at: t.submittedAt.toISOString(),
    location_id: t.locationId,
    location_name: s.locationName,
    survey_id: t.surveyId,
    survey_name: s.surveyName,
    personnel_name: s.personnelFirst === null ? null : `${s.personnelFirst} ${s.personnelLast ?? ''}`.trim(),
    display_name: t.displayName,
    display_text: t.displayText,
    original_text: t.originalText,
    rating: t.rating,
    rating_max: ratingMaxOf(t.rating, s.npsClass),
    consent: t.consent,
    status: t.status as TestimonialStatus,
    featured: t.featured,
    words: wordCount(t.displayText),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** One testimonial of the client, with its names, or undefined. */
export async function findTestimonial(db: Db, clientId: number, id: number): Promise<Testimonial | undefined> {
  const [row] = await selectTestimonials(db, and(eq(testimonials.clientId, clientId), eq(testimonials.id, id))).limit(1);
  return row ? toTestimonial(row) : undefined;
}
