import type { NotificationLogDetail } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsStatusEvents } from '../src/db/schema/index.ts';
import { ingestSesEvent } from '../src/deliverability/ses/ingest.ts';
import { errorText, recordStatus } from '../src/deliverability/sms/store.ts';
import { createMessenger } from '../src/messaging/send.ts';
import type { EmailTransport, SmsTransport } from '../src/messaging/transports.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const SENT_AT = new Date('2021-07-01T10:00:00Z');
const at = (seconds: number) => new Date(SENT_AT.getTime() + seconds * 1000).toISOString();

/** An SES event as event publishing writes it (the parts the timeline reads, and the mail around them). */
const sesEvent = (messageId: string, to: string, eventType: string, part: string, body: Record<string, unknown>) => ({
  eventType,
  mail: { timestamp: SENT_AT.toISOString(), source: 'demo@example.com', messageId, destination: [to], commonHeaders: { subject: 'Hi' } },
  [part]: body,
});

const idOf = (n: number): EmailTransport => ({
  name: 'ses-like',
  send: async () => ({ providerMessageId: `ses-${n}`, detail: '250 Ok' }),
  close: () => {},
});
const smsSid: SmsTransport = { name: 'twilio-like', send: async () => ({ providerMessageId: 'SM0001', detail: 'Accepted (queued)' }) };

describe.each(testDatabaseKinds())('Tracking Logs detail: the event timeline (%s)', (kind) => {
  let ctx: TestContext;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    headers = bearer(await login(ctx.app, 'admin@example.com'));
  });
  afterAll(() => ctx.close());

  const detail = async (id: number): Promise<NotificationLogDetail> => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/notifications-logs/${id}`, headers });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: NotificationLogDetail }>().data;
  };
  const ingest = (event: unknown) => ingestSesEvent(ctx.database.db, event, { snsMessageId: null, now: new Date(at(7200)) });
  const send = (n: number, to: string) =>
    createMessenger(ctx.database.db, ctx.config.messaging, { now: () => SENT_AT, email: idOf(n) }).send({
      channel: 'email',
      type: 'system',
      to,
      subject: 'Hi',
      text: 'x',
    });

  it('merges the status history with SES events, oldest first, each in words, and links to the address', async () => {
    const to = 'timeline.reader@example.com';
    const sent = await send(1, to);
    // Out of order, as SES delivers them: the click first.
    await ingest(
      sesEvent('ses-1', to, 'Click', 'click', {
        timestamp: at(600),
        userAgent: 'Mozilla/5.0 (iPhone)',
        link: 'https://survey.example.com/s/abc',
      }),
    );
    await ingest(sesEvent('ses-1', to, 'Send', 'send', { timestamp: at(1) }));
    await ingest(
      sesEvent('ses-1', to, 'Delivery', 'delivery', { timestamp: at(4), recipients: [to], smtpResponse: '250 2.0.0 OK accepted' }),
    );
    await ingest(sesEvent('ses-1', to, 'Open', 'open', { timestamp: at(300), userAgent: 'Mozilla/5.0 (Macintosh)' }));

    const d = await detail(sent.id);
    expect(d.delivery_status).toBe('clicked');
    expect(d.timeline.map((e) => [e.source, e.title])).toEqual([
      ['status', 'Queued'],
      ['status', 'Sent'],
      ['ses', 'SES: Send'],
      ['ses', 'SES: Delivery'],
      ['ses', 'SES: Open'],
      ['ses', 'SES: Click'],
    ]);
    const byTitle = (title: string) => d.timeline.find((e) => e.title === title);
    expect(byTitle('SES: Delivery')?.lines).toEqual(['SMTP response: 250 2.0.0 OK accepted']);
    expect(byTitle('SES: Delivery')?.status).toBe('delivered');
    expect(byTitle('SES: Open')?.lines).toEqual(['Opened with: Mozilla/5.0 (Macintosh)']);
    expect(byTitle('SES: Click')?.lines).toEqual(['Link: https://survey.example.com/s/abc', 'Clicked with: Mozilla/5.0 (iPhone)']);
    // Times ascend whatever order the events came in.
    const times = d.timeline.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(d.ses_address).toBe(to);
  });

  it('a permanent bounce reads its type, diagnostic and the suppression once, not twice', async () => {
    const to = 'timeline.gone@example.com';
    const sent = await send(2, to);
    await ingest(
      sesEvent('ses-2', to, 'Bounce', 'bounce', {
        timestamp: at(6),
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [{ emailAddress: to, status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
      }),
    );
    const d = await detail(sent.id);
    expect(d.delivery_status).toBe('bounced');
    const bounces = d.timeline.filter((e) => e.status === 'bounced');
    expect(bounces).toHaveLength(1);
    expect(bounces[0]?.lines).toEqual([
      'Bounce: Permanent (hard) · General',
      'Diagnostic code: smtp; 550 5.1.1 user unknown',
      'The address is now suppressed (SES Bounce).',
    ]);
    // The status history keeps its own line; only the timeline folds it into the event.
    expect(d.events.filter((e) => e.status === 'bounced')).toHaveLength(1);
  });

  it('events that came before the message knew its id are found by SES message id', async () => {
    const to = 'timeline.early@example.com';
    await ingest(sesEvent('ses-3', to, 'Send', 'send', { timestamp: at(1) }));
    const sent = await send(3, to);
    const d = await detail(sent.id);
    expect(d.timeline.map((e) => e.title)).toContain('SES: Send');
  });

  it('an SMS reads its provider callbacks with their error codes; no SES address', async () => {
    const sent = await createMessenger(ctx.database.db, ctx.config.messaging, { now: () => SENT_AT, sms: smsSid }).send({
      channel: 'sms',
      type: 'system',
      to: '+15555550199',
      template: 'System',
      text: 'x',
    });
    // One callback as the SMS store records it (its own status line too), one row alone.
    await ctx.database.db.insert(smsStatusEvents).values({
      messageSid: 'SM0001',
      status: 'sending',
      errorCode: '30008',
      raw: {},
      notificationId: sent.id,
      receivedAt: new Date(at(3)),
    });
    await recordStatus(ctx.database.db, { sid: 'SM0001', status: 'undelivered', errorCode: '30003', raw: {} }, new Date(at(9)));
    const d = await detail(sent.id);
    const sms = d.timeline.filter((e) => e.source === 'sms');
    expect(sms.map((e) => [e.title, e.status, e.lines])).toEqual([
      ['SMS provider: Sending', null, ['Error code: 30008']],
      ['SMS provider: Not delivered', 'undelivered', [errorText('30003')]],
    ]);
    // The store's status line is folded into the callback's entry, not shown twice.
    expect(d.timeline.filter((e) => e.status === 'undelivered')).toHaveLength(1);
    expect(d.events.filter((e) => e.status === 'undelivered')).toHaveLength(1);
    expect(d.ses_address).toBeNull();
  });
});
