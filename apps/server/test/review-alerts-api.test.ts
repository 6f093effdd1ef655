import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  clientUsers,
  locations,
  reviewAlertDeliveries,
  reviewAlertRecipients,
  reviewAlertRules,
  systemLogs,
} from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const PATH = '/api/review-alert-settings';

for (const kind of testDatabaseKinds()) {
  describe(`Review Alert Settings API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let locationId: string;
    let userId: number;
    let other: { locationId: string; userId: number };
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, payload });
    const base = () => ({ name: 'Bad reviews', sites: ['google'], channels: ['email'], recipient_user_ids: [userId] });
    const create = (body: Record<string, unknown>) => send('POST', PATH, { ...base(), ...body });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      clientId = (await get('/api/user')).json().data.user.current_client_id;
      const db = ctx.database.db;
      const [l] = await db.select().from(locations).where(eq(locations.clientId, clientId)).limit(1);
      const [u] = await db
        .select()
        .from(clientUsers)
        .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.status, 'active')))
        .limit(1);
      const [ol] = await db.select().from(locations).where(ne(locations.clientId, clientId)).limit(1);
      const [ou] = await db.select().from(clientUsers).where(ne(clientUsers.clientId, clientId)).limit(1);
      if (!l || !u || !ol || !ou) throw new Error('demo data lacks locations or users');
      locationId = l.id;
      userId = u.userId;
      other = { locationId: ol.id, userId: ou.userId };
    });
    afterAll(() => ctx.close());

    it('gives every demo client a 1–2 star instant rule and a weekly digest', async () => {
      const db = ctx.database.db;
      const seeded = await db.select().from(reviewAlertRules);
      const allClients = await db.select({ id: clients.id }).from(clients);
      for (const { id } of allClients) {
        const own = seeded.filter((r) => r.clientId === id);
        expect(own.map((r) => `${r.name}:${r.frequency}`).sort()).toEqual([
          '1–2 star reviews, instant:instant',
          'Weekly digest of every review:weekly',
        ]);
      }
      // The demo's negative reviews, ingested after the rules, fire the instant rule once their jobs run.
      await ctx.app.jobs.runDue();
      const instant = seeded.filter((r) => r.frequency === 'instant').map((r) => r.id);
      const fired = await db.select().from(reviewAlertDeliveries).where(inArray(reviewAlertDeliveries.ruleId, instant));
      expect(fired.filter((d) => d.status === 'sent').length).toBeGreaterThan(0);
    });

    it('creates a rule as the form sends it, audited, and reads it back with names and labels', async () => {
      const res = await create({
        name: '  1–2 stars  ',
        location_ids: [locationId],
        sites: ['google', 'facebook'],
        rating_min: 1,
        rating_max: 2,
        recommend_filter: ['not_recommended'],
        text_filter: 'with_text',
        keywords: ['rude', ' dirty ', 'rude'],
        channels: ['email', 'sms'],
        recipient_user_ids: [userId, 1000],
        extra_emails: ['Owner@Example.com'],
        frequency: 'weekly',
        send_time: '08:30',
        weekly_day: 'mon',
        include_reply_link: true,
      });
      expect(res.statusCode).toBe(201);
      const rule = res.json().data;
      expect(rule).toMatchObject({
        client_id: clientId,
        name: '1–2 stars',
        location_ids: [locationId],
        sites: ['google', 'facebook'],
        keywords: ['rude', 'dirty'],
        extra_emails: ['owner@example.com'],
        frequency: 'weekly',
        send_time: '08:30',
        weekly_day: 'mon',
        include_reply_link: true,
        last_sent_at: null,
        status: 'active',
      });
      expect(rule.location_names[0]).not.toBe(locationId);
      expect(rule.recipients.find((r: { id: number }) => r.id === 1000).name).toBe('Default for New User');
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'review_alert_rule.create'), eq(systemLogs.entityId, String(rule.id))));
      expect(log?.clientId).toBe(clientId);
    });

    it('refuses bad input with 422, naming each field as the form labels it', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: '' }, 'name', 'The Rule field is required'],
        [{ sites: [] }, 'sites', 'The Sites field is required'],
        [{ sites: ['myspace'] }, 'sites', 'The Sites field must be a valid value'],
        [{ rating_min: 0 }, 'rating_min', 'The Lowest rating field must be between 1 and 5'],
        [{ rating_max: 6 }, 'rating_max', 'The Highest rating field must be between 1 and 5'],
        [{ rating_min: 4, rating_max: 2 }, 'rating_max', 'The Highest rating field must be 4 or more (the Lowest rating)'],
        [{ recommend_filter: ['maybe'] }, 'recommend_filter', 'The Facebook recommendation field must be a valid value'],
        [{ text_filter: 'some' }, 'text_filter', 'The Text filter field must be a valid value'],
        [{ channels: ['fax'] }, 'channels', 'The Channels field must be a valid value'],
        [{ frequency: 'hourly' }, 'frequency', 'The Frequency field must be a valid value'],
        [{ frequency: 'daily' }, 'send_time', 'The Send time field is required for a digest'],
        [{ frequency: 'daily', send_time: '25:00' }, 'send_time', 'The Send time must be in the format HH:mm'],
        [{ frequency: 'weekly', send_time: '08:00' }, 'weekly_day', 'The Weekly day field is required for a weekly digest'],
        [{ frequency: 'weekly', send_time: '08:00', weekly_day: 'someday' }, 'weekly_day', 'The Weekly day field must be a valid value'],
        [{ keywords: ['x'.repeat(51)] }, 'keywords', 'The Keywords field may not be greater than 50 characters'],
        [
          { location_ids: [other.locationId] },
          'location_ids',
          `The Locations field names locations that are not this client's: ${other.locationId}`,
        ],
        [
          { recipient_user_ids: [other.userId] },
          'recipient_user_ids',
          `The Recipient users field names people who are not active users of this client: ${other.userId}`,
        ],
        [
          { recipient_user_ids: [] },
          'recipient_user_ids',
          'The Recipient users field needs at least one recipient: a user, an extra email or an extra phone',
        ],
      ];
      for (const [body, field, message] of cases) {
        const res = await create(body);
        expect({ body, status: res.statusCode }).toEqual({ body, status: 422 });
        expect({ body, errors: res.json().errors[field] }).toEqual({ body, errors: [message] });
      }
      const many = await create({ keywords: Array.from({ length: 51 }, (_, i) => `w${i}`) });
      expect(many.json().errors.keywords).toEqual(['The Keywords field may have at most 50 keywords']);
    });

    it('filters by site, location, recipient and status; pauses, duplicates and archives', async () => {
      const yelp = (await create({ name: 'Yelp only', sites: ['yelp'], location_ids: [locationId] })).json().data;
      const names = async (query: string) => (await get(`${PATH}?${query}&perPage=100`)).json().data.map((r: { name: string }) => r.name);
      const onYelp = await names('site=yelp');
      expect(onYelp).toContain('Yelp only');
      expect(onYelp).not.toContain('1–2 stars');
      expect(await names(`location=${locationId}`)).toContain('Yelp only');
      expect(await names(`recipient=${userId}`)).toContain('Yelp only');
      const paused = await send('PATCH', `${PATH}/${yelp.id}/status`, { status: 'paused', updated_at: yelp.updated_at });
      expect(paused.json().data.status).toBe('paused');
      expect(await names('status=paused')).toEqual(['Yelp only']);
      const copy = await ctx.app.inject({ method: 'POST', url: `${PATH}/${yelp.id}/duplicate`, headers, payload: {} });
      expect(copy.statusCode).toBe(201);
      expect(copy.json().data).toMatchObject({ name: 'Yelp only (copy)', status: 'active', sites: ['yelp'], recipient_user_ids: [userId] });
    });

    it('Send test alerts the rule recipients now, marked as a test, every time; archived rules refuse', async () => {
      const rule = (await create({ name: 'Tested', extra_emails: [`test-${kind}@alert.test`], recipient_user_ids: [] })).json().data;
      const test = () => ctx.app.inject({ method: 'POST', url: `${PATH}/${rule.id}/test`, headers, payload: {} });
      const res = await test();
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ sent: 1, recipients: [`test-${kind}@alert.test`] });
      expect((await test()).json().data.sent).toBe(1);
      const rows = await ctx.database.db.select().from(reviewAlertDeliveries).where(eq(reviewAlertDeliveries.ruleId, rule.id));
      expect(rows.map((r) => ({ test: r.test, status: r.status }))).toEqual([
        { test: true, status: 'sent' },
        { test: true, status: 'sent' },
      ]);
      const fresh = (await get(`${PATH}/${rule.id}`)).json().data;
      await send('PATCH', `${PATH}/${rule.id}/status`, { status: 'inactive', updated_at: fresh.updated_at });
      expect((await test()).statusCode).toBe(409);
      expect((await ctx.app.inject({ method: 'POST', url: `${PATH}/999999/test`, headers, payload: {} })).statusCode).toBe(404);
    });

    it('a 1-star review posted through POST /api/v1/reviews fires an instant review alert, a Tracking Logs row; posted again, nothing more', async () => {
      const to = `instant-${kind}@alert.test`;
      const rule = (
        await create({
          name: 'Instant e2e',
          rating_min: 1,
          rating_max: 2,
          // Only this test's review: the demo's own negative reviews are evaluated by the same jobs.
          keywords: [`sorryless${kind}`],
          extra_emails: [to],
          recipient_user_ids: [],
        })
      ).json().data;
      const tokenRes = await send('POST', '/api/api-token', { user_id: userId, name: 'Reviews', scopes: ['reviews:write'] });
      expect(tokenRes.statusCode, tokenRes.body).toBe(201);
      const token = tokenRes.json().data.token;
      const now = ctx.app.clock.now().getTime();
      const item = {
        reviewId: `alert-${kind}-${now}`,
        locationId,
        reviewer: { displayName: 'Casey Angry' },
        starRating: 'ONE',
        comment: `Waited an hour, sorryless${kind} service.`,
        createTime: new Date(now - 3_600_000).toISOString(),
      };
      const post = () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/reviews',
          remoteAddress: '127.0.0.1',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          payload: JSON.stringify({ reviews: [item] }),
        });
      expect((await post()).statusCode).toBe(200);
      await ctx.app.jobs.runDue();
      const logs = (await get(`/api/notifications-logs?recipient=${encodeURIComponent(to)}&client=${clientId}`)).json().data;
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ type: 'review_alert', delivery_status: 'sent' });
      expect((await get(`${PATH}/${rule.id}`)).json().data.last_sent_at).not.toBeNull();
      expect((await post()).statusCode).toBe(200);
      await ctx.app.jobs.runDue();
      expect((await get(`/api/notifications-logs?recipient=${encodeURIComponent(to)}&client=${clientId}`)).json().data).toHaveLength(1);
    });

    it('a user added to the client later joins the review rules that list Default for New User, and only those', async () => {
      const withDefault = (await create({ name: 'Everyone new', recipient_user_ids: [1000] })).json().data;
      const without = (await create({ name: 'Only extra', recipient_user_ids: [], extra_emails: ['x@example.com'] })).json().data;
      const added = await send('POST', '/api/client-users', {
        name: `Pat Review ${kind}`,
        email: `pat.review-${kind}@example.com`,
        role: 'manager',
        alert_channels: ['email'],
      });
      expect(added.statusCode).toBe(201);
      const user = added.json().data;
      const joined = await ctx.database.db.select().from(reviewAlertRecipients).where(eq(reviewAlertRecipients.userId, user.id));
      expect(joined.map((j) => j.ruleId)).toContain(withDefault.id);
      expect(joined.map((j) => j.ruleId)).not.toContain(without.id);
      expect(joined.every((j) => j.addedBy === 'default')).toBe(true);
      const rule = (await get(`${PATH}/${withDefault.id}`)).json().data;
      expect(rule.recipients).toContainEqual({ id: user.id, name: `Pat Review ${kind}`, added_by: 'default' });
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'client_user.create'), eq(systemLogs.entityId, String(user.id))));
      expect(log?.message).toContain('Everyone new');
    });
  });
}
