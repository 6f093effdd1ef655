import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { notificationEvents, notificationLogs, smsStatusEvents, systemLogs } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { type DbKind, openTestDatabase, testDatabaseKinds } from './helpers.ts';
import { openListeners } from './messaging-listeners.ts';
import { type Form, PUBLIC_BASE, postSigned, SMS_TOKEN, smsConfig, smsCounts } from './sms-callbacks-bed.ts';

// POST /api/v1/sms/status: Twilio-compatible status callbacks, verified by X-Twilio-Signature
// (reference-second-half.md A4) over the public URL, one row per (sid, status), forward only.

const STATUS = '/api/v1/sms/status';

async function openApp(kind: DbKind, token: string | null = SMS_TOKEN): Promise<{ app: FastifyInstance; database: Database }> {
  const database = await openTestDatabase(kind);
  const base = testConfig();
  const app = await buildApp(testConfig({ ...smsConfig(base), smsAuthToken: token }), { database });
  await app.ready();
  return { app, database };
}

const callback = (sid: string, status: string, extra: Form = []): Form => [
  ['MessageSid', sid],
  ['SmsSid', sid],
  ['AccountSid', 'AC0123'],
  ['From', '+15555550100'],
  ['To', '+15555550142'],
  ['MessageStatus', status],
  ['SmsStatus', status],
  ['ApiVersion', '2010-04-01'],
  ...extra,
];

