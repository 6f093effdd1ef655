import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { bearer, type DbKind, login, startTestApp, type TestContext } from './helpers.ts';

export const BODY = 'Hi {first_name}, how was {location_name} with {personnel_name}? {survey_link}\nUnsubscribe: {unsubscribe_link}';
export const NPS_QUESTIONS = [
  { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true },
  { id: 2, type: 'text', text: 'Why?' },
];

/** What a Surveys API test works on: filled in before its tests, closed after them. */
export type SurveysBed = {
  readonly ctx: TestContext;
  currentClient: number;
  locationIds: string[];
  get(url: string): Promise<LightMyRequestResponse>;
  send(method: 'POST' | 'PATCH', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  /** Creates a valid NPS e-mail survey on the first location, `body` overriding its fields. */
  create(body: Record<string, unknown>): Promise<LightMyRequestResponse>;
};

/** Opens, for the enclosing `describe`, the demo app signed in as the admin; closes it after. */
export function surveysBed(kind: DbKind): SurveysBed {
  let headers: Record<string, string> = {};
  let ctx: TestContext | undefined;
  const bed: SurveysBed = {
    get ctx() {
      if (!ctx) throw new Error('The Surveys test bed is opened in beforeAll');
      return ctx;
    },
    currentClient: 0,
    locationIds: [],
    get: (url) => bed.ctx.app.inject({ method: 'GET', url, headers }),
    send: (method, url, payload) =>
      bed.ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) }),
    create: (body) =>
      bed.send('POST', '/api/surveys', {
        name: 'After visit',
        type: 'nps',
        channel: 'email',
        location_ids: bed.locationIds.slice(0, 1),
        questions: NPS_QUESTIONS,
        email_subject: 'How was {location_name}?',
        email_body: BODY,
        sender_name: 'Acme',
        ...body,
      }),
  };
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    headers = bearer(await login(bed.ctx.app, 'admin@example.com'));
    bed.currentClient = (await bed.get('/api/user')).json().data.user.current_client_id;
    bed.locationIds = (await bed.get('/api/endpoints?perPage=5')).json().data.map((l: { _id: string }) => l._id);
    expect(bed.locationIds.length).toBeGreaterThan(1);
  });
  afterAll(() => bed.ctx.close());
  return bed;
}
