import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FeedFileError, readFeedStream } from '../src/pipeline/ingest/parse.ts';

const options = { delimiter: 'comma' as const, hasHeader: true };

/** What a read ends with, or that it still had not ended after `ms`. */
const settled = (reading: Promise<unknown>, ms: number) =>
  Promise.race([
    reading.then(
      () => 'resolved',
      (err: unknown) => err,
    ),
    sleep(ms).then(() => `still waiting after ${ms} ms`),
  ]);

const good = (from: number, count: number) => Array.from({ length: count }, (_, i) => `Row${from + i},r${from + i}@example.com\n`).join('');

describe('readFeedStream on a file that arrives in pieces', () => {
  it('refuses a row it cannot read while its batches are being stored, though more of the file arrives after it', async () => {
    // As an upload arrives: good rows, then (while their batch is being stored) a bad one, then more pieces later.
    async function* arriving() {
      yield `name,email\n${good(1, 300)}`;
      yield '"Alex" Rivera,a@example.com\n';
      await sleep(100);
      for (let i = 0; i < 5; i++) {
        yield good(1000 + i * 10, 10);
        await sleep(5);
      }
    }
    const outcome = await settled(
      // Each batch takes a while to store, as a database write does.
      readFeedStream(arriving(), options, 100, () => sleep(20)),
      3000,
    );
    expect(outcome).toBeInstanceOf(FeedFileError);
  });

  it('after a batch failed, reads the rest of an upload to its end without judging it, so its sender gets the answer', async () => {
    let pieces = 0;
    async function* arriving() {
      yield `name,email\n${good(1, 300)}`;
      pieces++;
      await sleep(50);
      // Past the failed batch: a piece that is not text, then more; a stopped reader only drops them.
      for (const piece of ['Bad\u0000Row,x@example.com\n', good(500, 10), good(600, 10)]) {
        yield piece;
        pieces++;
        await sleep(5);
      }
    }
    const outcome = await settled(
      readFeedStream(arriving(), options, 100, async () => {
        throw new Error('run given up');
      }),
      3000,
    );
    expect(outcome).toMatchObject({ message: 'run given up' });
    expect(pieces).toBe(4);
  });
});
