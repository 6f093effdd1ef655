import type { FeedDateFormat, FeedDelimiter } from '@admin/shared';
import { IDENTITY_MAPPING } from '@admin/shared';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDemoDatabase } from '../../../test/helpers.ts';
import type { Database } from '../../db/client.ts';
import { locations, personnel, products } from '../../db/schema/index.ts';
import { CronError, nextRun, parseCron } from './cron.ts';
import { type FeedForIngest, feedDate, normalize } from './normalize.ts';
import { FeedFileError, parseFeedFile } from './parse.ts';

describe('parseFeedFile', () => {
  const cases: {
    name: string;
    text: string;
    delimiter: FeedDelimiter;
    hasHeader: boolean;
    columns: string[];
    rows: Record<string, string>[];
  }[] = [
    {
      name: 'comma with a BOM and CRLF',
      text: '\uFEFFfirst_name,email\r\nAlex,alex@example.com\r\nSam,sam@example.com\r\n',
      delimiter: 'comma',
      hasHeader: true,
      columns: ['first_name', 'email'],
      rows: [
        { first_name: 'Alex', email: 'alex@example.com' },
        { first_name: 'Sam', email: 'sam@example.com' },
      ],
    },
    {
      name: 'quoted commas, quotes and a line break',
      text: 'name,note\n"Rivera, Alex","said ""great""\nthanks"\n',
      delimiter: 'comma',
      hasHeader: true,
      columns: ['name', 'note'],
      rows: [{ name: 'Rivera, Alex', note: 'said "great"\nthanks' }],
    },
    {
      name: 'pipe, blank lines skipped, a short row',
      text: 'First|Phone|Date\nAlex|303-555-0142|11/20/2026\n\nSam|\n',
      delimiter: 'pipe',
      hasHeader: true,
      columns: ['First', 'Phone', 'Date'],
      rows: [
        { First: 'Alex', Phone: '303-555-0142', Date: '11/20/2026' },
        { First: 'Sam', Phone: '', Date: '' },
      ],
    },
    {
      name: 'tab without a header',
      text: 'Alex\talex@example.com\nSam\tsam@example.com\textra\n',
      delimiter: 'tab',
      hasHeader: false,
      columns: ['column_1', 'column_2', 'column_3'],
      rows: [
        { column_1: 'Alex', column_2: 'alex@example.com', column_3: '' },
        { column_1: 'Sam', column_2: 'sam@example.com', column_3: 'extra' },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const parsed = parseFeedFile(c.text, { delimiter: c.delimiter, hasHeader: c.hasHeader });
      expect(parsed.columns).toEqual(c.columns);
      expect(parsed.records.map((r) => r.raw)).toEqual(c.rows);
      // Each row by its line in the file: after the header (line 1) when there is one.
      expect(parsed.records.map((r) => r.rowNumber)).toEqual(c.rows.map((_, i) => i + (c.hasHeader ? 2 : 1)));
    });
  }

  it('refuses an unclosed quote as a whole file', () => {
    expect(() => parseFeedFile('a,b\n"open,1\n', { delimiter: 'comma', hasHeader: true })).toThrow(FeedFileError);
  });
});

describe('feedDate', () => {
  const table: [string, FeedDateFormat, string | null][] = [
    ['2026-11-20', 'yyyy-MM-dd', '2026-11-20'],
    ['2026-11-20 14:30:00', 'yyyy-MM-dd', '2026-11-20'],
    ['11/20/2026', 'MM/dd/yyyy', '2026-11-20'],
    ['3/7/2026', 'MM/dd/yyyy', '2026-03-07'],
    ['20/11/2026', 'dd/MM/yyyy', '2026-11-20'],
    ['20/11/2026', 'MM/dd/yyyy', null],
    ['2026-02-30', 'yyyy-MM-dd', null],
    ['Nov 20 2026', 'yyyy-MM-dd', null],
  ];
  for (const [value, format, expected] of table) {
    it(`${value} as ${format} → ${expected}`, () => expect(feedDate(value, format)).toBe(expected));
  }
});

