import { describe, it } from 'vitest';
import { bad, ok } from './rule-checks.ts';

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
