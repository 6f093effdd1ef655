import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertTestFeed } from '../../../test/feed-fixture.ts';
import { openDemoDatabase } from '../../../test/helpers.ts';
import type { Database } from '../../db/client.ts';
import { dataFeedRowErrors } from '../../db/schema/index.ts';
import { movableClock } from '../clock.ts';
import { runFeed } from './run.ts';

// The database refusing one batch (here: any batch holding a row named Boom) must not lose it silently.
vi.mock('../admit.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../admit.ts')>();
  return {
    ...real,
    admitRows: (async (tx, ctx, rows, now) => {
      if (rows.some((r) => r.firstName === 'Boom')) throw new Error('value out of range');
      return real.admitRows(tx, ctx, rows, now);
    }) satisfies typeof real.admitRows,
  };
});

describe('runFeed with a batch the database refuses', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDemoDatabase('pglite');
  });
  afterAll(() => database?.close());

  it('stores that batch’s rows as refused with the reason and admits the other batches', async () => {
    const feed = await insertTestFeed(database.db, 'Batch test');
    // 2,000 rows fill the first batch; the 2,001st (Boom) is in the second.
    const records = Array.from({ length: 2001 }, (_, i) => ({
      rowNumber: i + 1,
      raw: {
        first_name: i === 2000 ? 'Boom' : `Row${i + 1}`,
        email: `batch${i + 1}@example.com`,
        transaction_id: `BATCH-${i + 1}`,
        transaction_date: '2026-11-20',
      },
    }));
    const result = await runFeed({ db: database.db, clock: movableClock(new Date('2026-11-20T15:00:00Z')) }, feed, {
      source: 'csv_upload',
      sourceName: 'batch.csv',
      records,
      startedBy: null,
    });
    expect(result?.run).toMatchObject({ status: 'partial', rows_read: 2001, rows_invalid: 1, error: null });
    expect(result?.outcomes).toHaveLength(2000);
    const stored = await database.db
      .select()
      .from(dataFeedRowErrors)
      .where(eq(dataFeedRowErrors.runId, result?.run.id ?? 0));
    expect(stored).toMatchObject([{ rowNumber: 2001, message: 'The row could not be admitted: value out of range' }]);
    expect(stored[0]?.raw.first_name).toBe('Boom');
  });
});
