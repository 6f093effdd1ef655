import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local fakes of the two listing providers (reference-second-half.md C3), for tests and the bench:
 * Google Places API (New) Text Search and Place Details, and Yelp Fusion business match. Each
 * checks its key and (Places) the field mask as the real ones do, answers from the businesses the
 * test registers (found by the name the query starts with), and records every request.
 */

export type FakeBusiness = {
  name: string;
  address: string;
  phone: string;
  website?: string;
  /** Places periods' shape is built from these (day 0 = Sunday). */
  hours?: Record<string, { open: string; close: string } | null>;
};

export const PLACES_KEY = 'test-places-key';
export const YELP_KEY = 'test-yelp-key';
const SUNDAY_FIRST = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export type FakeProviders = {
  placesUrl: string;
  yelpUrl: string;
  /** Businesses by lower-case name; several under one name are duplicates. */
  businesses: Map<string, FakeBusiness[]>;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** Answers the next N requests with 429 (Retry-After: 0), then normally. */
  throttleNext(n: number): void;
  close(): Promise<void>;
};

const periodsOf = (hours: FakeBusiness['hours']) =>
  Object.entries(hours ?? {}).flatMap(([day, h]) => {
    const d = SUNDAY_FIRST.indexOf(day);
    if (!h || d < 0) return [];
    const at = (t: string) => ({ day: d, hour: Number(t.slice(0, 2)), minute: Number(t.slice(3, 5)) });
    return [{ open: at(h.open), close: at(h.close) }];
  });

const placeOf = (b: FakeBusiness, id: string) => ({
  id,
  displayName: { text: b.name, languageCode: 'en' },
  formattedAddress: `${b.address}, USA`,
  nationalPhoneNumber: b.phone,
  ...(b.website ? { websiteUri: b.website } : {}),
  ...(b.hours ? { regularOpeningHours: { openNow: true, periods: periodsOf(b.hours) } } : {}),
  googleMapsUri: `https://maps.google.com/?cid=${id}`,
  businessStatus: 'OPERATIONAL',
});

const idOf = (name: string, i: number) => `place_${name.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${i}`;

export async function startFakeProviders(): Promise<FakeProviders> {
  const businesses = new Map<string, FakeBusiness[]>();
  const requests: FakeProviders['requests'] = [];
  let throttled = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (throttled > 0) {
        throttled--;
        return send(429, { error: { code: 429, message: 'Resource has been exhausted' } }, { 'retry-after': '0' });
      }
      const byName = (name: string) => businesses.get(name.trim().toLowerCase()) ?? [];
      if (url.pathname.startsWith('/v1/places')) {
        if (req.headers['x-goog-api-key'] !== PLACES_KEY) return send(403, { error: { code: 403, message: 'API key not valid' } });
        if (!req.headers['x-goog-fieldmask']) return send(400, { error: { code: 400, message: 'FieldMask is a required parameter' } });
        if (req.method === 'POST' && url.pathname === '/v1/places:searchText') {
          const { textQuery } = JSON.parse(body || '{}') as { textQuery?: string };
          const name = (textQuery ?? '').split(',')[0] ?? '';
          return send(200, { places: byName(name).map((b, i) => placeOf(b, idOf(name, i))) });
        }
        const id = decodeURIComponent(url.pathname.slice('/v1/places/'.length));
        for (const [name, list] of businesses) {
          const i = list.findIndex((_, n) => idOf(name, n) === id);
          const found = list[i];
          if (found) return send(200, placeOf(found, id));
        }
        return send(404, { error: { code: 404, message: 'Not found' } });
      }
      if (url.pathname === '/v3/businesses/matches') {
        if (req.headers.authorization !== `Bearer ${YELP_KEY}`) return send(401, { error: { code: 'UNAUTHORIZED' } });
        const name = url.searchParams.get('name') ?? '';
        for (const required of ['name', 'address1', 'city', 'state', 'country'])
          if (!url.searchParams.get(required)) return send(400, { error: { code: 'VALIDATION_ERROR', field: required } });
        return send(200, {
          businesses: byName(name).map((b, i) => ({
            id: `yelp_${idOf(name, i)}`,
            alias: idOf(name, i).replace(/_/g, '-'),
            name: b.name,
            phone: b.phone.startsWith('+') ? b.phone : `+1${b.phone.replace(/\D/g, '')}`,
            location: { display_address: b.address.split(', ') },
          })),
        });
      }
      send(404, { error: 'no such path' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    placesUrl: base,
    yelpUrl: base,
    businesses,
    requests,
    throttleNext: (n) => {
      throttled = n;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
