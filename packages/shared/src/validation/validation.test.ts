import { describe, expect, it } from 'vitest';
import { formatFileSize, messageFor, ruleNames, validate, validateRule } from './index.ts';

const ok = (name: string, value: unknown, params: unknown = []) =>
  expect(validateRule(name, value, params), `${name} ${JSON.stringify(value)}`).toBe(true);
const bad = (name: string, value: unknown, params: unknown = []) =>
  expect(validateRule(name, value, params), `${name} ${JSON.stringify(value)}`).toBe(false);
const file = (name: string, type = '', size = 0, extra: Record<string, unknown> = {}) => ({ name, type, size, ...extra });

describe('rule names', () => {
  it('are the 36 of the spec', () => {
    expect(ruleNames).toHaveLength(36);
    expect([...ruleNames].sort()).toEqual(
      'after before between confirmed credit_card date_between date_format decimal digits dimensions email ext image included excluded integer ip ip_or_fqdn is is_not length max min max_value min_value mimes numeric regex required required_if size url alpha alpha_dash alpha_num alpha_spaces'
        .split(' ')
        .sort(),
    );
  });
  it('unknown names throw', () => {
    expect(() => validateRule('nope', 1, [])).toThrow(/Unknown validation rule/);
  });
});

describe('date rules', () => {
  const f = 'dd/MM/yyyy';
  it('after / before, with inclusion only truthiness-checked', () => {
    ok('after', '12/09/2016', ['11/09/2016', f]);
    bad('after', '11/09/2016', ['11/09/2016', f]);
    ok('after', '11/09/2016', ['11/09/2016', true, f]);
    ok('after', '11/09/2016', ['11/09/2016', 'false', f]);
    bad('after', '', ['11/09/2016', f]);
    bad('after', '2016', ['2000', null]);
    ok('before', '10/09/2016', ['11/09/2016', f]);
    bad('before', '12/09/2016', ['11/09/2016', f]);
    ok('before', '11/09/2016', ['11/09/2016', 1, f]);
    ok('after', 2015, [new Date(1), f]); // numbers are millisecond timestamps
  });
  it('date_format needs an exact round trip', () => {
    ok('date_format', '2010-10-20 04:30', ['yyyy-MM-dd HH:mm']);
    for (const v of ['2010-10-20 4:30', '2010-10-20', '2010-10-20 24:01', '2010-10-20 4:61', ''])
      bad('date_format', v, ['yyyy-MM-dd HH:mm']);
    bad('date_format', '31/09/2016', [f]);
    bad('date_format', '29/02/2015', [f]);
    bad('date_format', '1/10/2016', [f]);
    ok('date_format', 123, [f]);
    ok('date_format', new Date(), [f]);
    bad('date_format', null, [f]);
    bad('date_format', '2020-01-01T10:00', ['yyyy-MM-ddTHH:mm']);
    ok('date_format', '2020-01-01T10:00', ["yyyy-MM-dd'T'HH:mm"]);
    expect(() => validateRule('date_format', '2020', ['YYYY'])).toThrow();
  });
  it('date_between with each inclusivity', () => {
    const range = ['10/09/2016', '20/09/2016'];
    bad('date_between', '10/09/2016', [...range, f]);
    ok('date_between', '15/09/2016', [...range, f]);
    ok('date_between', '10/09/2016', [...range, '[)', f]);
    bad('date_between', '20/09/2016', [...range, '[)', f]);
    ok('date_between', '20/09/2016', [...range, '(]', f]);
    ok('date_between', '20/09/2016', [...range, '[]', f]);
    ok('date_between', '20/09/2016', [...range, 'anything', f]);
    ok('date_between', 2015, ['2000', '2016', 'yyyy']);
    bad('date_between', 2016, ['2000', '2016', 'yyyy']);
  });
});

