import { exportMoment, TESTIMONIAL_STATUS_LABELS, type Testimonial } from '@admin/shared';
import { HttpError } from '../../lib/http-error.ts';

/** The Testimonials Tool's CSV: its columns under their on-screen names. */
export const EXPORT_COLUMNS = [
  { key: 'date', label: 'Date' },
  { key: 'location', label: 'Location' },
  { key: 'survey', label: 'Survey' },
  { key: 'personnel', label: 'Personnel' },
  { key: 'display_name', label: 'Display name' },
  { key: 'rating', label: 'Score/stars' },
  { key: 'display_text', label: 'Comment' },
  { key: 'original_text', label: 'Original comment' },
  { key: 'consent', label: 'Consent' },
  { key: 'status', label: 'Status' },
  { key: 'featured', label: 'Featured' },
  { key: 'words', label: 'Words' },
] as const;

/** One testimonial as the export's cells: the date in the client's zone, labels instead of keys. */
export function exportRow(t: Testimonial, zone: string | null): Record<string, unknown> {
  return {
    date: exportMoment(t.submitted_at, zone),
    location: t.location_name ?? '',
    survey: t.survey_name,
    personnel: t.personnel_name ?? '',
    display_name: t.display_name,
    rating: t.rating === null ? '' : `${t.rating}/${t.rating_max ?? ''}`,
    display_text: t.display_text,
    original_text: t.original_text,
    consent: t.consent ? 'Yes' : 'No',
    status: TESTIMONIAL_STATUS_LABELS[t.status],
    featured: t.featured ? 'Yes' : 'No',
    words: t.words,
  };
}

/** The export's own keyset cursor between pages (`<submitted_at ISO>_<id>`, the last row of a page); never from a client. */
export function cursorOf(cursor: string): { at: string; id: number } {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_(\d{1,10})$/.exec(cursor);
  const at = match?.[1];
  const id = Number(match?.[2]);
  if (!at || Number.isNaN(Date.parse(at)) || !Number.isSafeInteger(id) || id > 2_147_483_647)
    throw new HttpError(400, 'The cursor is not one this export made.', { cursor: ['The cursor is not one this export made'] });
  return { at, id };
}
