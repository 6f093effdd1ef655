import { parseCsv } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFeeds } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** The sample template CSV of a feed is one row its own Validate accepts, whatever the feed's mapping and formats. */
for (const kind of testDatabaseKinds()) {
  describe(`Survey Platform sample template (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let base: Record<string, unknown>;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const post = (url: string, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url, headers, payload });

    /** The feed's template, and what Validate says of it on the same feed. */
    async function templateOf(id: number) {
      const template = await get(`/api/data-feeds/${id}/template`);
      expect(template.statusCode, template.body).toBe(200);
      const validated = await post(`/api/data-feeds/${id}/validate`, { csv: template.body });
      expect(validated.statusCode, validated.body).toBe(200);
      return { csv: template.body, result: validated.json().data };
    }

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const surveys = (await get('/api/surveys?status=active&perPage=50')).json().data as { id: number }[];
      const locations = (await get('/api/endpoints?perPage=50&status=active')).json().data as { _id: string }[];
      base = { name: 'Template feed', trigger_event: 'invoice_paid', survey_id: surveys[0]?.id, location_id: locations[0]?._id };
    });
    afterAll(() => ctx.close());

    it('passes Validate on every demo feed', async () => {
      const feeds = await ctx.database.db.select({ id: dataFeeds.id, name: dataFeeds.name }).from(dataFeeds);
      expect(feeds.length).toBeGreaterThan(5);
      for (const feed of feeds) {
        const { csv, result } = await templateOf(feed.id);
        expect(result, `${feed.name}: ${csv}`).toMatchObject({ rows_read: 1, rows_valid: 1, rows_invalid: 0, errors: [] });
      }
    });

    const variants: [string, Record<string, unknown>, string | null][] = [
      [
        'a location code column, every code column, a column name with the delimiter in it',
        {
          location_mode: 'column',
          location_id: null,
          field_mapping: {
            first_name: 'First',
            email: 'E-mail',
            transaction_date: 'Closed',
            location_code: 'Store, code',
            personnel_code: 'Tech',
            product_code: 'Item',
            referral_source: 'Heard from',
            amount: 'Total',
            opt_in_sms: 'Texts OK',
          },
        },
        'First,E-mail,Closed,"Store, code",Tech,Item,Heard from,Total,Texts OK',
      ],
      [
        'one location, pipe-delimited, MM/dd/yyyy, a phone only',
        { delimiter: 'pipe', date_format: 'MM/dd/yyyy', field_mapping: { first_name: 'Name', phone: 'Cell', transaction_date: 'When' } },
        'Name|Cell|When',
      ],
      [
        'one location with a location column mapped anyway, tab-delimited, dd/MM/yyyy',
        {
          delimiter: 'tab',
          date_format: 'dd/MM/yyyy',
          field_mapping: { first_name: 'Given', last_name: 'Family', email: 'Mail', transaction_date: 'Day', location_code: 'Shop' },
        },
        'Given\tFamily\tMail\tDay\tShop',
      ],
      [
        'no header: values at their positions, gaps left blank',
        {
          has_header: false,
          location_mode: 'column',
          location_id: null,
          field_mapping: { first_name: 'column_2', email: 'column_4', transaction_date: 'column_5', location_code: 'column_1' },
        },
        null,
      ],
      ['the default mapping (the fields’ own names)', {}, 'first_name,last_name,email,phone,transaction_id,transaction_date,location_code'],
    ];

    it.each(variants)('passes Validate on a feed with %s', async (_what, body, header) => {
      const created = await post('/api/data-feeds', { ...base, ...body });
      expect(created.statusCode, created.body).toBe(201);
      const { csv, result } = await templateOf(created.json().data.id);
      expect(result, csv).toMatchObject({ rows_read: 1, rows_valid: 1, rows_invalid: 0, errors: [] });
      const lines = csv.split('\r\n');
      if (header === null) {
        expect(lines).toHaveLength(2);
        expect(parseCsv(csv)[0]).toHaveLength(5);
        expect(parseCsv(csv)[0]?.[2]).toBe('');
      } else expect(lines[0]?.startsWith(header)).toBe(true);
    });
  });
}
