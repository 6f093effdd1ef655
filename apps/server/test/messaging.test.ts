import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MessagingConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { clients, emailOptOuts, emailSuppressions, notificationEvents, notificationLogs, smsOptOuts } from '../src/db/schema/index.ts';
import { createMessenger, type Messenger } from '../src/messaging/send.ts';
import { openTestDatabase } from './helpers.ts';
import { BAD_PHONE, type Listeners, openListeners, REFUSED_ADDRESS, type Received, type SmsRequest } from './messaging-listeners.ts';

// The transports against real listeners on this machine (messaging-listeners.ts).

describe('messaging: one send for every channel, through real listeners', () => {
  let database: Database;
  let listeners: Listeners;
  let smtpPort: number;
  let httpPort: number;
  let mails: Received[] = [];
  let smsRequests: SmsRequest[] = [];
  let messenger: Messenger;

  const config = (over: Partial<MessagingConfig> = {}): MessagingConfig => ({
    publicBaseUrl: 'https://surveys.example.com',
    email: { transport: 'smtp', url: `smtp://127.0.0.1:${smtpPort}` },
    emailFrom: 'Feedback <no-reply@example.com>',
    sms: { transport: 'http', apiUrl: `http://127.0.0.1:${httpPort}/2010-04-01`, accountSid: 'AC123', authToken: 'secret-token' },
    smsFrom: '+15555550100',
    ...over,
  });

  const logOf = async (id: number) => {
    const [row] = await database.db.select().from(notificationLogs).where(eq(notificationLogs.id, id));
    const events = await database.db
      .select({ status: notificationEvents.status, detail: notificationEvents.detail })
      .from(notificationEvents)
      .where(eq(notificationEvents.notificationId, id))
      .orderBy(asc(notificationEvents.id));
    return { row, events };
  };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    listeners = await openListeners();
    ({ smtpPort, httpPort, mails, smsRequests } = listeners);
    messenger = createMessenger(database.db, config());
  });

  afterAll(async () => {
    messenger.close();
    await listeners.close();
    await database.close();
  });

  beforeEach(() => {
    mails.length = 0;
    smsRequests.length = 0;
  });

  it("sends as the client's sender: its name on the platform's address, or its own verified address, with its reply-to", async () => {
    await messenger.send({
      channel: 'email',
      type: 'system',
      to: 'one@example.com',
      subject: 'Named',
      text: 'x',
      sender: { name: 'Acme Dental', address: null },
      replyTo: 'front-desk@acme.example',
    });
    await messenger.send({
      channel: 'email',
      type: 'system',
      to: 'two@example.com',
      subject: 'Own',
      text: 'x',
      sender: { name: 'Acme "Dental"', address: 'hello@acme.example' },
    });
    const named = mails.find((m) => m.to.includes('one@example.com'));
    const own = mails.find((m) => m.to.includes('two@example.com'));
    expect(named?.from).toBe('no-reply@example.com');
    expect(named?.raw).toContain('From: Acme Dental <no-reply@example.com>');
    expect(named?.raw).toContain('Reply-To: front-desk@acme.example');
    expect(own?.from).toBe('hello@acme.example');
    expect(own?.raw).toMatch(/From: "Acme \\"Dental\\"" <hello@acme\.example>/);
  });

  it('delivers an e-mail over SMTP with the rendered subject and body, and logs it as sent', async () => {
    const result = await messenger.send({
      channel: 'email',
      type: 'survey_invite',
      to: 'Jane.Doe@example.com',
      subject: 'How did we do, Jane?',
      text: 'Tell us in one minute: https://surveys.example.com/s/abc123',
      html: '<p>Tell us in one minute: <a href="https://surveys.example.com/s/abc123">start</a></p>',
      related: { type: 'survey_processing_item', id: 12 },
    });
    expect(result.status).toBe('sent');
    expect(result.error).toBeNull();
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.from).toBe('no-reply@example.com');
    expect(mail?.to).toEqual(['Jane.Doe@example.com']);
    expect(mail?.raw).toContain('Subject: How did we do, Jane?');
    expect(mail?.raw).toContain('Tell us in one minute: https://surveys.example.com/s/abc123');
    // The HTML part is quoted-printable: soft line breaks and =XX escapes undone.
    const html = (mail?.raw ?? '')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    expect(html).toContain('<p>Tell us in one minute: <a href="https://surveys.example.com/s/abc123">start</a></p>');

    const { row, events } = await logOf(result.id);
    expect(row).toMatchObject({
      channel: 'email',
      type: 'survey_invite',
      recipient: 'Jane.Doe@example.com',
      subjectOrTemplate: 'How did we do, Jane?',
      bodyText: 'Tell us in one minute: https://surveys.example.com/s/abc123',
      status: 'sent',
      relatedType: 'survey_processing_item',
      relatedId: '12',
      error: null,
    });
    // nodemailer's Message-ID is the provider's id of an SMTP message.
    expect(row?.providerMessageId).toMatch(/^<.+@.+>$/);
    expect(events.map((e) => e.status)).toEqual(['queued', 'sent']);
  });

  it('sends an SMS through the Twilio-compatible API (form-encoded, basic auth) and keeps its sid', async () => {
    const result = await messenger.send({
      channel: 'sms',
      type: 'survey_invite',
      to: '+15555550142',
      template: 'Default invite',
      text: 'Acme: how did we do? https://surveys.example.com/s/x1 Reply STOP to opt out',
    });
    expect(result.status).toBe('sent');
    expect(smsRequests).toHaveLength(1);
    const request = smsRequests[0];
    expect(request?.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(request?.authorization).toBe(`Basic ${Buffer.from('AC123:secret-token').toString('base64')}`);
    expect(request?.form.get('To')).toBe('+15555550142');
    expect(request?.form.get('From')).toBe('+15555550100');
    expect(request?.form.get('Body')).toBe('Acme: how did we do? https://surveys.example.com/s/x1 Reply STOP to opt out');
    const { row } = await logOf(result.id);
    expect(row).toMatchObject({ status: 'sent', providerMessageId: `SM${'1'.padStart(32, '0')}`, subjectOrTemplate: 'Default invite' });
    expect(result.providerMessageId).toBe(row?.providerMessageId);
  });

  it('refuses a suppressed address and an opted-out address or phone: a suppressed row each, nothing sent', async () => {
    await database.db.insert(emailSuppressions).values({ email: 'bounced@example.com', reason: 'BOUNCE' });
    await database.db.insert(emailOptOuts).values({ email: 'left@example.com', clientId: null, source: 'unsubscribe link' });
    await database.db.insert(smsOptOuts).values({ phone: '+15555550143', clientId: null, keyword: 'STOP', source: 'sms' });

    const suppressed = await messenger.send({
      channel: 'email',
      type: 'survey_invite',
      to: 'BOUNCED@example.com',
      subject: 'Hi',
      text: 'x',
    });
    const optedOut = await messenger.send({ channel: 'email', type: 'survey_reminder', to: 'left@example.com', subject: 'Hi', text: 'x' });
    const stopped = await messenger.send({ channel: 'sms', type: 'survey_invite', to: '+15555550143', template: 't', text: 'x' });

    expect(mails).toHaveLength(0);
    expect(smsRequests).toHaveLength(0);
    expect(suppressed).toMatchObject({ status: 'suppressed', error: 'The address is on the suppression list (BOUNCE)' });
    expect(optedOut).toMatchObject({ status: 'suppressed', error: 'The address opted out (unsubscribe link)' });
    expect(stopped).toMatchObject({ status: 'suppressed', error: 'The phone opted out (STOP)' });
    for (const r of [suppressed, optedOut, stopped]) {
      const { row, events } = await logOf(r.id);
      // The refused message is kept as rendered, with the reason.
      expect(row?.status).toBe('suppressed');
      expect(row?.bodyText).toBe('x');
      expect(events).toEqual([{ status: 'suppressed', detail: r.error }]);
    }
  });

  it("an opt-out of one client does not stop another client's messages", async () => {
    // A bare client row: the opt-out only needs an owner to point at.
    const [client] = await database.db.insert(clients).values({ name: 'Opt-out Test Co' }).returning({ id: clients.id });
    const owner = client?.id ?? 0;
    await database.db.insert(smsOptOuts).values({ phone: '+15555550144', clientId: owner, keyword: 'STOP', source: 'sms' });
    const own = await messenger.send({
      channel: 'sms',
      type: 'survey_invite',
      to: '+15555550144',
      template: 't',
      text: 'x',
      clientId: owner,
    });
    const other = await messenger.send({ channel: 'sms', type: 'system', to: '+15555550144', template: 't', text: 'x' });
    expect(own.status).toBe('suppressed');
    expect(other.status).toBe('sent');
  });

  it("records a provider's refusal as failed with its own words: SMTP 550, the SMS API's error", async () => {
    const mail = await messenger.send({ channel: 'email', type: 'survey_alert', to: REFUSED_ADDRESS, subject: 'Alert', text: 'x' });
    expect(mail.status).toBe('failed');
    expect(mail.error).toMatch(/550/);
    expect(mail.error).toMatch(/Mailbox unavailable/);

    const sms = await messenger.send({ channel: 'sms', type: 'survey_invite', to: BAD_PHONE, template: 't', text: 'x' });
    expect(sms).toMatchObject({ status: 'failed', error: "SMS API answered 400 21211: The 'To' number is not a valid phone number." });
    const { row, events } = await logOf(sms.id);
    expect(row).toMatchObject({ status: 'failed', error: sms.error, providerMessageId: null });
    expect(events.map((e) => [e.status, e.detail])).toEqual([
      ['queued', 'Queued for sending'],
      ['failed', sms.error],
    ]);
  });

  it('a transport that cannot be reached is failed with the network error; a bad recipient never reaches one', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = createMessenger(
      database.db,
      config({
        email: { transport: 'smtp', url: `smtp://127.0.0.1:${deadPort}` },
        sms: { transport: 'http', apiUrl: `http://127.0.0.1:${deadPort}`, accountSid: 'AC1', authToken: 't' },
      }),
    );
    try {
      const mail = await offline.send({ channel: 'email', type: 'system', to: 'a@example.com', subject: 's', text: 'x' });
      expect(mail.status).toBe('failed');
      expect(mail.error).toMatch(/ECONNREFUSED/);
      const sms = await offline.send({ channel: 'sms', type: 'system', to: '+15555550145', template: 't', text: 'x' });
      expect(sms.status).toBe('failed');
      expect(sms.error).toMatch(/fetch failed|ECONNREFUSED/);
    } finally {
      offline.close();
    }

    const bad = await messenger.send({ channel: 'sms', type: 'system', to: '555-0142', template: 't', text: 'x' });
    expect(bad).toMatchObject({ status: 'failed', error: 'Not a phone number in E.164 form (+15555550142)' });
    expect(smsRequests).toHaveLength(0);
  });

  it('the outbox keeps the message on this machine: logged as sent, no listener called', async () => {
    const outbox = createMessenger(database.db, config({ email: { transport: 'outbox' }, sms: { transport: 'outbox' } }), {
      now: () => new Date('2030-01-02T03:04:05Z'),
    });
    const mail = await outbox.send({ channel: 'email', type: 'report', to: 'boss@example.com', subject: 'Weekly', text: 'All good' });
    const sms = await outbox.send({
      channel: 'sms',
      type: 'review_invite',
      to: '+15555550146',
      template: 'Review',
      text: 'Leave a review',
    });
    expect([mail.status, sms.status]).toEqual(['sent', 'sent']);
    expect(mails).toHaveLength(0);
    expect(smsRequests).toHaveLength(0);
    const { row, events } = await logOf(mail.id);
    expect(row?.createdAt.toISOString()).toBe('2030-01-02T03:04:05.000Z');
    expect(events.at(-1)?.detail).toBe('Kept in the outbox (EMAIL_TRANSPORT=outbox)');
    expect(outbox.link('/s/abc')).toBe('https://surveys.example.com/s/abc');
  });
});
