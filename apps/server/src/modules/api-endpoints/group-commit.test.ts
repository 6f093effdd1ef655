import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

/** A batch runner that records its batches and answers when `release` is called. */
function recorder() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const run = (items: number[]) => {
    batches.push(items);
    return new Promise<PromiseSettledResult<number>[]>((resolve) => {
      releases.push(() =>
        resolve(items.map((n) => (n < 0 ? { status: 'rejected', reason: new Error(`bad ${n}`) } : { status: 'fulfilled', value: n * 10 }))),
      );
    });
  };
  const releaseNext = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    releases.shift()?.();
  };
  return { batches, run, releaseNext };
}

/** A queue whose every batch takes `batchMs`, with the batches it ran. */
function slowQueue(batchMs: number, lingerMs: number, endWaitWhenBack = true) {
  const batches: number[][] = [];
  const queue = groupCommit<number, number>({
    run: async (items) => {
      batches.push(items);
      await new Promise((resolve) => setTimeout(resolve, batchMs));
      return items.map((n) => ({ status: 'fulfilled', value: n }));
    },
    weight: () => 1,
    limit: 10,
    lingerMs,
    endWaitWhenBack,
  });
  return { batches, queue };
}

describe('groupCommit', () => {
  it('runs an idle key at once, then takes everything that waited as one batch, in submit order', async () => {
    const r = recorder();
    const queue = groupCommit({ run: r.run, weight: () => 1, limit: 100, lingerMs: 0, endWaitWhenBack: true });
    const first = queue.submit(1, 1);
    expect(r.batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((n) => queue.submit(1, n));
    await r.releaseNext();
    await r.releaseNext();
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps keys apart, answers each item its own outcome, and cuts batches at the weight limit (one heavy item still runs)', async () => {
    const r = recorder();
    const queue = groupCommit({ run: r.run, weight: (n) => Math.abs(n), limit: 5, lingerMs: 0, endWaitWhenBack: true });
    const a = queue.submit(1, 1);
    const b = queue.submit(2, 2);
    expect(r.batches).toEqual([[1], [2]]);
    const waiting = [queue.submit(1, 3), queue.submit(1, -2), queue.submit(1, 9), queue.submit(1, 1)];
    const settled = Promise.allSettled(waiting);
    for (let i = 0; i < 5; i++) await r.releaseNext();
    expect(await a).toBe(10);
    expect(await b).toBe(20);
    const outcomes = await settled;
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(r.batches).toEqual([[1], [2], [3, -2], [9], [1]]);
  });

  it('rejects every item of a batch whose runner throws, and the key goes on', async () => {
    let calls = 0;
    const queue = groupCommit<number, number>({
      run: async (items) => {
        calls++;
        if (calls === 1) throw new Error('database away');
        return items.map((n) => ({ status: 'fulfilled', value: n }));
      },
      weight: () => 1,
      limit: 10,
      lingerMs: 0,
      endWaitWhenBack: true,
    });
    await expect(queue.submit(7, 1)).rejects.toThrow('database away');
    expect(await queue.submit(7, 2)).toBe(2);
  });

  it("waits a moment before a busy key's next batch, so callers coming back one by one meet in it", async () => {
    const { batches, queue } = slowQueue(40, 50);
    const first = queue.submit(3, 1);
    const second = queue.submit(3, 2);
    const third = queue.submit(3, 3);
    await Promise.all([first, second, third]);
    expect(batches).toEqual([[1], [2, 3]]);
    // The key ran a 40 ms batch of two just now: its next batch waits (at most about 20 ms) for
    // two callers and takes both.
    const fourth = queue.submit(3, 4);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(batches).toEqual([[1], [2, 3]]);
    const fifth = queue.submit(3, 5);
    await Promise.all([fourth, fifth]);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    // Another key has no recent batch: it runs at once.
    void queue.submit(4, 9);
    expect(batches).toEqual([[1], [2, 3], [4, 5], [9]]);
  });

  for (const endWaitWhenBack of [true, false]) {
    it(`${endWaitWhenBack ? 'ends the wait' : 'does not end the wait'} as soon as as many items wait as the last batch had (endWaitWhenBack ${endWaitWhenBack})`, async () => {
      const { batches, queue } = slowQueue(200, 10_000, endWaitWhenBack);
      await Promise.all([queue.submit(5, 1), queue.submit(5, 2), queue.submit(5, 3)]);
      expect(batches).toEqual([[1], [2, 3]]);
      // A wait of half the last batch's time, 100 ms, would still run; the second item may end it.
      const fourth = queue.submit(5, 4);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const fifth = queue.submit(5, 5);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(batches).toEqual(endWaitWhenBack ? [[1], [2, 3], [4, 5]] : [[1], [2, 3]]);
      await Promise.all([fourth, fifth]);
      expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    });
  }
});
