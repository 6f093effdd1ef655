import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of the Google Business Profile API for the review pull's tests (never the
 * internet): the OAuth token endpoint (refresh-token grant, JSON body) and
 * `GET /v4/accounts/{a}/locations/{l}/reviews` newest-updated first, paged by `pageToken`, with
 * one 429 (Retry-After: 0) on demand. Every request is recorded.
 */
export type FakeReview = {
  reviewId: string;
  reviewer: { displayName: string };
  starRating: 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE';
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
};

export type FakeGoogle = {
  url: string;
  refreshToken: string;
  /** Reviews per `accounts/{a}/locations/{l}`. */
  reviews: Map<string, FakeReview[]>;
  /** Answer the next reviews call 429 this many times. */
  tooMany: number;
  requests: { method: string; path: string; authorization: string | undefined }[];
  close(): Promise<void>;
};

const ACCESS_TOKEN = 'fake-access-token';

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeGoogle(refreshToken = 'fake-refresh-token'): Promise<FakeGoogle> {
  const fake: FakeGoogle = { url: '', refreshToken, reviews: new Map(), tooMany: 0, requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      fake.requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/token') {
        const body = JSON.parse((await bodyOf(req)) || '{}') as { grant_type?: string; refresh_token?: string; client_id?: string };
        if (body.grant_type !== 'refresh_token' || body.refresh_token !== fake.refreshToken || !body.client_id) {
          send(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        } else send(200, { access_token: ACCESS_TOKEN, expires_in: 3599, token_type: 'Bearer' });
        return;
      }
      const match = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/reviews$/.exec(url.pathname);
      if (req.method !== 'GET' || !match?.[1]) return send(404, { error: { code: 404, message: 'Not found' } });
      if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) return send(401, { error: { code: 401, message: 'Unauthenticated' } });
      if (fake.tooMany > 0) {
        fake.tooMany -= 1;
        return send(429, { error: { code: 429, message: 'Quota exceeded' } }, { 'retry-after': '0' });
      }
      const all = [...(fake.reviews.get(match[1]) ?? [])].sort((a, b) => b.updateTime.localeCompare(a.updateTime));
      const size = Math.min(50, Number(url.searchParams.get('pageSize') ?? 50));
      const from = Number(url.searchParams.get('pageToken') ?? 0);
      const page = all.slice(from, from + size);
      const next = from + size < all.length ? String(from + size) : undefined;
      send(200, { reviews: page, averageRating: 4.2, totalReviewCount: all.length, ...(next ? { nextPageToken: next } : {}) });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
