/**
 * Group commit by key (docs/decisions/078-ingest-group-commit.md): work submitted for a key while
 * that key's batch is running waits, and the next batch takes everything waiting, in the order it
 * was submitted, up to `limit` by weight (at least one item, however heavy). An idle key runs its
 * first item at once: no timer, no added wait when calls do not overlap.
 *
 * The lanes live in this process's memory: another process has its own, and whatever orders work
 * across processes (the admit lock of pipeline/admit.ts) still does.
 *
 * @example
 *   const admissions = groupCommit({ run: (calls) => admitCalls(deps, calls), weight: (c) => c.rows, limit: 2000 });
 *   const answer = await admissions.submit(clientId, call);
 */
export type GroupCommit<T, R> = { submit(key: number, item: T): Promise<R> };

type Waiting<T, R> = { item: T; resolve: (value: R) => void; reject: (reason: unknown) => void };

export function groupCommit<T, R>(options: {
  /** Runs one batch; answers each item's outcome, in the batch's order. */
  run: (items: T[]) => Promise<PromiseSettledResult<R>[]>;
  weight: (item: T) => number;
  limit: number;
}): GroupCommit<T, R> {
  const lanes = new Map<number, Waiting<T, R>[]>();

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

  const drain = async (key: number, waiting: Waiting<T, R>[]) => {
    while (waiting.length > 0) {
      const batch = take(waiting);
      let settled: PromiseSettledResult<R>[];
      try {
        settled = await options.run(batch.map((entry) => entry.item));
      } catch (err) {
        settled = batch.map(() => ({ status: 'rejected', reason: err }));
      }
      batch.forEach((entry, i) => {
        const outcome = settled[i];
        if (outcome?.status === 'fulfilled') entry.resolve(outcome.value);
        else entry.reject(outcome ? outcome.reason : new Error('The batch answered fewer items than it was given'));
      });
    }
    // Nothing waits: the check above and this delete run in one turn of the event loop, so no
    // submit can slip in between and find a lane nobody drains.
    lanes.delete(key);
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
