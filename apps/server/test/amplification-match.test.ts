import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { amplifications } from '../src/db/schema/index.ts';
import { matchReviews } from '../src/reputation/amplify/match.ts';
import { alertBed } from './alerts-bed.ts';
import { makeAmp, makeReview } from './amplification-match-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-04-06T15:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

for (const kind of testDatabaseKinds()) {
  describe(`Matching reviews to review invitations (${kind})`, () => {
    const bed = alertBed(kind, START, `ampm-${kind}`);
    const db = () => bed.database.db;
    const ampOf = async (id: number) => {
      const [row] = await db().select().from(amplifications).where(eq(amplifications.id, id));
      if (!row) throw new Error('no amplification');
      return row;
    };
    /** A moment an hour on (each test in its own hour, so tests never see each other's invitations). */
    const later = () => {
      bed.clock.advance(HOUR);
      return bed.clock.now();
    };
    /** A review now, its jobs run. */
    const review = async (input: Omit<Parameters<typeof makeReview>[2], 'createdAt'> & { createdAt?: Date }) => {
      const id = await makeReview(db(), bed.world, { createdAt: bed.clock.now(), ...input }, bed.clock.now());
      await bed.app.jobs.runDue();
      return id;
    };
    let n = 0;
    /** A customer name no other test uses, so invitations of earlier tests never compete. */
    const fresh = (first: string) => `${first}${String.fromCharCode(97 + (n++ % 26))}x${n} Lee`;

    it('a clicked invitation and the same name within the hour is matched: posted, with the score and its parts', async () => {
      const t = later();
      const name = fresh('Dana');
      const amp = await makeAmp(db(), bed.world, { name, invitedAt: t, clickedAt: new Date(t.getTime() + 2 * MINUTE) });
      bed.clock.advance(20 * MINUTE);
      const id = await review({ author: `${name.split(' ')[0]} L.` });
      const row = await ampOf(amp);
      expect(row).toMatchObject({ status: 'posted', reviewId: id, matchedBy: 'auto', matchedByUserId: null, suggestedReviewId: null });
      expect(row.matchConfidence).toBe(90);
      expect(row.matchReasons).toMatchObject({ click: 45, name: 30, time: 15, comment: 0 });
    });

    it('a name alone is suggested for a person, not matched', async () => {
      const t = later();
      const name = fresh('Erin');
      const amp = await makeAmp(db(), bed.world, { name, invitedAt: t });
      bed.clock.advance(30 * MINUTE);
      const id = await review({ author: name });
      expect(await ampOf(amp)).toMatchObject({ status: 'invited', reviewId: null, suggestedReviewId: id, suggestedConfidence: 45 });
    });

    it('a review matched by one invitation is no longer suggested on another', async () => {
      const t = later();
      const name = fresh('Uma');
      const first = name.split(' ')[0] ?? '';
      const waiting = await makeAmp(db(), bed.world, { name, invitedAt: t });
      bed.clock.advance(30 * MINUTE);
      const id = await review({ author: `${first} L` });
      expect(await ampOf(waiting)).toMatchObject({ suggestedReviewId: id });
      // The same customer's clicked invitation (another response) turns up: an update of the review runs the job again.
      const clicked = await makeAmp(db(), bed.world, { name, invitedAt: t, clickedAt: new Date(t.getTime() + MINUTE) });
      await matchReviews(db(), [id], bed.clock.now());
      expect(await ampOf(clicked)).toMatchObject({ status: 'posted', reviewId: id });
      expect(await ampOf(waiting)).toMatchObject({ status: 'invited', suggestedReviewId: null, suggestedConfidence: null });
    });

    it('nothing under the suggestion threshold, nothing at another location or site, invited after the review or outside the window', async () => {
      const t = later();
      const name = fresh('Fay');
      const first = name.split(' ')[0] ?? '';
      const clicked = { name, invitedAt: t, clickedAt: new Date(t.getTime() + MINUTE) };
      const elsewhere = await makeAmp(db(), bed.world, { ...clicked, locationId: bed.world.otherLocationId });
      const otherSite = await makeAmp(db(), bed.world, { ...clicked, site: 'facebook' });
      const old = await makeAmp(db(), bed.world, clicked);
      // Fifteen days after the invitation (the clock stays, so the not_posted sweep leaves it open).
      await review({ author: `${first} L`, createdAt: new Date(t.getTime() + 15 * DAY) });
      // On a site of their own, so that the clicked invitations above are no candidates.
      const yelp = { site: 'yelp' };
      const gus = fresh('Gus');
      const afterwards = await makeAmp(db(), bed.world, {
        ...yelp,
        name: gus,
        invitedAt: new Date(t.getTime() + 10 * MINUTE),
        clickedAt: new Date(t.getTime() + 11 * MINUTE),
      });
      await review({ ...yelp, author: gus, createdAt: new Date(t.getTime() + 5 * MINUTE) });
      const stranger = await makeAmp(db(), bed.world, { ...yelp, name: fresh('Hal'), invitedAt: t });
      await review({ ...yelp, author: 'Quentin Z', createdAt: new Date(t.getTime() + 6 * MINUTE) });
      for (const id of [elsewhere, otherSite, old, afterwards, stranger]) {
        expect(await ampOf(id)).toMatchObject({ reviewId: null, suggestedReviewId: null });
      }
    });

    it('two reviews for one invitation: the better one matches it; two invitations for one review: the best is chosen', async () => {
      const t = later();
      const name = fresh('Ivy');
      const first = name.split(' ')[0] ?? '';
      const amp = await makeAmp(db(), bed.world, {
        name,
        invitedAt: t,
        clickedAt: new Date(t.getTime() + MINUTE),
        comment: 'Pete fixed my brakes fast',
      });
      bed.clock.advance(10 * MINUTE);
      const weak = await makeReview(db(), bed.world, { author: `${first} L`, createdAt: bed.clock.now(), text: 'ok' }, bed.clock.now());
      const strong = await makeReview(
        db(),
        bed.world,
        { author: `${first} L`, createdAt: bed.clock.now(), text: 'Pete fixed my brakes fast' },
        bed.clock.now(),
      );
      await bed.app.jobs.runDue();
      expect(await ampOf(amp)).toMatchObject({ status: 'posted', reviewId: strong, matchConfidence: 100 });
      const [again] = await db().select().from(amplifications).where(eq(amplifications.reviewId, weak));
      expect(again).toBeUndefined();

      const u = later();
      const twin = fresh('Jo');
      const twinFirst = twin.split(' ')[0] ?? '';
      const unclicked = await makeAmp(db(), bed.world, { name: twin, invitedAt: u });
      const clickedOne = await makeAmp(db(), bed.world, { name: twin, invitedAt: u, clickedAt: new Date(u.getTime() + MINUTE) });
      bed.clock.advance(5 * MINUTE);
      const r = await review({ author: `${twinFirst} L` });
      expect(await ampOf(clickedOne)).toMatchObject({ status: 'posted', reviewId: r });
      expect(await ampOf(unclicked)).toMatchObject({ status: 'invited', reviewId: null });
    });

    it('a job run again (an updated review) keeps the one match; a matched review is skipped', async () => {
      const t = later();
      const name = fresh('Kim');
      const amp = await makeAmp(db(), bed.world, { name, invitedAt: t, clickedAt: t });
      bed.clock.advance(MINUTE);
      const id = await review({ author: name });
      const before = await ampOf(amp);
      expect(before.reviewId).toBe(id);
      expect(await matchReviews(db(), [id, id], bed.clock.now())).toBe(0);
      expect(await ampOf(amp)).toEqual(before);
    });

    it('open invitations become not_posted 14 days on; posted ones stay posted', async () => {
      const t = later();
      const open = await makeAmp(db(), bed.world, { name: fresh('Lou'), invitedAt: t });
      const clicked = await makeAmp(db(), bed.world, { name: fresh('Max'), invitedAt: t, clickedAt: t });
      const posted = await makeAmp(db(), bed.world, { name: fresh('Ned'), invitedAt: t, status: 'posted' });
      bed.clock.advance(14 * DAY - HOUR);
      await bed.app.jobs.runDue();
      expect((await ampOf(open)).status).toBe('invited');
      bed.clock.advance(HOUR);
      await bed.app.jobs.runDue();
      expect((await ampOf(open)).status).toBe('not_posted');
      expect((await ampOf(clicked)).status).toBe('not_posted');
      expect((await ampOf(posted)).status).toBe('posted');
    });

    it('a late review (written inside the window, stored after the invitation closed) still matches or is suggested; outside it, not', async () => {
      const t = later();
      // A site of its own: clicked invitations of other tests would outscore these names.
      const site = 'tripadvisor';
      const pia = fresh('Pia');
      const rex = fresh('Rex');
      const sol = fresh('Sol');
      const clicked = await makeAmp(db(), bed.world, { site, name: pia, invitedAt: t, clickedAt: new Date(t.getTime() + 5 * MINUTE) });
      const unclicked = await makeAmp(db(), bed.world, { site, name: rex, invitedAt: new Date(t.getTime() + MINUTE) });
      const solAt = new Date(t.getTime() - 2 * DAY);
      const elsewhere = { site, locationId: bed.world.otherLocationId };
      const early = await makeAmp(db(), bed.world, { ...elsewhere, name: sol, invitedAt: solAt, clickedAt: solAt });
      bed.clock.advance(14 * DAY + HOUR);
      await bed.app.jobs.runDue();
      for (const id of [clicked, unclicked, early]) expect((await ampOf(id)).status).toBe('not_posted');

      // A lagging pull stores only now reviews written within the hour of the invitations.
      const piaReview = await review({ site, author: `${pia.split(' ')[0]} L.`, createdAt: new Date(t.getTime() + HOUR) });
      const row = await ampOf(clicked);
      expect(row).toMatchObject({ status: 'posted', reviewId: piaReview, matchedBy: 'auto', matchConfidence: 90 });
      expect(row.matchReasons).toMatchObject({ click: 45, name: 30, time: 15 });
      const rexReview = await review({ site, author: rex, createdAt: new Date(t.getTime() + 30 * MINUTE) });
      expect(await ampOf(unclicked)).toMatchObject({ status: 'not_posted', suggestedReviewId: rexReview, suggestedConfidence: 45 });
      // Written 15 days after its invitation: outside the window, closed or not.
      await review({ ...elsewhere, author: sol, createdAt: new Date(solAt.getTime() + 15 * DAY) });
      expect(await ampOf(early)).toMatchObject({ status: 'not_posted', reviewId: null, suggestedReviewId: null });

      // The same customer's clicked invitation (another response, closed too) turns up: it takes the review,
      // and the closed invitation that suggested it no longer does.
      const second = await makeAmp(db(), bed.world, {
        site,
        name: rex,
        invitedAt: new Date(t.getTime() + 2 * MINUTE),
        clickedAt: new Date(t.getTime() + 3 * MINUTE),
        status: 'not_posted',
      });
      expect(await matchReviews(db(), [rexReview], bed.clock.now())).toBe(1);
      expect(await ampOf(second)).toMatchObject({ status: 'posted', reviewId: rexReview });
      expect(await ampOf(unclicked)).toMatchObject({ status: 'not_posted', suggestedReviewId: null, suggestedConfidence: null });
    });

    it('two workers matching the same reviews at once match each review once and each invitation once', async () => {
      const t = later();
      const names = Array.from({ length: 12 }, () => fresh('Oz'));
      const amps: number[] = [];
      for (const name of names) amps.push(await makeAmp(db(), bed.world, { name, invitedAt: t, clickedAt: t }));
      bed.clock.advance(MINUTE);
      const ids: number[] = [];
      // Each name reviews twice (two accounts): both reviews want the same invitation.
      for (const name of names)
        for (let i = 0; i < 2; i++) {
          const [row] = await Promise.all([makeReview(db(), bed.world, { author: name, createdAt: bed.clock.now() }, bed.clock.now())]);
          ids.push(row);
        }
      // On PostgreSQL these run on two connections at the same moment; PGlite runs them one after the other.
      const counts = await Promise.all([matchReviews(db(), ids, bed.clock.now()), matchReviews(db(), [...ids].reverse(), bed.clock.now())]);
      const rows = await db().select().from(amplifications).where(inArray(amplifications.id, amps));
      expect(rows.every((r) => r.status === 'posted')).toBe(true);
      const matched = rows.map((r) => r.reviewId);
      expect(new Set(matched).size).toBe(names.length);
      expect(counts[0] + counts[1]).toBe(names.length);
      await bed.app.jobs.runDue();
    });
  });
}
