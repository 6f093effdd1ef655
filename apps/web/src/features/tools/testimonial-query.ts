import type { TestimonialQuery } from '@admin/shared';
import { SELECTED_ALL } from '@admin/shared/constants';

/** The Testimonials Tool's filters as chosen on screen: option values, `selected all`, days `yyyy-MM-dd` or ''. */
export type TestimonialFilterState = { location: string[]; survey: string[]; startDate: string; endDate: string };

export const NO_FILTERS: TestimonialFilterState = { location: [], survey: [], startDate: '', endDate: '' };

/**
 * The body of `POST /api/survey-comments-testimonials`, or null when the query may not run: the
 * spec runs it only when a location, a survey, or both dates are set, and leaves empty values out
 * (original-spec.md §4, §5). "Selected All" stands for every option offered.
 */
export function testimonialQueryOf(
  f: TestimonialFilterState,
  all: { locations: readonly string[]; surveys: readonly string[] },
): TestimonialQuery | null {
  const location = f.location.includes(SELECTED_ALL) ? [...all.locations] : f.location;
  const survey = (f.survey.includes(SELECTED_ALL) ? [...all.surveys] : f.survey).map(Number);
  const dates = f.startDate !== '' && f.endDate !== '';
  if (location.length === 0 && survey.length === 0 && !dates) return null;
  return {
    ...(location.length > 0 ? { location } : {}),
    ...(survey.length > 0 ? { survey } : {}),
    ...(dates ? { startDate: f.startDate, endDate: f.endDate } : {}),
  };
}

/** The same filters as the export's query string. */
export function exportQueryOf(q: TestimonialQuery | null): Record<string, string | string[]> {
  if (!q) return {};
  return {
    ...(q.location ? { location: q.location } : {}),
    ...(q.survey ? { survey: q.survey.map(String) } : {}),
    ...(q.startDate && q.endDate ? { startDate: q.startDate, endDate: q.endDate } : {}),
  };
}
