import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSuppressions, notificationEvents, sesEvents } from '../src/db/schema/index.ts';
import { testDatabaseKinds } from './helpers.ts';
import { openSesEventsBed, type SesEventsBed, ses } from './ses-events-bed.ts';

// What an ingested SES event does (issue 22, item 2): the message's status and timeline, and the
// suppression policy (domain.md §25), through the signed route.

const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 0, day, hour)).toISOString();

describe.each(testDatabaseKinds())('SES events: effects and the suppression policy (%s)', (kind) => {
  let bed: SesEventsBed;
  beforeAll(async () => {
    bed = await openSesEventsBed(kind);
  });
  afterAll(async () => bed?.close());

  const send = async (event: object) => {
    const res = await bed.post(bed.signer.notification(event));
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { inserted: number; duplicates: number };
  };

  it('a permanent bounce turns the Tracking Logs row bounced and suppresses the address; the next send is a suppressed row', async () => {
    const id = await bed.message('m-perm', 'Gone@Example.com');
    await send(ses.bounce('m-perm', 'Gone@Example.com', at(2), 'Permanent', 'General'));
    expect(await bed.statusOf(id)).toBe('bounced');
    const [event] = await bed.database.db.select().from(sesEvents).where(eq(sesEvents.messageId, 'm-perm'));
    expect(event).toMatchObject({
      recipient: 'gone@example.com',
      notificationId: id,
      bounceType: 'Permanent',
      configurationSet: 'surveys',
    });
    expect(event?.eventAt.toISOString()).toBe(at(2));
    const timeline = await bed.database.db.select().from(notificationEvents).where(eq(notificationEvents.notificationId, id));
    expect(timeline.map((t) => t.status)).toEqual(['bounced']);
    expect(timeline[0]?.detail).toMatch(/Permanent bounce .*550 5\.1\.1.*now suppressed/);
    expect(await bed.suppression('gone@example.com')).toMatchObject({
      suppressed: true,
      reason: 'BOUNCE',
      bounceCount: 1,
      lastBounceType: 'Permanent',
      lastBounceSubtype: 'General',
      lastDiagnosticCode: 'smtp; 550 5.1.1 user unknown',
      lastTemplate: 'How did we do?',
    });
    const next = await bed.app.messenger.send({ channel: 'email', type: 'survey_invite', to: 'gone@example.com', subject: 's', text: 't' });
    expect(next.status).toBe('suppressed');
  });

  it('transient bounces suppress at the third within 30 days; Transient General is not counted', async () => {
    const to = 'soft@example.com';
    await send(ses.bounce('t-1', to, at(1), 'Transient', 'MailboxFull'));
    await send(ses.bounce('t-g1', to, at(2), 'Transient', 'General'));
    await send(ses.bounce('t-g2', to, at(3), 'Transient', 'General'));
    await send(ses.bounce('t-2', to, at(5), 'Transient', 'MailboxFull'));
    expect(await bed.suppression(to)).toMatchObject({ suppressed: false, bounceCount: 4 });
    // The third counted one, 35 days after the first: no 30-day span holds three.
    await send(ses.bounce('t-3', to, at(36), 'Transient', 'MailboxFull'));
    expect((await bed.suppression(to))?.suppressed).toBe(false);
    // A late-arriving one dated between them completes a burst.
    await send(ses.bounce('t-4', to, at(20), 'Transient', 'MessageTooLarge'));
    expect(await bed.suppression(to)).toMatchObject({
      suppressed: true,
      reason: 'BOUNCE',
      bounceCount: 6,
      lastBounceSubtype: 'MailboxFull',
    });
  });

  it('a complaint suppresses (COMPLAINT) and turns the message complained', async () => {
    const id = await bed.message('m-c', 'angry@example.com', null);
    await send(ses.simple('Open', 'm-c', 'angry@example.com', at(1, 10)));
    await send(ses.complaint('m-c', 'angry@example.com', at(1, 11)));
    expect(await bed.statusOf(id)).toBe('complained');
    expect(await bed.suppression('angry@example.com')).toMatchObject({
      suppressed: true,
      reason: 'COMPLAINT',
      complaintCount: 1,
      bounceCount: 0,
    });
  });

  it('mirrors SES account suppression list bounces and complaints', async () => {
    await send(ses.bounce('m-a', 'listed@example.com', at(1), 'Undetermined', 'OnAccountSuppressionList'));
    expect(await bed.suppression('listed@example.com')).toMatchObject({ suppressed: true, reason: 'BOUNCE' });
    await send(ses.complaint('m-b', 'listed2@example.com', at(1), 'OnAccountSuppressionList'));
    expect(await bed.suppression('listed2@example.com')).toMatchObject({ suppressed: true, reason: 'COMPLAINT' });
  });

  it('never moves a status back: a delivery after an open leaves it opened; the same event twice is one row, counted once', async () => {
    const id = await bed.message('m-o', 'o@example.com');
    await send(ses.simple('Open', 'm-o', 'o@example.com', at(1, 12)));
    await send(ses.simple('Delivery', 'm-o', 'o@example.com', at(1, 11)));
    expect(await bed.statusOf(id)).toBe('opened');
    const timeline = await bed.database.db
      .select({ status: notificationEvents.status })
      .from(notificationEvents)
      .where(eq(notificationEvents.notificationId, id))
      .orderBy(asc(notificationEvents.at));
    expect(timeline.map((t) => t.status)).toEqual(['delivered', 'opened']);

    const bounce = ses.bounce('m-d', 'dup@example.com', at(4), 'Transient', 'MailboxFull');
    expect(await send(bounce)).toEqual({ inserted: 1, duplicates: 0 });
    // SNS retries reuse the message; a different SNS MessageId with the same SES event is still a duplicate.
    expect(await send(bounce)).toEqual({ inserted: 0, duplicates: 1 });
    const rows = await bed.database.db.select().from(sesEvents).where(eq(sesEvents.messageId, 'm-d'));
    expect(rows).toHaveLength(1);
    expect((await bed.suppression('dup@example.com'))?.bounceCount).toBe(1);
  });

  it('a released address is suppressed again only by an event after the release', async () => {
    const to = 'back@example.com';
    await send(ses.bounce('r-1', to, at(1), 'Permanent', 'General'));
    await bed.database.db
      .update(emailSuppressions)
      .set({ suppressed: false, releasedAt: new Date(at(10)), releaseReason: 'mailbox restored' })
      .where(eq(emailSuppressions.email, to));
    await send(ses.bounce('r-2', to, at(5), 'Permanent', 'General'));
    expect(await bed.suppression(to)).toMatchObject({ suppressed: false, bounceCount: 2 });
    await send(ses.bounce('r-3', to, at(11), 'Permanent', 'General'));
    expect(await bed.suppression(to)).toMatchObject({ suppressed: true, bounceCount: 3 });
  });
});
