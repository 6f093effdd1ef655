import { type NotificationLogDetail, notificationLogResource, parseCsv } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from './helpers.ts';
import { testDatabaseKinds } from './helpers.ts';
import { DAY, openTrackingWorld, type Page } from './tracking-logs-bed.ts';

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

    beforeAll(async () => {
      ({ ctx, headers, clientId, otherClientId, locationId, inviteId } = await openTrackingWorld(kind));
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
  });
}