describe('number rules', () => {
  it('between coerces like JS', () => {
    ok('between', '2', ['1', '3']);
    ok('between', 3, [1, 3]);
    for (const v of ['', ' ', null, undefined, {}, 'abc', '12a']) bad('between', v, ['1', '3']);
    ok('between', null, ['-10', '1']);
    ok('between', true, ['1', '3']);
    ok('between', '-9', ['-10', '1']);
    ok('between', '2.5', ['1', '3']);
    ok('between', [1, 2], ['1', '3']);
    ok('between', [], ['1', '3']);
    bad('between', [1, 5], ['1', '3']);
  });
  it('decimal', () => {
    for (const v of ['.11', '+1.2', '1.2E-12', '11', 1.5]) ok('decimal', v);
    for (const v of ['1.', '1,000.50', '1e+5', '-', '+', null, undefined, '', 1e21]) bad('decimal', v);
    ok('decimal', '11,23', ['*', ',']);
    ok('decimal', '1.25', ['2']);
    bad('decimal', '1.255', ['2']);
    ok('decimal', '-12', ['0']);
    ok('decimal', '-', ['0']);
    bad('decimal', '+12', ['0']);
    bad('decimal', '1.11', ['0']);
    ok('decimal', []);
  });
  it('digits', () => {
    ok('digits', '123', ['3']);
    ok('digits', 123, ['3']);
    bad('digits', '-12', ['3']);
    bad('digits', '1.2', ['3']);
    bad('digits', '١٢٣', ['3']);
    bad('digits', 0, ['2']);
    ok('digits', '', ['0']);
    bad('digits', null, ['4']);
    ok('digits', ['12', '34'], ['2']);
  });
  it('integer', () => {
    for (const v of ['1', '-1', '007', '-0', 42]) ok('integer', v);
    for (const v of ['+123', '12.2', '13.3', ' 1', '1e3', '', true, false, null, undefined, {}]) bad('integer', v);
  });
  it('numeric', () => {
    for (const v of ['123', '٠١٢', 5]) ok('numeric', v);
    for (const v of ['1٢', '-1', '1.5', ' 1', '', true, null, {}]) bad('numeric', v);
  });
  it('min_value / max_value', () => {
    ok('max_value', '10', ['10']);
    bad('max_value', '11', ['10']);
    ok('max_value', ' ', ['10']);
    ok('max_value', '1e1', ['10']);
    ok('max_value', true, ['1']);
    for (const v of [null, undefined, '', [], {}, 'abc']) bad('max_value', v, ['10']);
    ok('max_value', [1, 2], ['10']);
    ok('min_value', '-1', ['-1']);
    bad('min_value', '-3', ['-1']);
    for (const v of [null, undefined, '', []]) bad('min_value', v, ['0']);
  });
});

