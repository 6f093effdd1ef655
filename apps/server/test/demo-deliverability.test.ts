import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { demoFate } from '../src/deliverability/demo-events.ts';
import { countsAsTransient, suppressionFor, transientBurst } from '../src/deliverability/ses/policy.ts';
import { forwardStatus, STATUS_OF_EVENT } from '../src/deliverability/ses/rank.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Event = {
  notificationId: number | null;
  eventType: string;
  recipient: string;
  bounceType: string | null;
  bounceSubtype: string | null;
  eventAt: Date;
};

/**
 * The demo's SES events (apps/server/src/seed/deliverability.ts) went through the real ingest, so
 * what each screen shows follows from the events alone: each message's status, each address's
 * counts on SES Bounce and which addresses are suppressed are recomputed here from ses_events with
 * the policy's own functions and compared with what the ingest wrote.
 */
describe.each(testDatabaseKinds())('Demo data: SES events (%s)', (kind) => {
  let ctx: TestContext;
  let events: Event[];
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    const rows = rowsOf(
      await ctx.database.db.execute(sql`select notification_id, event_type, recipient, bounce_type, bounce_subtype, event_at
        from ses_events order by event_at, id`),
    );
    events = rows.map((r) => ({
      notificationId: r.notification_id === null ? null : Number(r.notification_id),
      eventType: String(r.event_type),
      recipient: String(r.recipient),
      bounceType: r.bounce_type === null ? null : String(r.bounce_type),
      bounceSubtype: r.bounce_subtype === null ? null : String(r.bounce_subtype),
      eventAt: new Date(String(r.event_at)),
    }));
  });
  afterAll(() => ctx.close());

  const byRecipient = () => {
    const map = new Map<string, Event[]>();
    for (const e of events) map.set(e.recipient, [...(map.get(e.recipient) ?? []), e]);
    return map;
  };

  it('every kind of event the demo promises is there, each about a message the outbox sent', () => {
    const kinds = new Set(events.map((e) => `${e.eventType} ${e.bounceType ?? ''} ${e.bounceSubtype ?? ''}`.trim()));
    for (const k of [
      'Send',
      'Delivery',
      'Open',
      'Click',
      'Complaint',
      'Bounce Permanent General',
      'Bounce Transient MailboxFull',
      'Bounce Transient General',
    ]) {
      expect(kinds, k).toContain(k);
    }
    expect(events.filter((e) => e.notificationId === null)).toEqual([]);
    // The share is the recipient's: an address whose fate is a hard bounce or a complaint has it.
    for (const [address, list] of byRecipient()) {
      if (demoFate(address) === 'hard_bounce')
        expect(
          list.some((e) => e.bounceType === 'Permanent'),
          address,
        ).toBe(true);
      if (demoFate(address) === 'complaint')
        expect(
          list.some((e) => e.eventType === 'Complaint'),
          address,
        ).toBe(true);
    }
  });

  it('every message with events has the status its events predict', async () => {
    const predicted = new Map<number, string>();
    for (const e of events) {
      const id = e.notificationId ?? 0;
      const status = STATUS_OF_EVENT[e.eventType];
      if (status) predicted.set(id, forwardStatus(predicted.get(id) ?? 'sent', status));
    }
    const rows = rowsOf(
      await ctx.database.db.execute(sql`select id, status from notification_logs where id in (select notification_id from ses_events)`),
    );
    expect(rows.length).toBe(predicted.size);
    const mismatched = rows.filter((r) => predicted.get(Number(r.id)) !== String(r.status));
    expect(mismatched).toEqual([]);
    expect(new Set(rows.map((r) => String(r.status)))).toEqual(
      new Set(['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained']),
    );
  });

  it('SES Bounce counts what SES Logs holds, and suppresses exactly the addresses the policy names', async () => {
    const rows = rowsOf(
      await ctx.database.db.execute(sql`select email, suppressed, reason, bounce_count, complaint_count from email_suppressions
        where email in (select recipient from ses_events)`),
    );
    const row = new Map(rows.map((r) => [String(r.email), r]));
    const expectedSuppressed: string[] = [];
    for (const [address, list] of byRecipient()) {
      const bounces = list.filter((e) => e.eventType === 'Bounce').length;
      const complaints = list.filter((e) => e.eventType === 'Complaint').length;
      const r = row.get(address);
      if (bounces + complaints === 0) {
        expect(r, address).toBeUndefined();
        continue;
      }
      expect([Number(r?.bounce_count), Number(r?.complaint_count)], address).toEqual([bounces, complaints]);
      const counted = list.filter((e) => countsAsTransient(e)).map((e) => e.eventAt);
      const policy = list.some((e) => suppressionFor({ ...e, complaintSubtype: null }, transientBurst(counted)) !== null);
      if (policy) expectedSuppressed.push(address);
    }
    const suppressed = rows.filter((r) => r.suppressed === true).map((r) => String(r.email));
    expect(suppressed.sort()).toEqual(expectedSuppressed.sort());
    // Hard bounces and complaints suppress; an auto-reply never does.
    expect(rows.some((r) => r.suppressed === true && r.reason === 'COMPLAINT')).toBe(true);
    const autoReplies = [...byRecipient()].filter(([a]) => demoFate(a) === 'auto_reply').map(([a]) => a);
    expect(autoReplies.length).toBeGreaterThan(0);
    for (const a of autoReplies) expect(row.get(a)?.suppressed, a).toBe(false);
  });

  it('SES Logs and SES Bounce answer the same numbers through their routes', async () => {
    const headers = bearer(await login(ctx.app, 'admin@example.com'));
    const bounced = events.find((e) => e.bounceType === 'Permanent');
    expect(bounced).toBeDefined();
    const address = bounced?.recipient ?? '';
    const logs = await ctx.app.inject({
      method: 'GET',
      url: `/api/ses-events?recipient=${encodeURIComponent(address)}&perPage=100`,
      headers,
    });
    expect(logs.statusCode).toBe(200);
    expect(logs.json<{ data: unknown[] }>().data.length).toBe(events.filter((e) => e.recipient === address).length);
    const list = await ctx.app.inject({ method: 'GET', url: `/api/email-suppressions?q=${encodeURIComponent(address)}`, headers });
    expect(list.statusCode).toBe(200);
    const [entry] = list.json<{ data: { email: string; suppressed: boolean }[] }>().data;
    expect(entry).toMatchObject({ email: address, suppressed: true });
  });
});
