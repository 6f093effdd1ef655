import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { amplifications, emailOptOuts, locations, surveyResponses, surveys } from '../src/db/schema/index.ts';
import { findInvitation } from '../src/public/repository.ts';
import { inviteToReview } from '../src/reputation/amplify/invite.ts';
import { alertBed } from './alerts-bed.ts';
import { answer, LINKS, makeSurveyLink, reviewHrefs } from './amplification-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-04-06T15:00:00Z');
const MINUTE = 60_000;

for (const kind of testDatabaseKinds()) {
  describe(`Review invitations on the thank-you page (${kind})`, () => {
    const bed = alertBed(kind, START, `amp-${kind}`);
    const db = () => bed.database.db;
    const setLinks = () => db().update(locations).set({ reviewLinks: LINKS }).where(eq(locations.id, bed.world.locationId));
    const ampsOf = async (token: string) => {
      const invitation = await findInvitation(db(), token);
      if (!invitation?.responseId) return [];
      return db().select().from(amplifications).where(eq(amplifications.responseId, invitation.responseId)).orderBy(amplifications.id);
    };

    it('answering makes one invited amplification per offered site, and the page links each to /r/{token}', async () => {
      await setLinks();
      bed.clock.advance(MINUTE);
      const token = await makeSurveyLink(db(), bed.world, { firstName: 'Dana', lastName: 'Lee' }, bed.clock.now());
      const page = await answer(bed.app, token, 9, 'Great service from Pete');
      expect(page.status).toBe(200);
      const rows = await ampsOf(token);
      expect(rows.map((r) => r.site)).toEqual(['google', 'facebook']);
      for (const row of rows) {
        expect(row).toMatchObject({
          status: 'invited',
          customerName: 'Dana Lee',
          surveyScore: 9,
          channel: 'email',
          clientId: bed.world.clientId,
          locationId: bed.world.locationId,
          clickCount: 0,
        });
        expect(row.invitedAt.getTime()).toBe(bed.clock.now().getTime());
        expect(row.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
      }
      expect(new Set(rows.map((r) => r.token)).size).toBe(2);
      expect(reviewHrefs(page.body)).toEqual(rows.map((r) => `/r/${r.token}`));
      expect(page.body).toContain('Review us on Google');
      expect(page.body).toContain('Review us on Facebook');
      // The stored links are reached only through /r/: never on the page itself.
      expect(page.body).not.toContain(LINKS.google);
      expect(page.body).not.toContain('javascript:');

      // The answered link, opened again, shows the same links.
      const again = await bed.app.inject({ method: 'GET', url: `/s/${token}`, headers: { accept: 'text/html' } });
      expect(again.body).toContain('You have already answered this survey');
      expect(reviewHrefs(again.body)).toEqual(rows.map((r) => `/r/${r.token}`));
    });

    it('is idempotent on response and site', async () => {
      bed.clock.advance(MINUTE);
      const token = await makeSurveyLink(db(), bed.world, {}, bed.clock.now());
      await answer(bed.app, token, 10);
      const before = await ampsOf(token);
      const invitation = await findInvitation(db(), token);
      if (!invitation?.responseId) throw new Error('not answered');
      await inviteToReview(db(), invitation, invitation.responseId, 10, bed.clock.now());
      const after = await ampsOf(token);
      expect(after.map((r) => [r.id, r.token])).toEqual(before.map((r) => [r.id, r.token]));
    });

    it('records a respondent who opted out as opted_out', async () => {
      bed.clock.advance(MINUTE);
      const email = 'gone@customer.test';
      await db()
        .insert(emailOptOuts)
        .values({ email, clientId: bed.world.clientId, source: 'unsubscribe_link', createdAt: bed.clock.now() });
      const token = await makeSurveyLink(db(), bed.world, { email }, bed.clock.now());
      await answer(bed.app, token, 9);
      const rows = await ampsOf(token);
      expect(rows.map((r) => r.status)).toEqual(['opted_out', 'opted_out']);
      expect(rows[0]?.statusReason).toMatch(/opted out/);
    });

    it('an opt-out of another client does not count', async () => {
      bed.clock.advance(MINUTE);
      const email = 'elsewhere@customer.test';
      await db()
        .insert(emailOptOuts)
        .values({ email, clientId: bed.world.otherClientId, source: 'unsubscribe_link', createdAt: bed.clock.now() });
      const token = await makeSurveyLink(db(), bed.world, { email }, bed.clock.now());
      await answer(bed.app, token, 9);
      expect((await ampsOf(token)).map((r) => r.status)).toEqual(['invited', 'invited']);
    });

    it('threshold mode offers (and records) sites only at or above its score', async () => {
      await db()
        .update(surveys)
        .set({ reviewInviteMode: 'threshold', reviewInviteThreshold: 9 })
        .where(eq(surveys.id, bed.world.otherSurveyId));
      bed.clock.advance(MINUTE);
      const low = await makeSurveyLink(db(), bed.world, { surveyId: bed.world.otherSurveyId }, bed.clock.now());
      const lowPage = await answer(bed.app, low, 8);
      expect(reviewHrefs(lowPage.body)).toEqual([]);
      expect(await ampsOf(low)).toEqual([]);
      const high = await makeSurveyLink(db(), bed.world, { surveyId: bed.world.otherSurveyId }, bed.clock.now());
      const highPage = await answer(bed.app, high, 9);
      expect(reviewHrefs(highPage.body)).toHaveLength(2);
      expect(await ampsOf(high)).toHaveLength(2);
    });

    it('a location without stored links offers nothing; a Send test links straight to the stored links', async () => {
      bed.clock.advance(MINUTE);
      const bare = await makeSurveyLink(db(), bed.world, { locationId: bed.world.otherLocationId }, bed.clock.now());
      const barePage = await answer(bed.app, bare, 10);
      expect(barePage.body).not.toContain('Review us on');
      expect(await ampsOf(bare)).toEqual([]);

      const test = await makeSurveyLink(db(), bed.world, { test: true }, bed.clock.now());
      const testPage = await answer(bed.app, test, 10);
      const invitation = await findInvitation(db(), test);
      const [response] = await db()
        .select()
        .from(surveyResponses)
        .where(and(eq(surveyResponses.id, invitation?.responseId ?? 0)));
      expect(response?.test).toBe(true);
      expect(await ampsOf(test)).toEqual([]);
      expect(testPage.body).toContain(`href="${LINKS.google.replace(/&/g, '&amp;')}"`);
    });
  });
}
