import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Requests being answered, so the workers' background batches on the embedded database let them
 * go first (docs/decisions/036-foreground-first.md). PGlite answers one statement at a time on the
 * server's own thread, so each of a request's few short queries can wait behind a feed run's
 * ~30 ms batch. Between two batches a worker waits until no request that started recently is still
 * open. Long requests (an export, an upload still arriving) do not hold it: they are older than
 * RECENT_MS. bench/stall measured this together with the Sent-count index, not apart.
 */
export type Foreground = {
  /** Counts a request as open until its response is closed (sent, failed or aborted). */
  track(response: { once(event: 'close', listener: () => void): unknown }): void;
  /** Resolves once no recent request is open, or after `maxWaitMs` at the latest (background work is slowed, never stopped). */
  quiet(maxWaitMs: number): Promise<void>;
};

/** A request open longer than this is long-running (an export, an upload) and no longer waited for. */
export const RECENT_MS = 2_000;
const POLL_MS = 2;

export function createForeground(now: () => number = () => performance.now()): Foreground {
  const open = new Map<symbol, number>();
  const busy = () => {
    const since = now() - RECENT_MS;
    for (const started of open.values()) if (started >= since) return true;
    return false;
  };
  return {
    track(response) {
      const key = Symbol('request');
      open.set(key, now());
      response.once('close', () => open.delete(key));
    },
    async quiet(maxWaitMs) {
      const until = now() + maxWaitMs;
      while (busy() && now() < until) await sleep(POLL_MS);
    },
  };
}