describe('string rules', () => {
  it('alpha family, with locales and their quirks', () => {
    ok('alpha', 'abc');
    ok('alpha', '');
    ok('alpha', 'Привет');
    bad('alpha', 'abcПривет');
    ok('alpha', null);
    ok('alpha', false);
    bad('alpha', {});
    bad('alpha', 12);
    bad('alpha', 'peace', ['ar']);
    ok('alpha', ['peace'], ['ar']);
    ok('alpha', 'Straße', ['de']);
    ok('alpha', 'abc', ['xx']); // unknown locale → en
    bad('alpha', 'é', ['xx']);
    ok('alpha', 'سلام', ['ar']);
    ok('alpha_spaces', ' ');
    ok('alpha_spaces', 'hello world');
    bad('alpha_spaces', 'hello-world');
    ok('alpha_num', 'abc123');
    ok('alpha_num', 12);
    bad('alpha_num', 'ab', ['da']);
    bad('alpha_num', '', ['da']);
    ok('alpha_num', 'a', ['da']);
    ok('alpha_num', '٣س', ['ar']);
    ok('alpha_dash', 'a_b-c1');
    ok('alpha_dash', 'ab', ['da']);
    bad('alpha_dash', 'a.b');
    bad('alpha_dash', 'a b');
  });
  it('confirmed compares as strings', () => {
    ok('confirmed', 'abc', ['abc']);
    bad('confirmed', 'abc', ['ABC']);
    bad('confirmed', 'abc ', ['abc']);
    ok('confirmed', 1, ['1']);
    ok('confirmed', null, ['null']);
    ok('confirmed', [1, 2], ['1,2']);
  });
  it('email', () => {
    ok('email', 'someone@example.com');
    ok('email', 'Pelé@example.com');
    for (const v of ['someone@example.c', ' a@b.com', null, undefined, 'a@b']) bad('email', v);
    bad('email', 'a@b.com, c@d.com', ['multiple']);
    ok('email', 'a@b.com, c@d.com', { multiple: true });
    ok('email', ['a@b.com', 'c@d.com']);
    bad('email', 'Name <a@b.com>');
    ok('email', 'Name <a@b.com>', { allow_display_name: true });
  });
  it('included / excluded use loose equality', () => {
    ok('included', '1', [1, 2]);
    ok('included', 0, ['']);
    ok('included', false, ['0']);
    ok('included', true, ['1']);
    bad('included', null, [0, '']);
    ok('included', undefined, [null]);
    ok('included', [], ['1']);
    bad('included', '1', []);
    ok('included', ['1', 2], ['1', '2']);
    ok('excluded', 6, [1, 2, 3, 4, 5]);
    ok('excluded', [6, 1], [1, 2, 3, 4, 5]);
    bad('excluded', [1, 2, 3], [1, 2, 3, 4, 5]);
    bad('excluded', [], [1, 2]);
  });
  it('ip and ip_or_fqdn', () => {
    ok('ip', '192.168.0.1');
    bad('ip', '256.1.1.1');
    bad('ip', '::1');
    ok('ip', '::1', ['6']);
    ok('ip', '::ffff:127.0.0.1', [6]);
    bad('ip', '1.1.1.1', ['5']);
    bad('ip', null);
    bad('ip', ' 1.1.1.1');
    bad('ip', 1234); // the original throws; we answer invalid (decision 007)
    ok('ip', ['1.1.1.1', '2.2.2.2']);
    for (const v of ['1.2.3.4', '::1', 'example.com', 'a.b-c.io']) ok('ip_or_fqdn', v);
    for (const v of ['localhost', 'example.com.', 'my_host.com', 'too..many.dots', '.com', null, 12]) bad('ip_or_fqdn', v);
  });
  it('is / is_not are strict', () => {
    ok('is', '1', ['1']);
    bad('is', 1, ['1']);
    ok('is', 1, [1]);
    ok('is', undefined, []);
    const o = {};
    ok('is', o, [o]);
    bad('is', {}, [{}]);
    ok('is_not', 1, ['1']);
    bad('is_not', '1', ['1']);
  });
  it('length counts UTF-16 units or elements', () => {
    ok('length', 'abc', ['3']);
    ok('length', 123, ['3']);
    ok('length', [1, 2], ['2']);
    ok('length', '😀', ['2']);
    ok('length', 'ab', ['1', '3']);
    bad('length', 'abcd', ['1', '3']);
    bad('length', null, ['0']);
    ok('length', '', ['0']);
    ok('length', new Set([1, 2]), ['2']);
    ok('length', {}, ['0']);
  });
  it('min / max measure each string', () => {
    ok('max', 'abc', ['3']);
    bad('max', 'abcd', ['3']);
    ok('max', null, ['3']);
    bad('max', 'null', ['3']);
    bad('max', true, ['3']);
    ok('max', ['abc', 'de'], ['3']);
    ok('min', 'abc', ['3']);
    ok('min', '   ', ['3']);
    bad('min', null, ['0']);
    bad('min', undefined, ['0']);
    ok('min', [], ['3']);
    bad('min', ['abc', 'd'], ['3']);
  });
  it('regex is unanchored, string form has no flags', () => {
    ok('regex', 'xabcx', ['abc']);
    bad('regex', 'ABC', ['^abc$']);
    ok('regex', 'ABC', [/^abc$/i]);
    ok('regex', 'ABC', { expression: /^abc$/i });
    ok('regex', ['a1', 'b1'], ['\\d']);
    ok('regex', 123, ['^\\d+$']);
  });
  it('required and required_if', () => {
    for (const v of [0, true, false, {}, 'null', 's ', [' ', '']]) ok('required', v);
    for (const v of [null, undefined, [], '', ' ', '\n\t', [''], [null]]) bad('required', v);
    bad('required', false, ['true']);
    bad('required', false, ['false']);
    ok('required', false, [false]);
    ok('required_if', '', ['CA', 'US']);
    bad('required_if', '', ['US', 'US']);
    bad('required_if', ' ', [' US ', 'US']);
    for (const v of [[], false, null, undefined, [''], ' ']) bad('required_if', v, ['US', 'US']);
    ok('required_if', 0, ['US', 'US']);
    ok('required_if', '', [1, 1]); // listed numbers never match String(target)
    ok('required_if', '', ['US']);
  });
  it('credit_card', () => {
    ok('credit_card', '4111 1111 1111 1111');
    ok('credit_card', '4111-1111-1111-1111');
    ok('credit_card', '5500 0000 0000 0004');
    ok('credit_card', '378282246310005');
    bad('credit_card', '4111 1111 1111 1112');
    bad('credit_card', '4111.1111.1111.1111');
    bad('credit_card', null);
  });
  it('url', () => {
    for (const v of ['google.com', 'http://example.com/path?q=1', 'ftp://files.example.com']) ok('url', v);
    for (const v of [
      'ftps://x.com',
      'rdar://x',
      'h://x.com',
      'http://exa mple.com',
      'http://localhost',
      'http://3628126748',
      'http://123.123.123',
      null,
      42,
    ]) {
      bad('url', v);
    }
    ok('url', 'http://localhost', { require_tld: false });
    bad('url', 'google.com', { require_protocol: true });
    ok('url', ['a.com', 'b.org']);
  });
});

