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
