/**
 * Group commit by key (docs/decisions/078-ingest-group-commit.md): work submitted for a key while
 * that key's batch is running waits, and the next batch takes everything waiting, in the order it
 * was submitted, up to `limit` by weight (at least one item, however heavy). An idle key runs its
 * first item at once: no added wait when calls do not overlap.
 *
 * A key whose last batch ended moments ago (within LINGER_RECENT_MS) is busy: its callers come
 * back one by one as their answers arrive. Run at once, the first of them would be a batch of one
 * and the rest would wait for it (batches of 1 and 9 alternated for 10 callers, measured with
 * bench/pipeline/endpoint.ts). So such a key's every next batch starts after a short wait, half the
 * last batch's time and at most `lingerMs` (none when the waiting items already fill a batch), and
 * takes whoever came meanwhile.
 *
 * The lanes live in this process's memory: another process has its own, and whatever orders work
 * across processes (the admit lock of pipeline/admit.ts) still does.
 *
 * @example
 *   const admissions = groupCommit({ run: (calls) => admitCalls(db, clock, calls), weight: (c) => c.rowsRead, limit: 2000, lingerMs: 20 });
 *   const answer = await admissions.submit(clientId, call);
 */
export type GroupCommit<T, R> = { submit(key: number, item: T): Promise<R> };

/** How recently a key's last batch must have ended for its next batch to wait for company. */
const LINGER_RECENT_MS = 1_000;

type Waiting<T, R> = { item: T; resolve: (value: R) => void; reject: (reason: unknown) => void };

export function groupCommit<T, R>(options: {
  /** Runs one batch; answers each item's outcome, in the batch's order. */
  run: (items: T[]) => Promise<PromiseSettledResult<R>[]>;
  weight: (item: T) => number;
  limit: number;
  /** The longest a busy key's next batch waits for more items (0: never). */
  lingerMs: number;
}): GroupCommit<T, R> {
  const lanes = new Map<number, Waiting<T, R>[]>();
  /** When each key's last batch ended and how long it took (performance.now() ms). */
  const lastBatch = new Map<number, { endedAt: number; took: number }>();

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

  const drain = async (key: number, waiting: Waiting<T, R>[]) => {
    while (waiting.length > 0) {
      // Before every batch, not only a lane's first: otherwise the callers answered by one batch
      // come back while the few that waited run alone, and batches of 3 and 7 alternate for good.
      const linger = full(waiting) ? 0 : lingerFor(key);
      if (linger > 0) await new Promise((resolve) => setTimeout(resolve, linger));
      const batch = take(waiting);
      const started = performance.now();
      let settled: PromiseSettledResult<R>[];
      try {
        settled = await options.run(batch.map((entry) => entry.item));
      } catch (err) {
        settled = batch.map(() => ({ status: 'rejected', reason: err }));
      }
      lastBatch.set(key, { endedAt: performance.now(), took: performance.now() - started });
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
          lane.push({ item, resolve, reject });
          return;
        }
        const fresh = [{ item, resolve, reject }];
        lanes.set(key, fresh);
        void drain(key, fresh);
      });
    },
  };
}