describe('file rules', () => {
  it('ext looks at the name; the dot is a wildcard', () => {
    ok('ext', file('a.txt'), ['txt']);
    ok('ext', file('A.TXT'), ['txt', 'csv']);
    ok('ext', file('filetxt'), ['txt']);
    bad('ext', file('txt'), ['txt']);
    bad('ext', file('a.pdf', 'text/plain'), ['txt']);
    ok('ext', [], ['txt']);
  });
  it('image looks at the name only', () => {
    ok('image', file('x.png', 'application/pdf'));
    bad('image', file('photo.webp', 'image/webp'));
    ok('image', [file('a.JPG'), file('b.gif')]);
  });
  it('mimes keeps the original regex quirks', () => {
    ok('mimes', file('a', 'image/png'), ['image/*']);
    ok('mimes', file('a', 'x-image/png'), ['image/*']);
    bad('mimes', file('a', 'image/'), ['image/*']);
    ok('mimes', file('a', 'text/plainxyz'), ['text/plain', 'image/*']);
    bad('mimes', file('a', 'video/mp4'), ['image/*', 'video/*']);
    bad('mimes', file('a', 'text/plain; charset=utf-8'), ['text/plain']);
    ok('mimes', [], ['text/plain']);
  });
  it('size is in kilobytes, inclusive', () => {
    ok('size', file('a', '', 1024), ['1']);
    bad('size', file('a', '', 1025), ['1']);
    ok('size', file('a', '', 1536), ['1.5']);
    ok('size', file('a', '', 0), ['']);
    bad('size', file('a', '', 1), ['']);
    bad('size', file('a', '', 0), ['abc']);
    ok('size', [], ['1']);
  });
  it('dimensions compares decoded sizes of image files and ignores others', async () => {
    await expect(validateRule('dimensions', file('a.png', 'image/png', 10, { width: 20, height: 10 }), ['20', '10'])).resolves.toBe(true);
    await expect(validateRule('dimensions', file('a.png', 'image/png', 10, { width: 21, height: 10 }), ['20', '10'])).resolves.toBe(false);
    await expect(
      validateRule('dimensions', [file('a.png', '', 1, { width: 20, height: 10 }), file('notes.txt')], ['20', '10']),
    ).resolves.toBe(true);
    expect(validateRule('dimensions', file('notes.txt'), ['20', '10'])).toBe(false);
  });
});

