import type { Clock } from '../../pipeline/types.ts';

/**
 * The widget feed's answers kept in memory for a few seconds, per client, location and limit:
 * embedded on a busy site, the same few feeds are asked for many times a second, and on the
 * embedded database every request waits for its one connection (bench/testimonials: p90 27–39 ms
 * under 10 concurrent callers without it). A change made through this server's Testimonials Tool
 * forgets the client's answers at once; any other change (another process, a client archived)
 * shows within FEED_CACHE_MS, well inside the minute the feed tells browsers and CDNs to keep it.
 */
export const FEED_CACHE_MS = 5_000;
const MAX_ENTRIES = 5_000;

export type FeedAnswer = { body: string; etag: string };

export type FeedCache = {
  /** The kept answer for this feed, unless it was kept FEED_CACHE_MS ago or more (by the app's clock). */
  kept(clientId: number, locationId: string | undefined, limit: number): FeedAnswer | null;
  keep(clientId: number, locationId: string | undefined, limit: number, answer: FeedAnswer): void;
  /** Forgets every kept answer of a client (one of its testimonials changed). */
  forget(clientId: number): void;
};

export function createFeedCache(clock: Clock): FeedCache {
  const entries = new Map<string, FeedAnswer & { clientId: number; at: number }>();
  const keyOf = (clientId: number, locationId: string | undefined, limit: number) => `${clientId}|${locationId ?? ''}|${limit}`;
  return {
    kept(clientId, locationId, limit) {
      const entry = entries.get(keyOf(clientId, locationId, limit));
      const age = clock.now().getTime() - (entry?.at ?? 0);
      // A clock moved back (tests move it) makes the age negative: not trusted either.
      return entry && age >= 0 && age < FEED_CACHE_MS ? entry : null;
    },
    keep(clientId, locationId, limit, answer) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(keyOf(clientId, locationId, limit), { ...answer, clientId, at: clock.now().getTime() });
    },
    forget(clientId) {
      for (const [key, entry] of entries) if (entry.clientId === clientId) entries.delete(key);
    },
  };
}
