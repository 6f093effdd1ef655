import { describe, expect, it } from 'vitest';
import { formatFileSize, messageFor, ruleNames, validate } from './index.ts';

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
