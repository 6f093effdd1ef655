import { type NotificationLogDetail, parseCsv } from '@admin/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationLogs, surveys } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import type { TestContext } from './helpers.ts';
import { testDatabaseKinds } from './helpers.ts';
import { DAY, openTrackingWorld, type Page } from './tracking-logs-bed.ts';

/** Messages the console sends from Tracking Logs: a test message, a Send test invitation, a resend. */
for (const kind of testDatabaseKinds()) {
  describe(`Tracking Logs API: sending (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let inviteId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const page = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };

    beforeAll(async () => {
      ({ ctx, headers, clientId, inviteId } = await openTrackingWorld(kind));
    });
    afterAll(() => ctx.close());

    const range = `startDate=${DAY}1&endDate=${DAY}3`;

    it('sends a test message through the configured transport (the outbox here) and lists it', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/notifications-logs/test-message',
        headers,
        payload: { channel: 'email', to: 'ops@example.com' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const d = (res.json() as { data: NotificationLogDetail }).data;
      expect(d).toMatchObject({
        type: 'system',
        delivery_status: 'sent',
        recipient: 'o***@example.com',
        subject_or_template: 'Test message from the admin console',
      });
      expect(d.body_html).toContain('test message');
      const latest = await page('/api/notifications-logs?type=system&channel=email');
      expect(latest.data[0]?.id).toBe(d.id);

      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/notifications-logs/test-message',
        headers,
        payload: { channel: 'sms', to: 'ops@example.com' },
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().errors ?? {})).toContain('to');
    });

    it('marks a Send test invitation as a test send, in the list and the CSV (issue 19, item 3)', async () => {
      const db = ctx.database.db;
      const [survey] = await db.select({ id: surveys.id }).from(surveys).where(eq(surveys.clientId, clientId)).limit(1);
      const sent = await ctx.app.inject({
        method: 'POST',
        url: `/api/surveys/${survey?.id}/send-test`,
        headers,
        payload: { to: 'tester@example.com' },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const found = await page('/api/notifications-logs?recipient=tester@example.com');
      expect(found.data.map((r) => [r.type, r.test])).toEqual([['survey_invite', true]]);
      // The customer's invitation of the fixture is not a test.
      expect((await page(`/api/notifications-logs?${range}&type=survey_invite`)).data.map((r) => r.test)).toEqual([false]);
      const csv = parseCsv((await get('/api/notifications-logs/export?recipient=tester@example.com&columns=type')).body.slice(1));
      expect(csv).toEqual([['Type'], ['Survey invite · Test send']]);
    });

    it('resends a failed survey invitation as it was rendered, through the checks; refuses anything else with 409', async () => {
      const db = ctx.database.db;
      // A transport that refuses everything: the invitation's row ends `failed`, as a provider's 550 would leave it.
      const failing = createMessenger(db, ctx.config.messaging, {
        now: () => new Date('2021-07-01T10:00:00Z'),
        email: {
          name: 'failing',
          send: async () => {
            throw new Error('550 5.1.1 mailbox unavailable');
          },
          close: () => {},
        },
      });
      const message = {
        channel: 'email' as const,
        type: 'survey_invite' as const,
        subject: 'How was it, Alex?',
        text: 'Answer: http://127.0.0.1/s/zzz',
        html: '<p>Answer <a href="http://127.0.0.1/s/zzz">here</a></p>',
        clientId,
        related: { type: 'survey_processing_item', id: 424242 },
      };
      const failed = await failing.send({ ...message, to: 'retry.me@example.com' });
      expect(failed.status).toBe('failed');
      const post = (id: number) => ctx.app.inject({ method: 'POST', url: `/api/notifications-logs/${id}/resend`, headers });

      const res = await post(failed.id);
      expect(res.statusCode, res.body).toBe(201);
      const resent = res.json().data as NotificationLogDetail;
      expect(resent.id).not.toBe(failed.id);
      expect(resent).toMatchObject({
        type: 'survey_invite',
        delivery_status: 'sent',
        subject_or_template: 'How was it, Alex?',
        body_text: 'Answer: http://127.0.0.1/s/zzz',
        body_html: '<p>Answer <a href="http://127.0.0.1/s/zzz">here</a></p>',
        related_type: 'survey_processing_item',
        related_id: '424242',
        recipient: 'r***@example.com',
      });

      // The same checks as every send: a suppressed address is refused, and the refusal is the new row.
      const toSuppressed = await failing.send({ ...message, to: 'bounced@example.com' });
      expect(toSuppressed.status).toBe('suppressed');
      const [suppressedFailed] = await db
        .insert(notificationLogs)
        .values({
          channel: 'email',
          type: 'survey_reminder',
          recipient: 'bounced@example.com',
          subjectOrTemplate: 'Reminder',
          bodyText: 'x',
          status: 'undelivered',
          relatedType: 'survey_processing_item',
          relatedId: '424243',
        })
        .returning({ id: notificationLogs.id });
      const refused = await post(suppressedFailed?.id ?? 0);
      expect(refused.statusCode, refused.body).toBe(201);
      expect(refused.json().data).toMatchObject({
        delivery_status: 'suppressed',
        error: 'The address is on the suppression list (BOUNCE)',
      });

      // Delivered, a system message, a suppressed one, one unrelated to an invitation: 409 with the reason.
      const delivered = await post(inviteId);
      expect(delivered.statusCode).toBe(409);
      expect(delivered.json().message).toBe('Only a failed or undelivered message can be resent; this one is sent.');
      expect((await post(toSuppressed.id)).statusCode).toBe(409);
      const system = await failing.send({ channel: 'email', type: 'system', to: 'ops@example.com', subject: 's', text: 't' });
      const sys = await post(system.id);
      expect(sys.statusCode).toBe(409);
      expect(sys.json().message).toBe('Only survey invitations and reminders can be resent.');
      const loose = await failing.send({ ...message, to: 'x@example.com', related: null });
      expect((await post(loose.id)).json().message).toBe('This message belongs to no survey invitation, so it cannot be resent.');
      expect((await post(999_999_999)).statusCode).toBe(404);
    });
  });
}
