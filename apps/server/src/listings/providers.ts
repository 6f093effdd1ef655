import { z } from 'zod';
import type { ProvidersConfig } from '../config.ts';
import type { Found } from './compare.ts';
import { providerJson } from './http.ts';
import type { Hours } from './normalise.ts';
import { ALL_FIELDS, type ListingSource, type ScanTarget } from './sources.ts';

/**
 * The two real directories (reference-second-half.md C3): Google Places API (New) — Place Details
 * by a known place id, else Text Search — and Yelp Fusion business match. Answers are read
 * leniently (unknown fields ignored, a malformed place skipped); keys and base URLs are
 * `config.providers`.
 */

const PLACE_FIELDS = [
  'id',
  'displayName',
  'formattedAddress',
  'nationalPhoneNumber',
  'internationalPhoneNumber',
  'websiteUri',
  'regularOpeningHours',
  'googleMapsUri',
  'businessStatus',
];

const point = z.object({ day: z.number().int().min(0).max(6), hour: z.number().int().default(0), minute: z.number().int().default(0) });
const place = z.object({
  id: z.string().min(1).max(500),
  displayName: z.object({ text: z.string().max(500) }).optional(),
  formattedAddress: z.string().max(1000).optional(),
  nationalPhoneNumber: z.string().max(100).optional(),
  internationalPhoneNumber: z.string().max(100).optional(),
  websiteUri: z.string().max(2048).optional(),
  googleMapsUri: z.string().max(2048).optional(),
  regularOpeningHours: z.object({ periods: z.array(z.object({ open: point, close: point.optional() })).max(50) }).optional(),
});
type Place = z.infer<typeof place>;

const SUNDAY_FIRST = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const hhmm = (p: { hour: number; minute: number }) => `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;

/** Places' periods (day 0 = Sunday) as our week; "always open" (an open with no close) is every day all day. */
export function hoursOfPeriods(periods: NonNullable<Place['regularOpeningHours']>['periods']): Hours {
  const hours: Hours = Object.fromEntries(SUNDAY_FIRST.map((d) => [d, null]));
  for (const { open, close } of periods) {
    if (!close) return Object.fromEntries(SUNDAY_FIRST.map((d) => [d, { open: '00:00', close: '23:59' }]));
    const day = SUNDAY_FIRST[open.day] ?? 'sun';
    const before = hours[day];
    // A day split in two (lunch closed) reads as its first opening to its last closing.
    hours[day] = { open: before ? before.open : hhmm(open), close: hhmm(close) };
  }
  return hours;
}

const foundOfPlace = (p: Place): Found => ({
  externalId: p.id,
  url: p.googleMapsUri ?? null,
  name: p.displayName?.text ?? null,
  address: p.formattedAddress ?? null,
  phone: p.internationalPhoneNumber ?? p.nationalPhoneNumber ?? null,
  website: p.websiteUri ?? null,
  hours: p.regularOpeningHours ? hoursOfPeriods(p.regularOpeningHours.periods) : null,
  claimed: null,
});

const placesOf = (json: unknown): Place[] => {
  const list = z.object({ places: z.array(z.unknown()).max(50).optional() }).safeParse(json);
  return (list.success ? (list.data.places ?? []) : []).flatMap((p) => {
    const parsed = place.safeParse(p);
    return parsed.success ? [parsed.data] : [];
  });
};

export function googlePlacesSource(config: ProvidersConfig['googlePlaces'] & { apiKey: string }, allowPrivate: boolean): ListingSource {
  const common = { allowPrivate, provider: 'Google Places', headers: { 'X-Goog-Api-Key': config.apiKey } };
  return {
    directory: 'google',
    connected: true,
    provides: ALL_FIELDS,
    async lookup(target: ScanTarget) {
      const id = target.knownIds[0] ?? target.googlePlaceId;
      if (id) {
        const json = await providerJson({
          ...common,
          method: 'GET',
          url: `${config.apiUrl}/v1/places/${encodeURIComponent(id)}`,
          headers: { ...common.headers, 'X-Goog-FieldMask': PLACE_FIELDS.join(',') },
        });
        const found = place.safeParse(json);
        if (found.success) return [foundOfPlace(found.data)];
      }
      const json = await providerJson({
        ...common,
        method: 'POST',
        url: `${config.apiUrl}/v1/places:searchText`,
        headers: { ...common.headers, 'X-Goog-FieldMask': PLACE_FIELDS.map((f) => `places.${f}`).join(',') },
        body: { textQuery: `${target.canonical.name}, ${target.canonical.address}`, pageSize: 5 },
      });
      return placesOf(json).map(foundOfPlace);
    },
  };
}

const business = z.object({
  id: z.string().min(1).max(500),
  alias: z.string().max(500).optional(),
  name: z.string().max(500).optional(),
  phone: z.string().max(100).optional(),
  location: z.object({ display_address: z.array(z.string().max(500)).max(10).optional() }).optional(),
});

export function yelpSource(config: ProvidersConfig['yelp'] & { apiKey: string }, allowPrivate: boolean): ListingSource {
  return {
    directory: 'yelp',
    connected: true,
    // Business match answers name, address and phone; Yelp's API gives no website.
    provides: ['name', 'address', 'phone'],
    async lookup(target: ScanTarget) {
      const { parts, canonical } = target;
      const query = new URLSearchParams({
        name: canonical.name.slice(0, 64),
        address1: parts.address1.slice(0, 64),
        city: parts.city.slice(0, 64),
        state: parts.state,
        country: parts.country,
        zip_code: parts.postalCode,
        phone: canonical.phone,
        limit: '3',
      });
      const json = await providerJson({
        allowPrivate,
        provider: 'Yelp',
        method: 'GET',
        url: `${config.apiUrl}/v3/businesses/matches?${query}`,
        headers: { authorization: `Bearer ${config.apiKey}` },
      });
      const list = z.object({ businesses: z.array(z.unknown()).max(50).optional() }).safeParse(json);
      return (list.success ? (list.data.businesses ?? []) : []).flatMap((b): Found[] => {
        const parsed = business.safeParse(b);
        if (!parsed.success) return [];
        const y = parsed.data;
        return [
          {
            externalId: y.id,
            url: y.alias ? `https://www.yelp.com/biz/${encodeURIComponent(y.alias)}` : null,
            name: y.name ?? null,
            address: y.location?.display_address?.join(', ') ?? null,
            phone: y.phone && y.phone !== '' ? y.phone : null,
            website: null,
            hours: null,
            claimed: null,
          },
        ];
      });
    },
  };
}
