import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationEvents, sesEvents } from '../src/db/schema/index.ts';
import { openSesEventsBed, type SesEventsBed, ses } from './ses-events-bed.ts';

// Concurrent events for one address on PostgreSQL (PGlite runs one transaction at a time): the
// address row's lock, taken first, keeps every count and suppresses exactly once.

describe.skipIf(!process.env.TEST_DATABASE_URL)('SES events: concurrent bounces for one address (pg)', () => {
  let bed: SesEventsBed;
  beforeAll(async () => {
    bed = await openSesEventsBed('pg');
  });
  afterAll(async () => bed?.close());

  it('10 transient bounces at once, each also sent twice: exact counts, suppressed once', async () => {
    const to = 'race@example.com';
    const events = Array.from({ length: 10 }, (_, i) =>
      ses.bounce(`race-${i}`, to, new Date(Date.UTC(2026, 1, 1, i)).toISOString(), 'Transient', 'MailboxFull'),
    );
    for (let i = 0; i < 10; i++) await bed.message(`race-${i}`, to);
    const answers = await Promise.all([...events, ...events].map((e) => bed.post(bed.signer.notification(e))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const sums = answers.map((a) => a.json().data as { inserted: number; duplicates: number });
    expect(sums.reduce((n, s) => n + s.inserted, 0)).toBe(10);
    expect(sums.reduce((n, s) => n + s.duplicates, 0)).toBe(10);
    const [rows] = await bed.database.db.select({ n: count() }).from(sesEvents).where(eq(sesEvents.recipient, to));
    expect(rows?.n).toBe(10);
    const row = await bed.suppression(to);
    expect(row).toMatchObject({ suppressed: true, reason: 'BOUNCE', bounceCount: 10 });
    // Suppressed once: exactly one event's timeline line says so, and each message got one line.
    const lines = await bed.database.db.select({ detail: notificationEvents.detail }).from(notificationEvents);
    expect(lines).toHaveLength(10);
    expect(lines.filter((l) => l.detail?.includes('now suppressed'))).toHaveLength(1);
  });
});