describe('messages (en, 2.2.15: no trailing period)', () => {
  const cases: [string, unknown[], string][] = [
    ['after', ['x'], 'The f must be after x'],
    ['after', ['x', 'true'], 'The f must be after or equal to x'],
    ['before', ['x'], 'The f must be before x'],
    ['before', ['x', 1], 'The f must be before or equal to x'],
    ['alpha', [], 'The f field may only contain alphabetic characters'],
    ['alpha_dash', [], 'The f field may contain alpha-numeric characters as well as dashes and underscores'],
    ['alpha_num', [], 'The f field may only contain alpha-numeric characters'],
    ['alpha_spaces', [], 'The f field may only contain alphabetic characters as well as spaces'],
    ['between', ['1', '3'], 'The f field must be between 1 and 3'],
    ['confirmed', ['pw'], 'The f confirmation does not match'],
    ['credit_card', [], 'The f field is invalid'],
    ['date_between', ['a', 'b'], 'The f must be between a and b'],
    ['date_format', ['dd/MM/yyyy'], 'The f must be in the format dd/MM/yyyy'],
    ['decimal', [], 'The f field must be numeric and may contain decimal points'],
    ['decimal', ['*'], 'The f field must be numeric and may contain decimal points'],
    ['decimal', ['2'], 'The f field must be numeric and may contain 2 decimal points'],
    ['decimal', ['0'], 'The f field must be numeric and may contain 0 decimal points'],
    ['digits', ['4'], 'The f field must be numeric and contains exactly 4 digits'],
    ['dimensions', ['20', '10'], 'The f field must be 20 pixels by 10 pixels'],
    ['email', [], 'The f field must be a valid email'],
    ['excluded', [], 'The f field must be a valid value'],
    ['ext', [], 'The f field must be a valid file'],
    ['image', [], 'The f field must be an image'],
    ['included', [], 'The f field must be a valid value'],
    ['integer', [], 'The f field must be an integer'],
    ['ip', [], 'The f field must be a valid ip address'],
    ['ip', ['6'], 'The f field must be a valid ip address'],
    ['ip_or_fqdn', [], 'The f field must be a valid ip address or FQDN'],
    ['is', [], 'The f value is not valid'],
    ['is_not', [], 'The f value is not valid'],
    ['length', ['3'], 'The f length must be 3'],
    ['length', ['1', '3'], 'The f length must be between 1 and 3'],
    ['max', ['3'], 'The f field may not be greater than 3 characters'],
    ['max_value', ['10'], 'The f field must be 10 or less'],
    ['mimes', [], 'The f field must have a valid file type'],
    ['min', ['3'], 'The f field must be at least 3 characters'],
    ['min_value', ['1'], 'The f field must be 1 or more'],
    ['numeric', [], 'The f field may only contain numeric characters'],
    ['regex', [], 'The f field format is invalid'],
    ['required', [], 'The f field is required'],
    ['required_if', ['country', 'US'], 'The f field is required when the country field has this value'],
    ['size', ['1536'], 'The f size must be less than 1.5 MB'],
    ['url', [], 'The f field is not a valid URL'],
  ];
  it.each(cases)('%s %j', (rule, params, text) => expect(messageFor(rule, 'f', params)).toBe(text));
  it('covers every rule', () => expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(ruleNames)));
  it('formats file sizes like the original', () => {
    expect([10, 1000, 1024, 1536, 0.5, 0, 1048576].map(formatFileSize)).toEqual([
      '10 KB',
      '1000 KB',
      '1 MB',
      '1.5 MB',
      '512 Byte',
      '0 Byte',
      '1 GB',
    ]);
  });
  it('uses the literal {field} without a name', async () => {
    expect((await validate('', 'required')).errors).toEqual(['The {field} field is required']);
  });
});