describe('normalize', () => {
  let database: Database;
  let feed: FeedForIngest;
  let storeCode: string;
  let locationId: string;
  let employeeCode: string;
  let productCode: string;

  beforeAll(async () => {
    database = await openDemoDatabase('pglite');
    const [location] = await database.db
      .select({ id: locations.id, clientId: locations.clientId, code: locations.externalCode })
      .from(locations)
      .where(isNotNull(locations.externalCode))
      .limit(1);
    if (!location?.code) throw new Error('the demo data has no store code');
    const [person] = await database.db
      .select({ code: personnel.employeeCode })
      .from(personnel)
      .where(and(eq(personnel.clientId, location.clientId), isNotNull(personnel.employeeCode)))
      .limit(1);
    const [product] = await database.db
      .select({ code: products.code })
      .from(products)
      .where(eq(products.clientId, location.clientId))
      .limit(1);
    if (!person?.code || !product) throw new Error('the demo data has no personnel code or product');
    [storeCode, locationId, employeeCode, productCode] = [location.code, location.id, person.code, product.code];
    feed = {
      clientId: location.clientId,
      locationMode: 'column',
      locationId: null,
      dateFormat: 'MM/dd/yyyy',
      fieldMapping: IDENTITY_MAPPING,
    };
  });
  afterAll(() => database.close());

  it('maps good rows and names each bad row’s field and column', async () => {
    const header =
      'first_name,last_name,email,phone,transaction_id,transaction_date,location_code,personnel_code,product_code,referral_source,amount,opt_in_sms';
    const lines = [
      `Alex,Rivera,Alex.Rivera@Example.com,(303) 555-0142,INV-1,11/20/2026,${storeCode.toLowerCase()},${employeeCode},${productCode},google,"$1,129.50",yes`,
      `Sam,,,303.555.0199,INV-2,11/21/2026,${storeCode},,,,,0`,
      `,Nofirst,nf@example.com,,INV-3,11/21/2026,${storeCode},,,,,`,
      `Bad,Phone,,555-12,INV-4,11/21/2026,${storeCode},,,,,`,
      `Bad,Date,bd@example.com,,INV-5,2026-11-21,${storeCode},,,,,`,
      `No,Contact,,,INV-6,11/21/2026,${storeCode},,,,,`,
      `Bad,Codes,bc@example.com,,INV-7,11/21/2026,NOPE,E-NOBODY,,,abc,maybe`,
      `Far,Date,fd@example.com,,INV-8,12/31/9999,${storeCode},,,,,`,
    ];
    const { records } = parseFeedFile(`${header}\r\n${lines.join('\r\n')}\r\n`, { delimiter: 'comma', hasHeader: true });
    const { rows, errors } = await normalize(database.db, feed, records);

    expect(rows).toHaveLength(2);
    // Rows are numbered by file line, the header being line 1 (docs/decisions/041-line-numbers-and-zoned-times.md).
    expect(rows[0]).toMatchObject({
      rowNumber: 2,
      firstName: 'Alex',
      lastName: 'Rivera',
      email: 'alex.rivera@example.com',
      phone: '+13035550142',
      transactionId: 'INV-1',
      transactionDate: '2026-11-20',
      locationId,
      amount: '1129.50',
      smsOptIn: true,
    });
    expect(rows[0]?.personnelId).toBeTypeOf('number');
    expect(rows[0]?.productId).toBeTypeOf('number');
    expect(rows[0]?.referralSourceId).toBeTypeOf('number');
    expect(rows[1]).toMatchObject({ rowNumber: 3, email: null, phone: '+13035550199', lastName: null, smsOptIn: false, amount: null });

    const seen = errors.map((e) => [e.rowNumber, e.column, e.message]);
    expect(seen).toEqual([
      [4, 'first_name', 'The First name field is required'],
      [5, 'phone', 'The Phone field must be a valid phone number'],
      [6, 'transaction_date', 'The Transaction date field must be a date in the format MM/dd/yyyy'],
      [7, 'email', 'The Email or Phone field is required'],
      [8, 'location_code', 'The Location code NOPE is not a location (store code) of this client'],
      [8, 'personnel_code', 'The Personnel code E-NOBODY is not an employee code or alias of this client'],
      [8, 'amount', 'The Amount field must be a number with at most 2 decimals'],
      [8, 'opt_in_sms', 'The SMS opt-in field must be yes or no (true/false, 1/0, y/n)'],
      [9, 'transaction_date', 'The Transaction date field must be a date from 2000 to 2099'],
    ]);
    expect(errors[0]?.raw.last_name).toBe('Nofirst');
  });

  it('reads a fixed location and a custom mapping without a header', async () => {
    const { records } = parseFeedFile('Alex\talex@example.com\t20/11/2026\n', { delimiter: 'tab', hasHeader: false });
    const { rows, errors } = await normalize(
      database.db,
      {
        ...feed,
        locationMode: 'single',
        locationId,
        dateFormat: 'dd/MM/yyyy',
        fieldMapping: { first_name: 'column_1', email: 'column_2', transaction_date: 'column_3' },
      },
      records,
    );
    expect(errors).toEqual([]);
    expect(rows[0]).toMatchObject({ firstName: 'Alex', email: 'alex@example.com', transactionDate: '2026-11-20', locationId });
  });
});

describe('cron schedules', () => {
  const after = new Date('2026-11-23T10:07:30Z'); // a Monday
  const table: [string, string, string][] = [
    ['*/15 * * * *', 'UTC', '2026-11-23T10:15:00.000Z'],
    ['0 6 * * *', 'UTC', '2026-11-24T06:00:00.000Z'],
    // 6:00 in Denver (UTC−7 in November), later the same day there.
    ['0 6 * * *', 'America/Denver', '2026-11-23T13:00:00.000Z'],
    ['30 9 * * 0', 'UTC', '2026-11-29T09:30:00.000Z'],
    ['0 0 1 1 *', 'UTC', '2027-01-01T00:00:00.000Z'],
    // Both day fields: the 25th or a Tuesday, whichever comes first.
    ['0 12 25 * 2', 'UTC', '2026-11-24T12:00:00.000Z'],
  ];
  for (const [expression, zone, expected] of table) {
    it(`${expression} in ${zone}`, () => expect(nextRun(parseCron(expression), after, zone)?.toISOString()).toBe(expected));
  }
  it('says which field is wrong', () => {
    expect(() => parseCron('0 25 * * *')).toThrow('The hour "25" is outside 0–23');
    expect(() => parseCron('0 6 * *')).toThrow(CronError);
  });
});
