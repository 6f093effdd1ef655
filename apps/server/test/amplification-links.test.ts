import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { amplifications, locations } from '../src/db/schema/index.ts';
import { alertBed } from './alerts-bed.ts';
import { answer, LINKS, makeSurveyLink, reviewHrefs } from './amplification-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-04-06T15:00:00Z');
const MINUTE = 60_000;

for (const kind of testDatabaseKinds()) {
  describe(`The /r/{token} review link (${kind})`, () => {
    const bed = alertBed(kind, START, `ampl-${kind}`);
    const db = () => bed.database.db;
    const click = (href: string, accept = 'text/html') => bed.app.inject({ method: 'GET', url: href, headers: { accept } });
    const ampOf = async (href: string) => {
      const [row] = await db()
        .select()
        .from(amplifications)
        .where(eq(amplifications.token, href.slice(3)));
      if (!row) throw new Error('no amplification');
      return row;
    };
    let surveyToken = '';
    /** A fresh answered invitation's Google link (its survey link kept in `surveyToken`). */
    const googleLink = async () => {
      await db().update(locations).set({ reviewLinks: LINKS }).where(eq(locations.id, bed.world.locationId));
      bed.clock.advance(MINUTE);
      const token = await makeSurveyLink(db(), bed.world, {}, bed.clock.now());
      const [href] = reviewHrefs((await answer(bed.app, token, 10)).body);
      if (!href) throw new Error('no review link');
      surveyToken = token;
      return href;
    };

    it('records the first click and redirects to the stored link; later clicks count and keep the first time', async () => {
      const href = await googleLink();
      bed.clock.advance(MINUTE);
      const first = await click(href);
      expect(first.statusCode).toBe(302);
      expect(first.headers.location).toBe(LINKS.google);
      expect(first.headers['referrer-policy']).toBe('no-referrer');
      const clickedAt = bed.clock.now();
      expect(await ampOf(href)).toMatchObject({ status: 'clicked', clickCount: 1, clickedAt });

      bed.clock.advance(MINUTE);
      const second = await click(href, '*/*');
      expect(second.statusCode).toBe(302);
      expect(await ampOf(href)).toMatchObject({ status: 'clicked', clickCount: 2, clickedAt });
    });

    it('reads the link from the location at click time, never from the request', async () => {
      const href = await googleLink();
      const moved = 'https://g.page/r/new-place/review';
      await db()
        .update(locations)
        .set({ reviewLinks: { ...LINKS, google: moved } })
        .where(eq(locations.id, bed.world.locationId));
      const res = await bed.app.inject({
        method: 'GET',
        url: `${href}?next=https://evil.test/`,
        headers: { accept: 'text/html', referer: 'https://evil.test/' },
      });
      expect(res.headers.location).toBe(moved);
    });

    it('a posted invitation stays posted when clicked again', async () => {
      const href = await googleLink();
      await db()
        .update(amplifications)
        .set({ status: 'posted' })
        .where(eq(amplifications.token, href.slice(3)));
      expect((await click(href)).statusCode).toBe(302);
      expect(await ampOf(href)).toMatchObject({ status: 'posted', clickCount: 1 });
    });

    it('an unknown or malformed token is a plain 404 page, no redirect, no data', async () => {
      const href = await googleLink();
      const unknown = [`/r/${'A'.repeat(24)}`, '/r/x', `/r/${encodeURIComponent('../../s/abc')}`, `/r/${'a'.repeat(90)}`, `${href}x`];
      for (const url of unknown) {
        const res = await click(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers.location, url).toBeUndefined();
        expect(res.body).toContain('We could not find this review link');
        expect(res.body).not.toContain('Alert Co');
        expect(res.body).not.toContain('Dana');
      }
      const json = await click(`/r/${'B'.repeat(24)}`, 'application/json');
      expect(json.statusCode).toBe(404);
      expect(json.json()).toMatchObject({ message: 'Review link not found.' });
      // Nothing was counted on the real link by the near-miss.
      expect((await ampOf(href)).clickCount).toBe(0);
    });

    it('a site whose stored link has gone answers 404 and records nothing', async () => {
      const href = await googleLink();
      await db()
        .update(locations)
        .set({ reviewLinks: { facebook: LINKS.facebook } })
        .where(eq(locations.id, bed.world.locationId));
      const res = await click(href);
      expect(res.statusCode).toBe(404);
      expect(res.headers.location).toBeUndefined();
      expect(await ampOf(href)).toMatchObject({ status: 'invited', clickCount: 0, clickedAt: null });
      // …and the answered page no longer offers that site.
      const again = await click(`/s/${surveyToken}`);
      expect(again.body).not.toContain('Review us on Google');
      expect(again.body).toContain('Review us on Facebook');
      expect(reviewHrefs(again.body)).not.toContain(href);
    });
  });
}