describe('the pipeline', () => {
  type Row = [unknown, string | Record<string, unknown>, { values?: Record<string, unknown>; bails?: boolean }, boolean, string[]];
  const rows: Row[] = [
    ['', 'between:1,3', {}, true, []],
    [null, 'between:1,3', {}, true, []],
    [undefined, 'decimal', {}, true, []],
    [[], 'included:1,2', {}, true, []],
    [[], 'excluded:1,2', {}, true, []],
    [' ', 'between:1,3', {}, false, ['The field field must be between 1 and 3']],
    [' ', 'alpha', {}, false, ['The field field may only contain alphabetic characters']],
    [false, 'alpha', {}, true, []],
    [0, 'digits:2', {}, false, ['The field field must be numeric and contains exactly 2 digits']],
    ['', 'required|between:1,3', {}, false, ['The field field is required']],
    ['', 'min:3', { bails: false }, false, ['The field field must be at least 3 characters']],
    [false, 'required', {}, true, []],
    [false, 'required:true', {}, false, ['The field field is required']],
    [false, 'required:false', {}, false, ['The field field is required']],
    [
      '',
      'required_if:country,US',
      { values: { country: 'US' } },
      false,
      ['The field field is required when the country field has this value'],
    ],
    ['', 'required_if:country,US', { values: { country: 'CA' } }, true, []],
    ['', 'required_if:country,US', {}, true, []],
    ['ab', 'required_if:country,US|min:3', { values: { country: 'US' } }, false, ['The field field must be at least 3 characters']],
    ['ab', 'required_if:country,US|min:3', { values: { country: 'CA' } }, false, ['The field field must be at least 3 characters']],
    ['abc', 'confirmed:pw', { values: { pw: 'abc' } }, true, []],
    ['abc', 'confirmed:pw', {}, false, ['The field confirmation does not match']],
    ['pw', 'confirmed:pw', {}, true, []],
    ['11/09/2016', 'date_format:dd/MM/yyyy|after:11/09/2016', {}, false, ['The field must be after 11/09/2016']],
    ['11/09/2016', 'date_format:dd/MM/yyyy|after:11/09/2016,true', {}, true, []],
    ['11/09/2016', 'date_format:dd/MM/yyyy|after:11/09/2016,false', {}, true, []],
    ['12/09/2016', 'after:target|date_format:dd/MM/yyyy', { values: { target: '11/09/2016' } }, true, []],
    ['2016', 'after:2000', {}, false, ['The field must be after 2000']],
    [
      '10/09/2016',
      'date_format:dd/MM/yyyy|date_between:10/09/2016,20/09/2016',
      {},
      false,
      ['The field must be between 10/09/2016 and 20/09/2016'],
    ],
    ['10/09/2016', 'date_format:dd/MM/yyyy|date_between:10/09/2016,20/09/2016,[]', {}, true, []],
    ['a@b.com, c@d.com', 'email:multiple', {}, false, ['The field field must be a valid email']],
    ['a@b.com, c@d.com', { email: { multiple: true } }, {}, true, []],
    ['ABC', 'regex:^abc$,i', {}, false, ['The field field format is invalid']],
    ['ABC', { regex: /^abc$/i }, {}, true, []],
    ['x1', 'alpha|min:3', {}, false, ['The field field may only contain alphabetic characters']],
    [
      'x1',
      'alpha|min:3',
      { bails: false },
      false,
      ['The field field may only contain alphabetic characters', 'The field field must be at least 3 characters'],
    ],
    ['x', { required: false, min: 3 }, {}, false, ['The field field must be at least 3 characters']],
    ['', { required: false, min: 3 }, {}, true, []],
    ['1', 'is:1', {}, true, []],
    [1, 'is:1', {}, false, ['The field value is not valid']],
    [1, { is: 1 }, {}, true, []],
  ];
  it.each(rows)('%j with %j', async (value, rules, options, valid, errors) => {
    const result = await validate(value, rules, { name: 'field', ...options });
    expect(result.valid).toBe(valid);
    expect(result.errors).toEqual(errors);
    expect(Object.keys(result.failedRules)).toHaveLength(new Set(errors).size);
  });

  it('reports failedRules by rule name', async () => {
    const r = await validate('x1', 'alpha|min:3', { name: 'code', bails: false });
    expect(r.failedRules).toEqual({
      alpha: 'The code field may only contain alphabetic characters',
      min: 'The code field must be at least 3 characters',
    });
  });

  it('awaits asynchronous rules', async () => {
    const r = await validate({ name: 'a.png', width: 1, height: 1 }, 'dimensions:2,2', { name: 'logo' });
    expect(r).toMatchObject({ valid: false, errors: ['The logo field must be 2 pixels by 2 pixels'] });
  });

  it('rule strings split params on commas, so a regex with {m,n} needs the object form', async () => {
    // The phone rule `regex:^\+?[1-9]\d{6,14}$` cannot be written as a string.
    expect((await validate('+15551234567', 'required|regex:^\\+?[1-9]\\d{6,14}$', { name: 'phone' })).valid).toBe(false);
    expect((await validate('+15551234567', { required: true, regex: /^\+?[1-9]\d{6,14}$/ }, { name: 'phone' })).valid).toBe(true);
    expect((await validate('12', 'integer|min_value:0|max_value:365', { name: 'days' })).valid).toBe(true);
    expect((await validate('400', 'integer|min_value:0|max_value:365', { name: 'days' })).errors).toEqual([
      'The days field must be 365 or less',
    ]);
  });
});
