import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, surveyProcessingItems, surveyResponses, systemLogs, testimonials } from '../src/db/schema/index.ts';
import { displayNameOf, makeTestimonial } from '../src/modules/testimonials/make.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Row = {
  id: number;
  status: string;
  featured: boolean;
  updated_at: string;
  display_text: string;
  original_text: string;
  display_name: string;
};

for (const kind of testDatabaseKinds()) {
  describe(`Testimonials API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    const send = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    const query = (body: Record<string, unknown> = {}) => send('POST', '/api/survey-comments-testimonials', body);
    const act = (id: number, action: string) => send('POST', `/api/testimonials/${id}/${action}`, {});
    const ofClient = async (status?: string) =>
      ctx.database.db
        .select()
        .from(testimonials)
        .where(and(eq(testimonials.clientId, clientId), status ? eq(testimonials.status, status) : undefined))
        .orderBy(testimonials.id);

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      clientId = (await send('GET', '/api/user')).json().data.user.current_client_id;
    });
    afterAll(() => ctx.close());

    it('names a customer "First L." and nothing more', () => {
      expect(displayNameOf('Maria', 'Garcia')).toBe('Maria G.');
      expect(displayNameOf(' Li ', null)).toBe('Li');
      expect(displayNameOf('Ana', 'de la Cruz')).toBe('Ana D.');
    });

    it('the demo shows every state, made from responses with a comment and consent', async () => {
      const rows = await ofClient();
      const states = new Set(rows.map((r) => r.status));
      expect([...states].sort()).toEqual(['approved', 'pending', 'published', 'rejected']);
      expect(rows.some((r) => r.featured)).toBe(true);
      const responses = await ctx.database.db
        .select({ consent: surveyResponses.testimonialConsent, comment: surveyResponses.comment, test: surveyResponses.test })
        .from(surveyResponses)
        .where(
          inArray(
            surveyResponses.id,
            rows.map((r) => r.responseId),
          ),
        );
      expect(responses.every((r) => r.consent && r.comment && !r.test)).toBe(true);
    });

    it('the make-testimonial job makes one pending testimonial per response, however often it runs', async () => {
      const [one] = await ofClient('pending');
      if (!one) throw new Error('no pending demo testimonial');
      await ctx.database.db.delete(testimonials).where(eq(testimonials.id, one.id));
      await ctx.app.jobs.enqueue('make-testimonial', { responseId: one.responseId });
      await ctx.app.jobs.runDue();
      // A retry (the job ran at least once) and a direct call make nothing more.
      await ctx.app.jobs.enqueue('make-testimonial', { responseId: one.responseId });
      await ctx.app.jobs.runDue();
      expect(await makeTestimonial(ctx.database.db, one.responseId, new Date())).toBeNull();
      const again = await ctx.database.db.select().from(testimonials).where(eq(testimonials.responseId, one.responseId));
      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject({
        status: 'pending',
        consent: true,
        displayName: one.displayName,
        originalText: one.originalText,
        rating: one.rating,
      });
      const [item] = await ctx.database.db
        .select({ first: surveyProcessingItems.firstName, last: surveyProcessingItems.lastName })
        .from(surveyResponses)
        .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId))
        .where(eq(surveyResponses.id, one.responseId));
      expect(again[0]?.displayName).toBe(displayNameOf(item?.first ?? '', item?.last ?? null));
    });

    it('makes none from a response without consent, without a comment, or from a test answer', async () => {
      const [noConsent] = await ctx.database.db
        .select({ id: surveyResponses.id })
        .from(surveyResponses)
        .where(and(eq(surveyResponses.testimonialConsent, false), isNotNull(surveyResponses.comment)))
        .limit(1);
      if (!noConsent) throw new Error('no response without consent');
      expect(await makeTestimonial(ctx.database.db, noConsent.id, new Date())).toBeNull();
      // The same response as a test answer with consent: still none.
      await ctx.database.db
        .update(surveyResponses)
        .set({ testimonialConsent: true, test: true })
        .where(eq(surveyResponses.id, noConsent.id));
      expect(await makeTestimonial(ctx.database.db, noConsent.id, new Date())).toBeNull();
      await ctx.database.db.update(surveyResponses).set({ test: false, comment: '  ' }).where(eq(surveyResponses.id, noConsent.id));
      expect(await makeTestimonial(ctx.database.db, noConsent.id, new Date())).toBeNull();
      await ctx.database.db
        .update(surveyResponses)
        .set({ testimonialConsent: false, comment: 'restored' })
        .where(eq(surveyResponses.id, noConsent.id));
      expect(await ctx.database.db.select().from(testimonials).where(eq(testimonials.responseId, noConsent.id))).toHaveLength(0);
    });

    it('the query answers the current client only, and applies each filter given', async () => {
      const all = await query();
      expect(all.statusCode).toBe(200);
      const data: Array<{
        client_id: number;
        location_id: string | null;
        survey_id: number;
        submitted_at: string;
        words: number;
        display_text: string;
      }> = all.json().data;
      expect(data.length).toBe((await ofClient()).length);
      expect(data.every((t) => t.client_id === clientId)).toBe(true);
      expect(data.every((t) => t.words === t.display_text.split(/\s+/).filter(Boolean).length)).toBe(true);
      const location = data.find((t) => t.location_id)?.location_id;
      const byLocation = (await query({ location: [location] })).json().data as typeof data;
      expect(byLocation.length).toBeGreaterThan(0);
      expect(byLocation.every((t) => t.location_id === location)).toBe(true);
      const survey = data[0]?.survey_id;
      const bySurvey = (await query({ survey: [survey] })).json().data as typeof data;
      expect(bySurvey.every((t) => t.survey_id === survey)).toBe(true);
      // Days are the client's: the first one's day as its time zone reads it.
      const [client] = await ctx.database.db.select({ zone: clients.timezone }).from(clients).where(eq(clients.id, clientId));
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: client?.zone }).format(new Date(data[0]?.submitted_at ?? 0));
      const byDays = (await query({ startDate: day, endDate: day })).json().data as typeof data;
      expect(byDays.length).toBeGreaterThan(0);
      expect(byDays.length).toBeLessThan(data.length);
      // Empty lists filter nothing (the screen leaves them out; an API caller may send them).
      expect((await query({ location: [], survey: [] })).json().data).toHaveLength(data.length);
    });

    it('refuses bad query bodies with 4xx naming the field', async () => {
      const one = await query({ startDate: '2026-01-01' });
      expect(one.statusCode).toBe(422);
      expect(one.json().errors.endDate[0]).toContain('End date');
      const bad = await query({ startDate: 'yesterday', endDate: '2026-01-01' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.startDate).toEqual(['The Start date field must be a date written YYYY-MM-DD']);
      expect(bad.json().message).toBe('Please correct: Start date.');
      const notADay = await query({ startDate: '2026-04-01', endDate: '2026-04-50' });
      expect(notADay.json().errors.endDate).toEqual(['The End date field must be a real date']);
      expect((await send('GET', '/api/testimonials/export?startDate=2026-02-30&endDate=2026-03-01')).statusCode).toBe(400);
      const survey = await query({ survey: ['x'] });
      expect(survey.statusCode).toBe(400);
      expect(survey.json().message).toBe('Please correct: Survey.');
      expect((await query({ other: 1 })).json().errors.other).toEqual(['This field is not allowed.']);
    });

    it('approve → publish → unpublish; reject and restore; feature; each refusal explained; every write audited', async () => {
      const [p] = await ofClient('pending');
      if (!p) throw new Error('no pending');
      const publishEarly = await act(p.id, 'publish');
      expect(publishEarly.statusCode).toBe(409);
      expect(publishEarly.json().message).toMatch(/Approve this testimonial before publishing/);
      expect((await act(p.id, 'unpublish')).statusCode).toBe(409);
      expect((await act(p.id, 'restore')).statusCode).toBe(409);
      const approved = await act(p.id, 'approve');
      expect(approved.statusCode).toBe(200);
      expect(approved.json().data.status).toBe('approved');
      expect((await act(p.id, 'approve')).statusCode).toBe(409);
      expect((await act(p.id, 'publish')).json().data.status).toBe('published');
      expect((await act(p.id, 'publish')).statusCode).toBe(409);
      expect((await act(p.id, 'feature')).json().data.featured).toBe(true);
      expect((await act(p.id, 'feature')).statusCode).toBe(409);
      expect((await act(p.id, 'unfeature')).json().data.featured).toBe(false);
      expect((await act(p.id, 'unpublish')).json().data.status).toBe('approved');
      const rejected = (await act(p.id, 'reject')).json().data as Row;
      expect(rejected.status).toBe('rejected');
      expect((await act(p.id, 'feature')).statusCode).toBe(409);
      expect((await act(p.id, 'restore')).json().data.status).toBe('pending');
      const audit = await ctx.database.db
        .select({ action: systemLogs.action })
        .from(systemLogs)
        .where(and(eq(systemLogs.entityType, 'testimonial'), eq(systemLogs.entityId, String(p.id))));
      expect(audit.map((a) => a.action)).toEqual(
        expect.arrayContaining([
          'testimonial.approve',
          'testimonial.publish',
          'testimonial.feature',
          'testimonial.unpublish',
          'testimonial.reject',
          'testimonial.restore',
        ]),
      );
      expect(audit).toHaveLength(7);
    });

    it('refuses to publish without consent (422), whatever its status', async () => {
      const [a] = await ofClient('approved');
      if (!a) throw new Error('no approved');
      await ctx.database.db.update(testimonials).set({ consent: false }).where(eq(testimonials.id, a.id));
      const res = await act(a.id, 'publish');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/did not consent/);
      expect((await ctx.database.db.select().from(testimonials).where(eq(testimonials.id, a.id)))[0]?.status).toBe('approved');
      await ctx.database.db.update(testimonials).set({ consent: true }).where(eq(testimonials.id, a.id));
    });

    it('edits the display text and name, keeping the original; versions and limits checked', async () => {
      const [t] = await ofClient('pending');
      if (!t) throw new Error('no pending');
      const edit = (body: Record<string, unknown>) => send('PATCH', `/api/testimonials/${t.id}`, body);
      const noVersion = await edit({ display_text: 'Great team' });
      expect(noVersion.statusCode).toBe(422);
      expect(noVersion.json().errors.updated_at[0]).toContain('Last updated');
      const version = t.updatedAt.toISOString();
      const empty = await edit({ display_text: '  ', updated_at: version });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().errors.display_text).toEqual(['The Display text field is required']);
      const long = await edit({ display_text: 'x'.repeat(1001), display_name: 'y'.repeat(61), updated_at: version });
      expect(long.json().errors).toEqual({
        display_text: ['The Display text field may not be greater than 1000 characters'],
        display_name: ['The Display name field may not be greater than 60 characters'],
      });
      const ok = await edit({ display_text: 'Great team, fixed my roof fast.', display_name: 'Sam R.', updated_at: version });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toMatchObject({
        display_text: 'Great team, fixed my roof fast.',
        display_name: 'Sam R.',
        original_text: t.originalText,
        words: 6,
      });
      const stale = await edit({ display_text: 'Other', updated_at: version });
      expect(stale.statusCode).toBe(409);
    });

    it('bulk approve approves the chosen pending ones of the current client only', async () => {
      const pending = await ofClient('pending');
      const [other] = await ctx.database.db
        .select()
        .from(testimonials)
        .where(and(sql`${testimonials.clientId} <> ${clientId}`, eq(testimonials.status, 'pending')))
        .limit(1);
      const published = (await ofClient('published'))[0];
      const ids = [...pending.map((p) => p.id), ...(other ? [other.id] : []), ...(published ? [published.id] : [])];
      const res = await send('POST', '/api/testimonials/bulk-approve', { ids });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.approved).toBe(pending.length);
      expect(await ofClient('pending')).toHaveLength(0);
      if (other)
        expect((await ctx.database.db.select().from(testimonials).where(eq(testimonials.id, other.id)))[0]?.status).toBe('pending');
      expect((await send('POST', '/api/testimonials/bulk-approve', { ids: [] })).json().message).toBe('Please correct: Testimonials.');
    });

    it("another client's testimonial is not found", async () => {
      const [other] = await ctx.database.db.select().from(testimonials).where(sql`${testimonials.clientId} <> ${clientId}`).limit(1);
      if (!other) throw new Error('no other client testimonial');
      expect((await act(other.id, 'approve')).statusCode).toBe(404);
      expect((await act(2_147_483_647, 'approve')).statusCode).toBe(404);
      expect((await act(2_147_483_648, 'approve')).statusCode).toBe(400);
    });
  });
}
