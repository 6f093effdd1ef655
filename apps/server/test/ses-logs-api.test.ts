import { parseCsv, type SesEvent, type SesEventDetail, sesEventResource } from '@admin/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs } from '../src/db/schema/index.ts';
import { type TestContext, testDatabaseKinds } from './helpers.ts';
import { DAY, openSesWorld } from './ses-bed.ts';

type Page = { data: SesEvent[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };

for (const kind of testDatabaseKinds()) {
  describe(`SES Logs API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let otherClientId: number;
    let clientName: string;
    let notificationId: number;
    let bounceId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const page = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const range = `startDate=${DAY}1&endDate=${DAY}3`;
    const types = async (query: string) => (await page(`/api/ses-events?${query}`)).data.map((r) => `${r.event_type} ${r.recipient}`);

    beforeAll(async () => {
      ({ ctx, headers, clientId, otherClientId, clientName, notificationId, bounceId } = await openSesWorld(kind));
    });
    afterAll(() => ctx.close());

    it('lists every event newest first, with its client, notification and bounce fields', async () => {
      const p = await page('/api/ses-events');
      expect(p.total).toBe(6);
      expect(p.data.map((r) => r.message_id)).toEqual(['msg-4', 'msg-5', 'msg-3', 'msg-2', 'msg-1', 'msg-1']);
      const delivery = p.data.find((r) => r.event_type === 'Delivery');
      expect(delivery).toMatchObject({
        recipient: 'jane@example.com',
        source: 'surveys@example.com',
        subject: 'How did we do?',
        client_id: clientId,
        client_name: clientName,
        client_timezone: 'America/Chicago',
        notification_id: notificationId,
        diagnostic_code: '250 2.6.0 Message received',
        reporting_mta: 'a1.example.com',
      });
      expect(p.data.find((r) => r.id === bounceId)).toMatchObject({
        bounce_type: 'Permanent',
        bounce_subtype: 'NoEmail',
        client_id: otherClientId,
      });
    });

    it('filters by event type, recipient (the whole address, any case), client, bounce type, message id, search and date range', async () => {
      expect(await types(`${range}&event_type=Bounce,Complaint`)).toEqual(['Complaint angry@gmail.com', 'Bounce gone@example.com']);
      expect(await types('recipient=JANE@example.com')).toEqual(['Delivery jane@example.com', 'Send jane@example.com']);
      // A part of an address is no address: the filter matches whole values (decision 060).
      expect(await types('recipient=jane')).toEqual([]);
      expect(await types(`client=${otherClientId}`)).toEqual(['Bounce soft@example.com', 'Bounce gone@example.com']);
      expect(await types('bounce_type=Transient')).toEqual(['Bounce soft@example.com', 'Bounce soft@example.com']);
      expect(await types('message_id=msg-3')).toEqual(['Complaint angry@gmail.com']);
      expect(await types('q=msg-2')).toEqual(['Bounce gone@example.com']);
      expect(await types('q=Angry@Gmail.com')).toEqual(['Complaint angry@gmail.com']);
      expect((await page(`/api/ses-events?startDate=${DAY}2&endDate=${DAY}2`)).total).toBe(1);
      expect((await page(`/api/ses-events?${range}`)).total).toBe(4);
    });

    it('pages by cursor, each event once, in either order', async () => {
      for (const order of ['asc', 'desc']) {
        const seen: number[] = [];
        let url = `/api/ses-events?perPage=4&sort=event_at&order=${order}`;
        for (;;) {
          const p = await page(url);
          seen.push(...p.data.map((r) => r.id));
          if (!p.nextCursor) break;
          url = `/api/ses-events?perPage=4&sort=event_at&order=${order}&cursor=${p.nextCursor}`;
        }
        expect(new Set(seen).size).toBe(6);
        expect(seen).toHaveLength(6);
      }
    });

    it('answers 400 naming the parameter for bad query values', async () => {
      for (const [query, field] of [
        ['event_type=Sent', 'event_type'],
        ['bounce_type=Hard', 'bounce_type'],
        ['client=abc', 'client'],
        ['startDate=2021-02-30', 'startDate'],
        ['sort=recipient', 'sort'],
        ['cursor=bad', 'cursor'],
        [`recipient=${'a'.repeat(400)}`, 'recipient'],
      ] as const) {
        const res = await get(`/api/ses-events?${query}`);
        expect({ query: query.slice(0, 30), status: res.statusCode }).toEqual({ query: query.slice(0, 30), status: 400 });
        expect(JSON.stringify(res.json())).toContain(field);
      }
    });

    it('details an event with its raw JSON; 404 and 400 for missing and bad ids', async () => {
      const res = await get(`/api/ses-events/${bounceId}`);
      expect(res.statusCode).toBe(200);
      const d = (res.json() as { data: SesEventDetail }).data;
      expect(d.raw).toEqual({ eventType: 'Bounce', mail: { messageId: 'msg-2', destination: ['gone@example.com'] } });
      expect(d.received_at).toMatch(/^\d{4}-/);
      expect((await get('/api/ses-events/999999999')).statusCode).toBe(404);
      expect((await get('/api/ses-events/abc')).statusCode).toBe(400);
    });

    it('exports CSV with the labels, types in words and times in the client’s zone or UTC, named; audited', async () => {
      const res = await get(
        `/api/ses-events/export?${range}&columns=event_at,event_type,recipient,bounce,client_name&sort=event_at&order=asc`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/filename="ses-logs-\d{4}-\d{2}-\d{2}\.csv"/);
      const csv = parseCsv(res.body.slice(1));
      expect(csv[0]).toEqual(['Event time', 'Event type', 'Recipient', 'Bounce type/subtype', 'Client']);
      expect(csv[1]).toEqual(['Jun 1, 2021, 5:00 AM CDT', 'Send', 'jane@example.com', '', clientName]);
      expect(csv[3]?.slice(1, 4)).toEqual(['Bounce', 'gone@example.com', 'Permanent (hard) · No such address']);
      expect(csv[4]?.slice(0, 2)).toEqual(['Jun 3, 2021, 10:00 AM UTC', 'Complaint']);
      expect(csv).toHaveLength(5);
      const audits = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'ses_events.export'), eq(systemLogs.entityType, 'ses_event')));
      expect(audits).toHaveLength(1);
    });

    it('offers the Clients filter’s options from Tracking Logs’ collection, by name', async () => {
      const spec = sesEventResource.filters.client;
      expect(spec.optionsPath).toBe('/api/notifications-logs/options/client');
      const res = await get(`${spec.optionsPath}?q=${encodeURIComponent(clientName.slice(0, 4))}`);
      expect(res.statusCode).toBe(200);
      expect((res.json() as { data: { value: string; label: string }[] }).data).toContainEqual({
        value: String(clientId),
        label: clientName,
      });
    });
  });
}
