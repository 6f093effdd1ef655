import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagingConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { notificationLogs } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { smtpMessageId } from '../src/messaging/transports.ts';
import { openTestDatabase } from './helpers.ts';
import { type Listeners, openListeners, SES_STYLE_DOMAIN } from './messaging-listeners.ts';

// The id SES events name a message by (issue 22, item 3): SES's SMTP answer `250 Ok <id>`, and
// an outbox id so demo events can find their row.

describe('SES message ids on the NotificationLog row', () => {
  let database: Database;
  let listeners: Listeners;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    listeners = await openListeners();
  });
  afterAll(async () => {
    await listeners?.close();
    await database?.close();
  });

  const config = (transport: 'smtp' | 'outbox'): MessagingConfig => ({
    publicBaseUrl: 'https://surveys.example.com',
    email: transport === 'smtp' ? { transport: 'smtp', url: `smtp://127.0.0.1:${listeners.smtpPort}` } : { transport: 'outbox' },
    emailFrom: 'Feedback <no-reply@example.com>',
    sms: { transport: 'outbox' },
    smsFrom: '+15555550100',
  });
  const rowOf = async (id: number) => (await database.db.select().from(notificationLogs).where(eq(notificationLogs.id, id)))[0];

  it("keeps the id SES's SMTP interface answers with, else nodemailer's Message-ID", async () => {
    const messenger = createMessenger(database.db, config('smtp'));
    const ses = await messenger.send({ channel: 'email', type: 'survey_invite', to: `jane@${SES_STYLE_DOMAIN}`, subject: 'Hi', text: 'x' });
    expect(listeners.sesIds).toHaveLength(1);
    expect((await rowOf(ses.id))?.providerMessageId).toBe(listeners.sesIds[0]);
    const other = await messenger.send({ channel: 'email', type: 'survey_invite', to: 'jane@example.com', subject: 'Hi', text: 'x' });
    expect((await rowOf(other.id))?.providerMessageId).toMatch(/^<.+@.+>$/);
    messenger.close();
  });

  it('gives each outbox message an id of its own', async () => {
    const messenger = createMessenger(database.db, config('outbox'));
    const a = await messenger.send({ channel: 'email', type: 'survey_invite', to: 'a@example.com', subject: 'Hi', text: 'x' });
    const b = await messenger.send({ channel: 'email', type: 'survey_invite', to: 'b@example.com', subject: 'Hi', text: 'x' });
    expect(a.providerMessageId).toMatch(/^outbox-[0-9a-f-]{36}$/);
    expect(b.providerMessageId).not.toBe(a.providerMessageId);
    expect((await rowOf(a.id))?.providerMessageId).toBe(a.providerMessageId);
    messenger.close();
  });

  it('reads only an SES-shaped answer as an id', () => {
    expect(smtpMessageId({ response: '250 Ok 0100018c1234abcd-5a1e0d4b-000000', messageId: '<m@x>' })).toBe(
      '0100018c1234abcd-5a1e0d4b-000000',
    );
    expect(smtpMessageId({ response: '250 OK: message queued', messageId: '<m@x>' })).toBe('<m@x>');
    expect(smtpMessageId({ response: '250 Ok queued as 12345', messageId: '<m@x>' })).toBe('<m@x>');
    expect(smtpMessageId({})).toBeNull();
  });
});
