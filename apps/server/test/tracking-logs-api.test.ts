import { type NotificationLog, type NotificationLogDetail, notificationLogResource, parseCsv } from '@admin/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, emailSuppressions, locations, notificationLogs, surveys } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Page = { data: NotificationLog[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };

for (const kind of testDatabaseKinds()) {
  describe(`Tracking Logs API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let otherClientId: number;
    let locationId: string;
    let inviteId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const page = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    // Messages on fixed days (2021-06-01..03), so the date filter and the totals are exact.
    const DAY = '2021-06-0';

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [first, second] = await db.select({ id: clients.id }).from(clients).orderBy(clients.id).limit(2);
      clientId = first?.id ?? 0;
      otherClientId = second?.id ?? 0;
      // A client in Chicago: its messages' times are written in its zone, named (issue 19, item 10).
      await db.update(clients).set({ timezone: 'America/Chicago' }).where(eq(clients.id, clientId));
      const [location] = await db.select({ id: locations.id }).from(locations).limit(1);
      locationId = location?.id ?? '';
      await db.insert(emailSuppressions).values({ email: 'bounced@example.com', reason: 'BOUNCE' });

      const at = (day: number) => createMessenger(db, ctx.config.messaging, { now: () => new Date(`${DAY}${day}T10:00:00Z`) });
      const invite = await at(1).send({
        channel: 'email',
        type: 'survey_invite',
        to: 'jane.doe@example.com',
        subject: 'How did we do, Jane?',
        text: 'Answer here: http://127.0.0.1/s/abc',
        html: '<p>Answer <a href="http://127.0.0.1/s/abc">here</a></p><script>alert(1)</script>',
        clientId,
        locationId,
        related: { type: 'survey_processing_item', id: 7 },
      });
      inviteId = invite.id;
      await at(2).send({
        channel: 'sms',
        type: 'survey_reminder',
        to: '+15555550142',
        template: 'Reminder',
        text: 'Reminder: http://x/s/abc',
        clientId,
      });
      await at(2).send({
        channel: 'email',
        type: 'review_alert',
        to: 'bounced@example.com',
        subject: 'New review',
        text: 'x',
        clientId: otherClientId,
      });
      await at(3).send({ channel: 'sms', type: 'system', to: '+447700900123', template: 'System', text: 'x' });
    });
    afterAll(() => ctx.close());

    const range = `startDate=${DAY}1&endDate=${DAY}3`;

    it('lists newest first with client and location names, recipients masked and never in the answer', async () => {
      const p = await page(`/api/notifications-logs?${range}`);
      expect(p.total).toBe(4);
      expect(p.totalIsEstimate).toBe(false);
      expect(p.data.map((r) => r.recipient)).toEqual(['+*** ***-0123', 'b***@example.com', '+1 ***-***-0142', 'j***@example.com']);
      const invite = p.data.at(-1);
      expect(invite).toMatchObject({
        id: inviteId,
        channel: 'email',
        type: 'survey_invite',
        subject_or_template: 'How did we do, Jane?',
        delivery_status: 'sent',
        client_id: clientId,
        location_id: locationId,
        related_type: 'survey_processing_item',
        related_id: '7',
        error: null,
      });
      expect(invite?.client_name).toBeTruthy();
      expect(invite?.location_name).toBeTruthy();
      const body = (await get(`/api/notifications-logs?${range}`)).body;
      for (const raw of ['jane.doe', 'bounced@', '5555550142', '447700900123']) expect(body).not.toContain(raw);
    });

    it('filters by client, channel, type, status, recipient (the real address) and date range', async () => {
      const ids = async (query: string) => (await page(`/api/notifications-logs?${range}&${query}`)).data.map((r) => r.type);
      expect(await ids(`client=${clientId}`)).toEqual(['survey_reminder', 'survey_invite']);
      expect(await ids('channel=sms')).toEqual(['system', 'survey_reminder']);
      expect(await ids('type=review_alert,system')).toEqual(['system', 'review_alert']);
      expect(await ids('status=suppressed')).toEqual(['review_alert']);
      expect(await ids('recipient=JANE.DOE')).toEqual(['survey_invite']);
      expect(await ids('recipient=0142')).toEqual(['survey_reminder']);
      expect(await ids('q=jane')).toEqual(['survey_invite']);
      expect((await page(`/api/notifications-logs?startDate=${DAY}2&endDate=${DAY}2`)).total).toBe(2);
      const suppressed = (await page(`/api/notifications-logs?${range}&status=suppressed`)).data[0];
      expect(suppressed?.error).toBe('The address is on the suppression list (BOUNCE)');
    });

    it('pages by cursor, each message once', async () => {
      const seen: number[] = [];
      let url = `/api/notifications-logs?${range}&perPage=3&sort=status&order=asc`;
      for (;;) {
        const p = await page(url);
        seen.push(...p.data.map((r) => r.id));
        if (!p.nextCursor) break;
        url = `/api/notifications-logs?${range}&perPage=3&sort=status&order=asc&cursor=${p.nextCursor}`;
      }
      expect(new Set(seen).size).toBe(4);
      expect(seen).toHaveLength(4);
    });

    it('answers 400 naming the parameter for bad query values', async () => {
      for (const [query, field] of [
        ['status=lost', 'status'],
        ['channel=fax', 'channel'],
        ['client=abc', 'client'],
        ['startDate=2021-02-30', 'startDate'],
        ['sort=recipient', 'sort'],
        ['cursor=bad', 'cursor'],
        ['colour=red', 'colour'],
      ] as const) {
        const res = await get(`/api/notifications-logs?${query}`);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
        expect(JSON.stringify(res.json())).toContain(field);
      }
    });

    it('details a message: rendered body as stored, status timeline, masked recipient', async () => {
      const res = await get(`/api/notifications-logs/${inviteId}`);
      expect(res.statusCode).toBe(200);
      const d = (res.json() as { data: NotificationLogDetail }).data;
      expect(d.recipient).toBe('j***@example.com');
      expect(d.body_text).toBe('Answer here: http://127.0.0.1/s/abc');
      // Stored as rendered; the screen shows it in a sandboxed frame that runs no script.
      expect(d.body_html).toContain('<script>');
      expect(d.events.map((e) => e.status)).toEqual(['queued', 'sent']);
      expect(d.events[0]?.at).toBe('2021-06-01T10:00:00.000Z');
      expect((await get('/api/notifications-logs/999999999')).statusCode).toBe(404);
      expect((await get('/api/notifications-logs/abc')).statusCode).toBe(400);
    });

    it('exports CSV with the definition’s labels and formats, times in the client’s zone, recipients masked', async () => {
      const res = await get(
        `/api/notifications-logs/export?${range}&columns=created_at,channel,type,recipient,status,related&sort=created_at&order=asc`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/filename="tracking-logs-\d{4}-\d{2}-\d{2}\.csv"/);
      const csv = parseCsv(res.body.slice(1));
      expect(csv[0]).toEqual(['Time', 'Channel', 'Type', 'Recipient', 'Status', 'Related']);
      // The client's local time with its zone named, the status and what it is about in words.
      expect(csv[1]).toEqual(['Jun 1, 2021, 5:00 AM CDT', 'E-mail', 'Survey invite', 'j***@example.com', 'Sent', 'Invitation 7']);
      // A message of no client: in the server's zone (UTC in tests), named too.
      expect(csv[4]?.[0]).toBe('Jun 3, 2021, 10:00 AM UTC');
      expect(csv).toHaveLength(5);
      expect(res.body).not.toContain('jane.doe');
      const all = parseCsv((await get(`/api/notifications-logs/export?${range}`)).body.slice(1));
      expect(all[0]).toEqual(notificationLogResource.columns.filter((c) => c.defaultVisible).map((c) => c.label));
    });

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

    it('is for signed-in staff only', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/notifications-logs' })).statusCode).toBe(401);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/notifications-logs/${inviteId}` })).statusCode).toBe(401);
    });

    it('offers every client in the Clients filter, paged on the server, and names chosen ones', async () => {
      const res = await get(`/api/notifications-logs/options/client?perPage=1&value=${otherClientId}`);
      expect(res.statusCode).toBe(200);
      const answer = res.json() as { data: { value: string; label: string }[]; more: boolean };
      expect(answer.more).toBe(true);
      expect(answer.data.map((o) => o.value)).toContain(String(otherClientId));
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
