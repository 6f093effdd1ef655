const WINDOW_MS = 60_000;
/** Keys kept before the windows of past minutes are dropped. */
const PRUNE_AT = 10_000;

/**
 * A fixed one-minute window per key, in this process's memory (see ingest.ts for why that is
 * enough here). `take` counts a call and answers null when it is allowed, else the whole seconds
 * until the next window opens (the `Retry-After` value).
 */
export function fixedWindowLimiter() {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key: string, limit: number, now: Date): number | null {
      const start = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
      if (windows.size > PRUNE_AT) {
        for (const [k, w] of windows) if (w.start < start) windows.delete(k);
      }
      const window = windows.get(key);
      if (!window || window.start !== start) {
        windows.set(key, { start, count: 1 });
        return null;
      }
      if (window.count >= limit) return Math.max(1, Math.ceil((start + WINDOW_MS - now.getTime()) / 1000));
      window.count += 1;
      return null;
    },
  };
}
