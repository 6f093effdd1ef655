import { describe, expect, it } from 'vitest';
import { ruleNames, validateRule } from './index.ts';
import { bad, file, ok } from './rule-checks.ts';

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
