import { REVIEW_SITES } from '../constants.ts';
import { validate } from '../validation/index.ts';

/**
 * A location's opening hours and review links (docs/screens.md, Locations: `hours[]` as `date_format:HH:mm`
 * pairs, `review_links[site]` as `url`). Their own module so screens that only list locations do
 * not load the validation library.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};
export const REVIEW_SITE_CODES = REVIEW_SITES.map((s) => s.value);

export type Hours = Partial<Record<Weekday, { open: string; close: string } | null>>;
export type ReviewLinks = Partial<Record<string, string | null>>;

const TIME_RULES = 'required|date_format:HH:mm';
const LINK_RULES = 'url|max:2048';

/**
 * Checks hours and review links with the form's rules. Errors are keyed by path
 * (`hours.mon.open`, `review_links.google`), the way the form and the API name them.
 */
export async function checkLocationExtras(body: { hours?: Hours | null; review_links?: ReviewLinks }): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const day of WEEKDAYS) {
    const slot = body.hours?.[day];
    if (!slot) continue;
    const label = WEEKDAY_LABELS[day];
    for (const end of ['open', 'close'] as const) {
      const r = await validate(slot[end], TIME_RULES, { name: `${label} ${end === 'open' ? 'opening' : 'closing'} time` });
      if (!r.valid) errors[`hours.${day}.${end}`] = r.errors;
    }
    if (!errors[`hours.${day}.open`] && !errors[`hours.${day}.close`] && slot.close <= slot.open) {
      errors[`hours.${day}.close`] = [`The ${label} closing time must be after the opening time`];
    }
  }
  for (const site of REVIEW_SITES) {
    const url = body.review_links?.[site.value];
    if (url === undefined || url === null || url.trim() === '') continue;
    const r = await validate(url.trim(), LINK_RULES, { name: `${site.label} review link` });
    if (!r.valid) errors[`review_links.${site.value}`] = r.errors;
  }
  return errors;
}
