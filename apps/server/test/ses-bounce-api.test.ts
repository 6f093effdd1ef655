import { type EmailSuppression, parseCsv } from '@admin/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSuppressions, systemLogs } from '../src/db/schema/index.ts';
import { type TestContext, testDatabaseKinds } from './helpers.ts';
import { openSesWorld } from './ses-bed.ts';

type Page = { data: EmailSuppression[]; total: number; nextCursor: string | null };

for (const kind of testDatabaseKinds()) {
  describe(`SES Bounce API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientName: string;
    let otherClientName: string;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const post = (url: string, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url, headers, payload });
    const emails = async (query: string) => {
      const res = await get(`/api/email-suppressions?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Page).data.map((r) => r.email);
    };
    const audits = (action: string, email: string) =>
      ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, action), eq(systemLogs.entityId, email)));
    const sendTo = (to: string) => ctx.app.messenger.send({ channel: 'email', type: 'system', to, subject: 'Hello', text: 'x' });

    beforeAll(async () => {
      ({ ctx, headers, clientName, otherClientName } = await openSesWorld(kind));
    });
    afterAll(() => ctx.close());

    it('lists one row per address, last seen first, with counts (30 days from SES Logs / all) and clients by name', async () => {
      const res = await get('/api/email-suppressions');
      expect(res.statusCode).toBe(200);
      const p = res.json() as Page;
      expect(p.data.map((r) => r.email)).toEqual(['soft@example.com', 'angry@gmail.com', 'gone@example.com']);
      const soft = p.data[0];
      expect(soft).toMatchObject({
        suppressed: false,
        reason: 'BOUNCE',
        bounce_count_30d: 1,
        bounce_count: 2,
        last_bounce_subtype: 'MailboxFull',
      });
      expect(soft?.clients).toEqual([clientName, otherClientName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(p.data[2]).toMatchObject({
        suppressed: true,
        last_bounce_type: 'Permanent',
        last_template: 'New review',
        clients: [otherClientName],
      });
      expect(await emails('sort=email&order=asc')).toEqual(['angry@gmail.com', 'gone@example.com', 'soft@example.com']);
    });

    it('filters by bounce type, subtype, suppressed, reason, domain, last-seen dates and search', async () => {
      expect(await emails('bounce_type=Permanent')).toEqual(['gone@example.com']);
      expect(await emails('subtype=MailboxFull')).toEqual(['soft@example.com']);
      expect(await emails('suppressed=no')).toEqual(['soft@example.com']);
      expect(await emails('suppressed=yes')).toEqual(['angry@gmail.com', 'gone@example.com']);
      expect(await emails('reason=COMPLAINT')).toEqual(['angry@gmail.com']);
      expect(await emails(`domain=${encodeURIComponent('@GMAIL.com')}`)).toEqual(['angry@gmail.com']);
      expect(await emails('domain=example.com')).toEqual(['soft@example.com', 'gone@example.com']);
      // A domain is the end of the address, not any part of it.
      expect(await emails('domain=example')).toEqual([]);
      expect(await emails('startDate=2021-06-02&endDate=2021-06-02')).toEqual(['gone@example.com']);
      expect(await emails('q=GONE')).toEqual(['gone@example.com']);
      for (const query of ['suppressed=maybe', 'reason=SPAM', 'subtype=Full', 'sort=reason']) {
        expect((await get(`/api/email-suppressions?${query}`)).statusCode, query).toBe(400);
      }
    });

    it('pages by cursor, each address once', async () => {
      const seen: string[] = [];
      let url = '/api/email-suppressions?perPage=2';
      for (;;) {
        const res = await get(url);
        const p = res.json() as Page;
        seen.push(...p.data.map((r) => r.email));
        if (!p.nextCursor) break;
        url = `/api/email-suppressions?perPage=2&cursor=${p.nextCursor}`;
      }
      expect(seen).toEqual(['soft@example.com', 'angry@gmail.com', 'gone@example.com']);
    });

    it('exports CSV with the labels and words; times in UTC, named', async () => {
      const res = await get(
        '/api/email-suppressions/export?columns=email,suppressed,reason,last_bounce_type,description,bounce_count,last_seen_at&sort=email&order=asc',
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/filename="ses-bounce-\d{4}-\d{2}-\d{2}\.csv"/);
      const csv = parseCsv(res.body.slice(1));
      expect(csv[0]).toEqual(['Email', 'Suppressed', 'Reason', 'Last bounce type', 'Description', 'Bounce count (30d / all)', 'Last seen']);
      expect(csv[2]?.slice(0, 4)).toEqual(['gone@example.com', 'Yes', 'Bounce', 'Permanent (hard)']);
      expect(csv[2]?.[4]).toMatch(/does not exist/);
      expect(csv[2]?.slice(5)).toEqual(['0 / 1', 'Jun 2, 2021, 10:00 AM UTC']);
      expect(csv[1]?.slice(1, 3)).toEqual(['Yes', 'Complaint']);
      expect(csv[3]?.slice(1, 2)).toEqual(['No']);
    });

    it('refuses a release without a reason or with a reason over 500 characters (400 naming Reason), of an address not suppressed (409) or unknown (404)', async () => {
      for (const payload of [{ email: 'gone@example.com' }, { email: 'gone@example.com', reason: '   ' }]) {
        const res = await post('/api/email-suppressions/release', payload);
        expect(res.statusCode).toBe(400);
        expect(res.body).toContain('The Reason field is required');
      }
      const long = await post('/api/email-suppressions/release', { email: 'gone@example.com', reason: 'x'.repeat(501) });
      expect(long.statusCode).toBe(400);
      expect(long.body).toContain('The Reason field may not be greater than 500 characters');
      const notSuppressed = await post('/api/email-suppressions/release', { email: 'soft@example.com', reason: 'test' });
      expect(notSuppressed.statusCode).toBe(409);
      expect(notSuppressed.body).toContain('soft@example.com is not suppressed');
      expect((await post('/api/email-suppressions/release', { email: 'nobody@example.com', reason: 'test' })).statusCode).toBe(404);
      const [still] = await ctx.database.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, 'gone@example.com'));
      expect(still?.suppressed).toBe(true);
      expect(await audits('ses_bounce.release', 'gone@example.com')).toHaveLength(0);
    });

    it('releases a suppressed address: the row and its counts stay with who, when and why; audited; the next message goes out', async () => {
      expect((await sendTo('gone@example.com')).status).toBe('suppressed');
      const res = await post('/api/email-suppressions/release', { email: 'Gone@Example.com', reason: 'The customer fixed the mailbox' });
      expect(res.statusCode, res.body).toBe(200);
      const row = (res.json() as { data: EmailSuppression }).data;
      expect(row).toMatchObject({
        email: 'gone@example.com',
        suppressed: false,
        bounce_count: 1,
        release_reason: 'The customer fixed the mailbox',
      });
      expect(row.released_by_name).toBeTruthy();
      expect(row.released_at).not.toBeNull();
      const [audit] = await audits('ses_bounce.release', 'gone@example.com');
      expect(audit).toMatchObject({
        entityType: 'email_suppression',
        after: { suppressed: false, release_reason: 'The customer fixed the mailbox' },
      });
      expect(audit?.actorUserId).not.toBeNull();
      expect((await sendTo('gone@example.com')).status).toBe('sent');
      expect((await post('/api/email-suppressions/release', { email: 'gone@example.com', reason: 'again' })).statusCode).toBe(409);
    });

    it('suppresses an address by hand (lower-cased, reason MANUAL), audited; the sender then refuses it', async () => {
      for (const [payload, message] of [
        [{}, 'The Email field is required'],
        [{ email: '' }, 'The Email field is required'],
        [{ email: 'not-an-address' }, 'The Email field must be a valid email'],
        [{ email: 'a@example.com', reason: 'x'.repeat(501) }, 'The Reason field may not be greater than 500 characters'],
      ] as const) {
        const res = await post('/api/email-suppressions', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.body).toContain(message);
      }
      expect((await sendTo('new.person@example.com')).status).toBe('sent');
      const res = await post('/api/email-suppressions', { email: ' New.Person@Example.com ', reason: 'Asked by phone' });
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as { data: EmailSuppression }).data).toMatchObject({
        email: 'new.person@example.com',
        suppressed: true,
        reason: 'MANUAL',
        note: 'Asked by phone',
      });
      expect(await audits('ses_bounce.suppress', 'new.person@example.com')).toHaveLength(1);
      expect((await sendTo('new.person@example.com')).status).toBe('suppressed');
      // An address already listed is suppressed again by hand, its counts kept.
      const again = await post('/api/email-suppressions', { email: 'soft@example.com' });
      expect(again.statusCode).toBe(200);
      expect((again.json() as { data: EmailSuppression }).data).toMatchObject({ suppressed: true, reason: 'MANUAL', bounce_count: 2 });
      expect(await emails('reason=MANUAL&sort=email&order=asc')).toEqual(['new.person@example.com', 'soft@example.com']);
    });
  });
}
