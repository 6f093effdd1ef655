import { FEED_FILE_LABELS, FEED_SAMPLE_LABELS, MERGE_REQUEST_LABELS, SURVEY_TEST_LABELS, UPDATED_AT_LABEL } from '@admin/shared';
import { PROCESSING_ACTION_LABELS } from '@admin/shared/resources/survey-processing';
import { RESPONSE_REASSIGN_LABELS } from '@admin/shared/resources/survey-responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabel, fieldsRefused } from '../src/lib/http-error.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * A 422's message is what the browser shows when an error has no field on the form
 * (apps/web/src/components/forms/use-vee-form.ts), so it names fields by the labels the form
 * shows ("Please correct: Location name."), never by their keys ("locationname").
 */

const location = {
  locationname: 'Label Test',
  address1: '1 Main St',
  city: 'Austin',
  state: 'TX',
  postal_code: '73301',
  phone: '+15125550100',
  timezone: 'America/Chicago',
};

describe('fieldsRefused', () => {
  it('names fields by their labels, nested paths by their top-level field, each once', () => {
    const error = fieldsRefused(
      { locationname: ['x'], 'hours.mon.open': ['y'], 'hours.tue.close': ['z'], address1: ['w'] },
      { locationname: 'Location name', hours: 'Opening hours', address1: 'Address line 1' },
    );
    expect(error.statusCode).toBe(422);
    expect(error.message).toBe('Please correct: Location name, Opening hours, Address line 1.');
  });

  it('falls back to the key only when there is no label, and never reads a label off the prototype', () => {
    expect(fieldLabel('account_id', {})).toBe('account id');
    expect(fieldLabel('value.columns.0', {})).toBe('value.columns.0');
    expect(fieldLabel('constructor', { name: 'Name' })).toBe('constructor');
    expect(fieldLabel('toString.0', { name: 'Name' })).toBe('toString.0');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`422 messages name fields by their labels (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('POST /api/endpoints: the field rules, the extras and the manager are named as the location form labels them', async () => {
      const missing = await send('POST', '/api/endpoints', { ...location, locationname: '', address1: '' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().message).toBe('Please correct: Location name, Address line 1.');
      expect(Object.keys(missing.json().errors)).toEqual(['locationname', 'address1']);

      const extras = await send('POST', '/api/endpoints', {
        ...location,
        hours: { mon: { open: '8am', close: '17:00' } },
        review_links: { google: 'not a url' },
      });
      expect(extras.statusCode).toBe(422);
      expect(extras.json().message).toBe('Please correct: Opening hours, Review links.');

      // User 1 is no user of the current client.
      const manager = await send('POST', '/api/endpoints', { ...location, manager_user_id: 1 });
      expect(manager.statusCode).toBe(422);
      expect(manager.json()).toEqual({
        message: 'Please correct: Manager.',
        statusCode: 422,
        errors: { manager_user_id: ['Choose a user of this client'] },
      });
    });

    it('POST /api/personnel: locations of another client are named Locations', async () => {
      const other = await send('POST', '/api/personnel', {
        first_name: 'Lab',
        last_name: 'El',
        location_ids: ['ffffffffffffffffffffffff'],
      });
      expect(other.statusCode).toBe(422);
      expect(other.json().message).toBe('Please correct: Locations.');
    });

    it('the input guard names a refused body field by the route’s label, before the handler runs', async () => {
      const nul = await send('POST', '/api/personnel', { first_name: 'Lab', last_name: 'El', location_ids: ['a\u0000b'] });
      expect(nul.statusCode).toBe(422);
      expect(nul.json()).toEqual({
        message: 'Please correct: Locations.',
        statusCode: 422,
        errors: { 'location_ids.0': ['The Locations field must not contain NUL characters.'] },
      });

      const top = await send('POST', '/api/endpoints', { ...location, locationname: 'Nul\u0000Co' });
      expect(top.statusCode).toBe(422);
      expect(top.json()).toMatchObject({
        message: 'Please correct: Location name.',
        errors: { locationname: ['The Location name field must not contain NUL characters.'] },
      });

      const rows = (await send('GET', '/api/endpoints?perPage=1')).json().data as { _id: string }[];
      const patched = await send('PATCH', `/api/endpoints/${rows[0]?._id}`, { hours: { mon: { open: '09:00\u0000', close: '17:00' } } });
      expect(patched.statusCode).toBe(422);
      expect(patched.json().message).toBe('Please correct: Opening hours.');
    });

    it('merge routes: the guard and the refusals name fields as the merge panel labels them', async () => {
      const labels = MERGE_REQUEST_LABELS;
      const nul = await send('POST', '/api/get-merge-personnel', { survivor_id: 1, duplicate_ids: [2], confirm_name: 'A\u0000' });
      expect(nul.statusCode).toBe(422);
      expect(nul.json()).toEqual({
        message: `Please correct: ${labels.confirm_name}.`,
        statusCode: 422,
        errors: { confirm_name: [`The ${labels.confirm_name} field must not contain NUL characters.`] },
      });

      const locationIds = (await send('GET', '/api/endpoints?perPage=1')).json().data.map((l: { _id: string }) => l._id);
      const people: { id: number; name: string }[] = [];
      for (const last of ['Mergeone', 'Mergetwo']) {
        const made = await send('POST', '/api/personnel', { first_name: 'Label', last_name: last, location_ids: locationIds });
        expect(made.statusCode, made.body).toBe(201);
        people.push(made.json().data);
      }
      const [survivor, duplicate] = people;
      if (!survivor || !duplicate) throw new Error('no people');

      const none = await send('POST', '/api/get-merge-personnel/preview', { survivor_id: survivor.id, duplicate_ids: [] });
      expect(none.statusCode).toBe(422);
      expect(none.json().message).toBe('Please correct: Merge.');

      const unconfirmed = await send('POST', '/api/get-merge-personnel', {
        survivor_id: survivor.id,
        duplicate_ids: [duplicate.id],
        confirm_name: ' ',
      });
      expect(unconfirmed.statusCode).toBe(422);
      expect(unconfirmed.json()).toEqual({
        message: "Please correct: Type the survivor's name to confirm.",
        statusCode: 422,
        errors: { confirm_name: [`Type the survivor's name to confirm: ${survivor.name}`] },
      });

      const dismissed = await send('POST', '/api/get-merge-personnel/dismissals', { personnel_ids: [survivor.id, 999_999] });
      expect(dismissed.statusCode).toBe(422);
      expect(dismissed.json().message).toBe('Please correct: People.');
    });

    it('Survey Processing actions: the guard and the refusals name fields as the detail labels them', async () => {
      const nul = await send('POST', '/api/survey-processing/1/cancel', { note: 'why\u0000' });
      expect(nul.statusCode).toBe(422);
      expect(nul.json()).toEqual({
        message: 'Please correct: Note.',
        statusCode: 422,
        errors: { note: ['The Note field must not contain NUL characters.'] },
      });
      const contact = await send('POST', '/api/survey-processing/1/fix-contact', { phone: '+1303\u0000' });
      expect(contact.json().message).toBe(`Please correct: ${PROCESSING_ACTION_LABELS.phone}.`);

      const neither = await send('POST', '/api/survey-processing/retry', {});
      expect(neither.statusCode).toBe(422);
      expect(neither.json()).toEqual({
        message: 'Please correct: Invitations.',
        statusCode: 422,
        errors: { ids: ['Choose invitations, or retry every failed one of the filter'] },
      });
    });

    it('the other routes the kit does not build carry their inputs’ labels too', async () => {
      const cases: [string, object, string][] = [
        ['/api/survey-responses/1/location', { location_id: 'x\u0000' }, RESPONSE_REASSIGN_LABELS.location_id],
        ['/api/survey-responses/1/personnel', { personnel_id: '\u0000' }, RESPONSE_REASSIGN_LABELS.personnel_id],
        ['/api/surveys/1/send-test', { to: 'pat\u0000@example.com' }, SURVEY_TEST_LABELS.to],
        ['/api/data-feeds/1/upload', { csv: 'a,b\n1\u0000,2' }, FEED_FILE_LABELS.csv],
        ['/api/data-feeds/preview', { csv: 'a,b\n1\u0000,2' }, FEED_SAMPLE_LABELS.csv],
        ['/api/api-token', { name: 'Nul\u0000' }, 'Token name'],
      ];
      for (const [url, payload, label] of cases) {
        const res = await send('POST', url, payload);
        expect(res.statusCode, url).toBe(422);
        expect(res.json().message, url).toBe(`Please correct: ${label}.`);
      }
    });

    it('names the version stamp Last updated, never by its key', async () => {
      const rows = (await send('GET', '/api/personnel?perPage=1')).json().data as { id: number }[];
      const stamp = await send('PATCH', `/api/personnel/${rows[0]?.id}`, { updated_at: '2026\u0000' });
      expect(stamp.statusCode).toBe(422);
      expect(stamp.json()).toEqual({
        message: `Please correct: ${UPDATED_AT_LABEL}.`,
        statusCode: 422,
        errors: { updated_at: [`The ${UPDATED_AT_LABEL} field must not contain NUL characters.`] },
      });
    });

    it('keeps the keys where there is no label, and for path and query parameters', async () => {
      // A field the definition does not have is named by its key, never by a prototype's property.
      const proto = await send('POST', '/api/endpoints', { ...location, constructor: 'a\u0000' });
      expect(proto.statusCode).toBe(422);
      expect(proto.json().message).toBe('Please correct: constructor.');

      const query = await send('GET', '/api/endpoints?q=a%00b');
      expect(query.statusCode).toBe(400);
      expect(query.json().message).toBe('Invalid query: q.');
    });
  });
}
