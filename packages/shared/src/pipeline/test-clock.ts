import { z } from 'zod';

/** `PUT /api/test-clock`: the time the pipeline's clock is to read now (browser tests only, `CLOCK_CONTROL=on`). */
export const testClockSetSchema = z.strictObject({
  now: z.iso.datetime({ offset: true, error: 'The Now field must be a date and time with its offset, e.g. 2026-11-23T09:00:00Z' }),
});

/** What the clock reads, how far it is from the real time, and how many due jobs the move ran. */
export const testClockSchema = z.object({ now: z.string(), offset_ms: z.number(), jobs_run: z.number() });
export type TestClock = z.infer<typeof testClockSchema>;
