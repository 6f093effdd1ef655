import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amplifications, emailOptOuts, notificationLogs, reviews, systemLogs, users } from '../src/db/schema/index.ts';
import { type AlertWorld, makeWorld } from './alerts-fixture.ts';
import { makeAmp, makeReview } from './amplification-match-fixture.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const PATH = '/api/v1/reputation';
const MINUTE = 60_000;

for (const kind of testDatabaseKinds()) {
  describe(`Reputation Panel row actions on a review invitation (${kind})`, () => {
    let ctx: TestContext;
    let world: AlertWorld;
    let headers: Record<string, string>;
    let adminId = 0;
    const db = () => ctx.database.db;
    const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const ampOf = async (id: number) => {
      const [row] = await db().select().from(amplifications).where(eq(amplifications.id, id));
      if (!row) throw new Error('no amplification');
      return row;
    };
    const audited = async (action: string, id: number) =>
      db()
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, action), eq(systemLogs.entityId, String(id))));
    let n = 0;
    /** An invitation made a few minutes ago, clicked unless told. */
    const amp = async (input: Partial<Parameters<typeof makeAmp>[2]> = {}) => {
      const t = new Date(Date.now() - 30 * MINUTE);
      return makeAmp(db(), world, { name: `Rae${++n} Lee`, invitedAt: t, clickedAt: t, ...input });
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      world = await makeWorld(db(), `act-${kind}`);
      await db().update(users).set({ currentClientId: world.clientId }).where(eq(users.email, 'admin@example.com'));
      const [admin] = await db().select({ id: users.id }).from(users).where(eq(users.email, 'admin@example.com'));
      adminId = admin?.id ?? 0;
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(async () => ctx?.close());

    it('the demo has review invitations, made when its responses were recorded', async () => {
      const rows = await db().select({ status: amplifications.status }).from(amplifications).limit(5000);
      expect(rows.length).toBeGreaterThan(0);
    });

    it('Resend invite sends one e-mail with the /r/ links, records it, audits it, and refuses a second', async () => {
      const id = await amp();
      const res = await call('POST', `${PATH}/${id}/resend`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: { id } });
      const row = await ampOf(id);
      expect(row.reminderSentAt).not.toBeNull();
      const [log] = await db()
        .select()
        .from(notificationLogs)
        .where(and(eq(notificationLogs.relatedType, 'amplification'), eq(notificationLogs.relatedId, String(id))))
        .orderBy(desc(notificationLogs.id));
      expect(log).toMatchObject({
        type: 'review_invite',
        channel: 'email',
        recipient: 'dana@customer.test',
        status: expect.stringMatching(/sent|queued/),
      });
      expect(log?.bodyText).toContain(`/r/${row.token}`);
      expect(log?.bodyText).toContain('Google:');
      expect(await audited('amplifications.resend', id)).toHaveLength(1);

      const again = await call('POST', `${PATH}/${id}/resend`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/A reminder was already sent .*only one is sent/);
    });

    it('Resend invite says why it sent nothing: opted out, no SMS consent, already posted', async () => {
      const optedOut = await amp();
      await db()
        .insert(emailOptOuts)
        .values({ email: 'dana@customer.test', clientId: world.clientId, source: 'unsubscribe_link', createdAt: new Date() });
      const refused = await call('POST', `${PATH}/${optedOut}/resend`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/not sent/);
      expect((await ampOf(optedOut)).reminderSentAt).toBeNull();
      // The audit trail says it was asked for and not sent, never only "sent".
      const trail = await audited('amplifications.resend', optedOut);
      expect(trail.sort((a, b) => a.id - b.id).map((r) => r.message)).toEqual([
        expect.stringMatching(/^Sent a review reminder/),
        expect.stringMatching(/was not sent: /),
      ]);
      await db().delete(emailOptOuts).where(eq(emailOptOuts.email, 'dana@customer.test'));

      const sms = await amp();
      await db().update(amplifications).set({ channel: 'sms' }).where(eq(amplifications.id, sms));
      const noConsent = await call('POST', `${PATH}/${sms}/resend`);
      expect(noConsent.statusCode).toBe(409);
      expect(noConsent.json().message).toMatch(/did not agree to text messages/);

      const posted = await amp({ status: 'posted' });
      expect((await call('POST', `${PATH}/${posted}/resend`)).statusCode).toBe(409);
    });

    it('lists the location’s unmatched reviews on the site, newest first, each with its score', async () => {
      const id = await amp({ name: 'Sam Cole' });
      const now = new Date();
      const older = await makeReview(
        db(),
        world,
        { author: 'Sam C', createdAt: new Date(now.getTime() - 10 * MINUTE), text: 'x'.repeat(400) },
        now,
      );
      const newer = await makeReview(db(), world, { author: 'Zed Q', createdAt: new Date(now.getTime() - 5 * MINUTE) }, now);
      const facebook = await makeReview(db(), world, { author: 'Sam C', createdAt: now, site: 'facebook', rating: 5 }, now);
      const res = await call('GET', `${PATH}/${id}/candidates`);
      expect(res.statusCode, res.body).toBe(200);
      const list: { id: number; score: number; excerpt: string | null; authorName: string }[] = res.json().data;
      const ids = list.map((c) => c.id);
      expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
      expect(ids).not.toContain(facebook);
      const sam = list.find((c) => c.id === older);
      expect(sam?.score).toBeGreaterThanOrEqual(70);
      expect(sam?.excerpt?.length).toBeLessThanOrEqual(160);
      expect(list.find((c) => c.id === newer)?.score).toBeLessThan(sam?.score ?? 0);
    });

    it('Match by hand, then Unmatch: audited; a review held elsewhere is refused; a review of another location names the field', async () => {
      const id = await amp({ clickedAt: null });
      const other = await amp();
      const now = new Date();
      const reviewId = await makeReview(db(), world, { author: 'Whoever', createdAt: now }, now);
      const matched = await call('POST', `${PATH}/${id}/match`, { reviewId });
      expect(matched.statusCode, matched.body).toBe(200);
      expect(await ampOf(id)).toMatchObject({
        status: 'posted',
        reviewId,
        matchedBy: 'manual',
        matchedByUserId: adminId,
        matchConfidence: null,
      });
      expect(await audited('amplifications.match', id)).toHaveLength(1);

      const taken = await call('POST', `${PATH}/${other}/match`, { reviewId });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toMatch(/matched to another invitation/);

      const elsewhere = await makeReview(db(), world, { author: 'Whoever', createdAt: now, locationId: world.otherLocationId }, now);
      const wrong = await call('POST', `${PATH}/${other}/match`, { reviewId: elsewhere });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({ reviewId: ['The Review field must be a Google review of Downtown'] });
      const missing = await call('POST', `${PATH}/${other}/match`, {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toHaveProperty('reviewId');

      const unmatched = await call('POST', `${PATH}/${id}/unmatch`);
      expect(unmatched.statusCode).toBe(200);
      expect(await ampOf(id)).toMatchObject({ status: 'invited', reviewId: null, matchedBy: null, matchedByUserId: null });
      expect(await audited('amplifications.unmatch', id)).toHaveLength(1);
      expect((await call('POST', `${PATH}/${id}/unmatch`)).statusCode).toBe(409);
      // The review is free again: the other invitation may take it.
      expect((await call('POST', `${PATH}/${other}/match`, { reviewId })).statusCode).toBe(200);
      expect(await ampOf(other)).toMatchObject({ status: 'posted', reviewId });
    });

    it('Dismiss suggestion clears it, once', async () => {
      const id = await amp();
      const now = new Date();
      const reviewId = await makeReview(db(), world, { author: 'Someone', createdAt: now }, now);
      await db().update(amplifications).set({ suggestedReviewId: reviewId, suggestedConfidence: 55 }).where(eq(amplifications.id, id));
      expect((await call('POST', `${PATH}/${id}/dismiss-suggestion`)).statusCode).toBe(200);
      expect(await ampOf(id)).toMatchObject({ suggestedReviewId: null, suggestedConfidence: null });
      expect(await audited('amplifications.dismiss_suggestion', id)).toHaveLength(1);
      expect((await call('POST', `${PATH}/${id}/dismiss-suggestion`)).statusCode).toBe(409);
    });

    it('another client’s invitation is not found; no session is refused', async () => {
      const id = await amp();
      await db().update(users).set({ currentClientId: world.otherClientId }).where(eq(users.email, 'admin@example.com'));
      try {
        for (const [method, action] of [
          ['POST', 'resend'],
          ['GET', 'candidates'],
          ['POST', 'unmatch'],
          ['POST', 'dismiss-suggestion'],
        ] as const) {
          const res = await call(method, `${PATH}/${id}/${action}`);
          expect(res.statusCode, action).toBe(404);
          expect(res.json().message).toBe('Review invitation not found.');
        }
        expect((await call('POST', `${PATH}/${id}/match`, { reviewId: 1 })).statusCode).toBe(404);
      } finally {
        await db().update(users).set({ currentClientId: world.clientId }).where(eq(users.email, 'admin@example.com'));
      }
      const anonymous = await ctx.app.inject({ method: 'POST', url: `${PATH}/${id}/resend` });
      expect(anonymous.statusCode).toBe(401);
      expect((await ampOf(id)).reminderSentAt).toBeNull();
      const [r] = await db().select({ id: reviews.id }).from(reviews).limit(1);
      expect(r).toBeDefined();
    });
  });
}
