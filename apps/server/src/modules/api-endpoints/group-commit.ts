/**
 * Group commit by key (docs/decisions/078-ingest-group-commit.md): work submitted for a key while
 * that key's batch is running waits, and the next batch takes everything waiting, in the order it
 * was submitted, up to `limit` by weight (at least one item, however heavy). An idle key runs its
 * first item at once: no added wait when calls do not overlap.
 *
 * A key whose last batch ended moments ago (within LINGER_RECENT_MS) is busy: its callers come
 * back one by one as their answers arrive. Run at once, the first of them would be a batch of one
 * and the rest would wait for it (batches of 1 and 9 alternated for 10 callers, measured with
 * bench/pipeline/endpoint.ts). So such a key's every next batch waits for them, for half the last
 * batch's time and at most `lingerMs`; not at all when the waiting items already fill a batch.
 *
 * With `endWaitWhenBack`, the wait also ends as soon as as many items wait as the last batch had
 * (the callers it answered are back): on PostgreSQL, a wait that always ran its full time left the
 * database idle between batches. Not on PGlite: there the callers' own reads queue behind the
 * batch on the one connection, and only the wait lets them catch up. Ended early, the batches
 * shrank to one call each and the bench fell from 78 to 30 calls/s (bench/README.md).
 *
 * The lanes live in this process's memory: another process has its own, and whatever orders work
 * across processes (the admit lock of pipeline/admit.ts) still does.
 *
 * @example
 *   const admissions = groupCommit({ run: (calls) => admitCalls(db, clock, calls), weight: (c) => c.rowsRead, limit: 2000, lingerMs: 20, endWaitWhenBack: true });
 *   const answer = await admissions.submit(clientId, call);
 */
export type GroupCommit<T, R> = { submit(key: number, item: T): Promise<R> };

/** How recently a key's last batch must have ended for its next batch to wait for company. */
const LINGER_RECENT_MS = 1_000;

type Waiting<T, R> = { item: T; resolve: (value: R) => void; reject: (reason: unknown) => void };
/** A key's waiting items, and while its next batch lingers, what ends the wait early. */
type Lane<T, R> = { waiting: Waiting<T, R>[]; wake: { until: number; now: () => void } | null };

export function groupCommit<T, R>(options: {
  /** Runs one batch; answers each item's outcome, in the batch's order. */
  run: (items: T[]) => Promise<PromiseSettledResult<R>[]>;
  weight: (item: T) => number;
  limit: number;
  /** The longest a busy key's next batch waits for more items (0: never). */
  lingerMs: number;
  /** Whether that wait ends once as many items wait as the last batch had (see above). */
  endWaitWhenBack: boolean;
}): GroupCommit<T, R> {
  const lanes = new Map<number, Lane<T, R>>();
  /** When each key's last batch ended, how long it took (performance.now() ms) and how many items it had. */
  const lastBatch = new Map<number, { endedAt: number; took: number; size: number }>();

  const lingerFor = (key: number) => {
    const last = lastBatch.get(key);
    if (!last || performance.now() - last.endedAt > LINGER_RECENT_MS) return 0;
    return Math.min(options.lingerMs, last.took / 2);
  };

  const take = (waiting: Waiting<T, R>[]) => {
    let count = 0;
    let weight = 0;
    for (const entry of waiting) {
      weight += options.weight(entry.item);
      if (count > 0 && weight > options.limit) break;
      count++;
    }
    return waiting.splice(0, count);
  };

  const full = (waiting: Waiting<T, R>[]) => waiting.reduce((sum, entry) => sum + options.weight(entry.item), 0) >= options.limit;

  /** Resolves after `ms`, or as soon as `until` items wait in the lane. */
  const linger = (lane: Lane<T, R>, ms: number, until: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake(), ms);
      const wake = () => {
        clearTimeout(timer);
        lane.wake = null;
        resolve();
      };
      lane.wake = { until, now: wake };
    });

  const drain = async (key: number, lane: Lane<T, R>) => {
    const { waiting } = lane;
    while (waiting.length > 0) {
      // Before every batch, not only a lane's first: otherwise the callers answered by one batch
      // come back while the few that waited run alone, and batches of 3 and 7 alternate for good.
      const wait = full(waiting) ? 0 : lingerFor(key);
      // Without endWaitWhenBack, a wait no number of items can end.
      const expected = options.endWaitWhenBack ? (lastBatch.get(key)?.size ?? 0) : Number.POSITIVE_INFINITY;
      if (wait > 0 && waiting.length < expected) await linger(lane, wait, expected);
      const batch = take(waiting);
      const started = performance.now();
      let settled: PromiseSettledResult<R>[];
      try {
        settled = await options.run(batch.map((entry) => entry.item));
      } catch (err) {
        settled = batch.map(() => ({ status: 'rejected', reason: err }));
      }
      lastBatch.set(key, { endedAt: performance.now(), took: performance.now() - started, size: batch.length });
      batch.forEach((entry, i) => {
        const outcome = settled[i];
        if (outcome?.status === 'fulfilled') entry.resolve(outcome.value);
        else entry.reject(outcome ? outcome.reason : new Error('The batch answered fewer items than it was given'));
      });
    }
    // Nothing waits: the check above and this delete run in one turn of the event loop, so no
    // submit can slip in between and find a lane nobody drains.
    lanes.delete(key);
    // Keys of clients no longer calling are forgotten, so the map stays as small as the busy ones.
    if (lastBatch.size > 1_000) {
      for (const [k, last] of lastBatch) if (performance.now() - last.endedAt > LINGER_RECENT_MS) lastBatch.delete(k);
    }
  };

  return {
    submit(key, item) {
      return new Promise<R>((resolve, reject) => {
        const lane = lanes.get(key);
        if (lane) {
          lane.waiting.push({ item, resolve, reject });
          if (lane.wake && lane.waiting.length >= lane.wake.until) lane.wake.now();
          return;
        }
        const fresh: Lane<T, R> = { waiting: [{ item, resolve, reject }], wake: null };
        lanes.set(key, fresh);
        void drain(key, fresh);
      });
    },
  };
}