describe.each(testDatabaseKinds())('SMS status callbacks (%s)', (kind) => {
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    ({ app, database } = await openApp(kind));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const message = async (sid: string) => {
    const [row] = await database.db
      .insert(notificationLogs)
      .values({
        channel: 'sms',
        type: 'survey_invite',
        recipient: '+15555550142',
        subjectOrTemplate: 'Invite',
        providerMessageId: sid,
        status: 'sent',
      })
      .returning({ id: notificationLogs.id });
    return row?.id ?? 0;
  };
  const rowOf = async (id: number) => (await database.db.select().from(notificationLogs).where(eq(notificationLogs.id, id)))[0];
  const timeline = async (id: number) =>
    (
      await database.db.select().from(notificationEvents).where(eq(notificationEvents.notificationId, id)).orderBy(notificationEvents.id)
    ).map((e) => e.status);

  it('moves the message to delivered with a timeline line, and a repeat changes nothing', async () => {
    const id = await message('SM-deliv-1');
    const first = await postSigned(app, STATUS, callback('SM-deliv-1', 'delivered', [['RawDlrDoneDate', '2611270140']]));
    expect(first.statusCode, first.body).toBe(204);
    expect(await rowOf(id)).toMatchObject({ status: 'delivered', error: null });
    expect(await timeline(id)).toEqual(['delivered']);
    const before = await smsCounts(app);
    const again = await postSigned(app, STATUS, callback('SM-deliv-1', 'delivered'));
    expect(again.statusCode).toBe(204);
    expect(await smsCounts(app)).toEqual(before);
    const [event] = await database.db.select().from(smsStatusEvents).where(eq(smsStatusEvents.messageSid, 'SM-deliv-1'));
    expect(event).toMatchObject({ status: 'delivered', notificationId: id, errorCode: null });
    expect(event?.raw).toMatchObject({ MessageSid: 'SM-deliv-1', RawDlrDoneDate: '2611270140' });
  });

  it('never moves a message back when an earlier status arrives late', async () => {
    const id = await message('SM-order-1');
    await postSigned(app, STATUS, callback('SM-order-1', 'delivered'));
    const late = await postSigned(app, STATUS, callback('SM-order-1', 'sent'));
    expect(late.statusCode).toBe(204);
    expect(await rowOf(id)).toMatchObject({ status: 'delivered' });
    // Both are on the timeline, in the order they came.
    expect(await timeline(id)).toEqual(['delivered', 'sent']);
  });

  it('records undelivered with the error code in words as the error', async () => {
    const id = await message('SM-fail-1');
    const res = await postSigned(app, STATUS, callback('SM-fail-1', 'undelivered', [['ErrorCode', '30003']]));
    expect(res.statusCode).toBe(204);
    expect(await rowOf(id)).toMatchObject({
      status: 'undelivered',
      error: 'The SMS provider reported error 30003 (the handset is unreachable)',
    });
    const failed = await message('SM-fail-2');
    await postSigned(app, STATUS, callback('SM-fail-2', 'failed', [['ErrorCode', '12345']]));
    expect(await rowOf(failed)).toMatchObject({ status: 'failed', error: 'The SMS provider reported error 12345' });
  });

  it('records a status for an unknown sid with no message to move', async () => {
    const before = await smsCounts(app);
    const res = await postSigned(app, STATUS, callback('SM-unknown-9', 'delivered'));
    expect(res.statusCode).toBe(204);
    const after = await smsCounts(app);
    expect(after).toEqual({ ...before, statusEvents: before.statusEvents + 1 });
    const [event] = await database.db.select().from(smsStatusEvents).where(eq(smsStatusEvents.messageSid, 'SM-unknown-9'));
    expect(event?.notificationId).toBeNull();
  });

  it('answers 400 naming the field for a signed callback without MessageSid or MessageStatus', async () => {
    const noSid = await postSigned(app, STATUS, [['MessageStatus', 'sent']]);
    expect(noSid.statusCode).toBe(400);
    expect(noSid.json().errors).toEqual({ MessageSid: ['The MessageSid field is required'] });
    const noStatus = await postSigned(app, STATUS, [['MessageSid', 'SM-x']]);
    expect(noStatus.json().errors).toEqual({ MessageStatus: ['The MessageStatus field is required'] });
  });

  const refused = async (response: () => Promise<{ statusCode: number; json(): { message: string } }>, why: RegExp) => {
    const before = await smsCounts(app);
    const res = await response();
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(why);
    expect(await smsCounts(app)).toEqual({ ...before, refusals: before.refusals + 1 });
  };

  it('refuses unsigned, wrongly signed, another URL, a changed param and a JSON body, writing only a System Logs warning', async () => {
    const id = await message('SM-refuse-1');
    const form = callback('SM-refuse-1', 'delivered');
    await refused(() => postSigned(app, STATUS, form, { signature: null }), /X-Twilio-Signature header is missing/);
    await refused(() => postSigned(app, STATUS, form, { token: 'another-token' }), /does not match/);
    await refused(() => postSigned(app, STATUS, form, { signedUrl: `https://evil.example.com${STATUS}` }), /does not match/);
    await refused(() => postSigned(app, STATUS, form, { signedUrl: `${PUBLIC_BASE}/api/v1/sms/inbound` }), /does not match/);
    const changed = form.map(([k, v]): [string, string] => [k, k === 'MessageStatus' ? 'failed' : v]);
    await refused(() => postSigned(app, STATUS, form, { sentForm: changed }), /does not match/);
    await refused(() => postSigned(app, STATUS, form, { sentForm: [...form, ['ErrorCode', '30003']] }), /does not match/);
    await refused(
      () => app.inject({ method: 'POST', url: STATUS, headers: { 'x-twilio-signature': 'x' }, payload: { MessageSid: 'SM-refuse-1' } }),
      /not a form/,
    );
    expect(await rowOf(id)).toMatchObject({ status: 'sent' });
    const [log] = await database.db.select().from(systemLogs).where(eq(systemLogs.action, 'sms.refused')).orderBy(systemLogs.id).limit(1);
    expect(log).toMatchObject({ level: 'warn', message: expect.stringContaining('MessageSid SM-refuse-1') });
  });

  it('accepts a signature over the URL with the default port, and ignores the Host header', async () => {
    const id = await message('SM-port-1');
    const res = await postSigned(app, STATUS, callback('SM-port-1', 'delivered'), {
      signedUrl: `https://admin.example.com:443${STATUS}`,
      host: 'admin.example.com',
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(await rowOf(id)).toMatchObject({ status: 'delivered' });
  });

  it('refuses a body over 64 KB with 413 and writes nothing', async () => {
    const before = await smsCounts(app);
    const res = await postSigned(app, STATUS, [['Body', 'x'.repeat(70 * 1024)]]);
    expect(res.statusCode).toBe(413);
    expect(await smsCounts(app)).toEqual(before);
  });
});

describe.each(testDatabaseKinds())('SMS callbacks without SMS_AUTH_TOKEN (%s)', (kind) => {
  it('refuses every callback and says why', async () => {
    const { app, database } = await openApp(kind, null);
    try {
      const before = await smsCounts(app);
      for (const path of [STATUS, '/api/v1/sms/inbound']) {
        const res = await postSigned(app, path, callback('SM-no-token', 'delivered'));
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toMatch(/no SMS_AUTH_TOKEN is configured/);
      }
      expect(await smsCounts(app)).toEqual({ ...before, refusals: before.refusals + 2 });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('the http SMS transport', () => {
  it('asks for status callbacks at the public URL of the status route', async () => {
    const listeners = await openListeners();
    const database = await openTestDatabase('pglite');
    try {
      const messenger = createMessenger(database.db, {
        publicBaseUrl: PUBLIC_BASE,
        email: { transport: 'outbox' },
        emailFrom: 'no-reply@example.com',
        sms: { transport: 'http', apiUrl: `http://127.0.0.1:${listeners.httpPort}/2010-04-01`, accountSid: 'AC1', authToken: 't' },
        smsFrom: '+15555550100',
      });
      const sent = await messenger.send({ channel: 'sms', type: 'survey_invite', to: '+15555550142', template: 'Invite', text: 'Hi' });
      expect(sent.status).toBe('sent');
      expect(listeners.smsRequests[0]?.form.get('StatusCallback')).toBe(`${PUBLIC_BASE}${STATUS}`);
    } finally {
      await listeners.close();
      await database.close();
    }
  });
});
