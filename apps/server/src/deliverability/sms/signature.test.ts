import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureMatches, twilioSignature, urlVariants } from './signature.ts';

// Twilio's documented example of a signed request (docs/decisions/061-sms-callbacks-and-stop.md).
const URL_CALLED = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS: [string, string][] = [
  ['Digits', '1234'],
  ['To', '+18005551212'],
  ['From', '+12349013030'],
  ['Caller', '+12349013030'],
  ['CallSid', 'CA1234567890ABCDE'],
];
const EXPECTED = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

describe('twilioSignature', () => {
  it('gives the known vector whatever order the params came in', () => {
    expect(twilioSignature('12345', URL_CALLED, PARAMS)).toBe(EXPECTED);
    expect(twilioSignature('12345', URL_CALLED, [...PARAMS].reverse())).toBe(EXPECTED);
  });

  it('changes with the token, the URL or any param', () => {
    expect(twilioSignature('12346', URL_CALLED, PARAMS)).not.toBe(EXPECTED);
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=3', PARAMS)).not.toBe(EXPECTED);
    expect(twilioSignature('12345', URL_CALLED, [...PARAMS.slice(1), ['Digits', '1235']])).not.toBe(EXPECTED);
    expect(twilioSignature('12345', URL_CALLED, [...PARAMS, ['Extra', '']])).not.toBe(EXPECTED);
  });

  it('appends a repeated name once per distinct value, values sorted', () => {
    const a = twilioSignature('t', 'https://x.example/a', [
      ['M', 'b'],
      ['M', 'a'],
      ['M', 'b'],
    ]);
    expect(a).toBe(
      twilioSignature('t', 'https://x.example/a', [
        ['M', 'a'],
        ['M', 'b'],
      ]),
    );
    // The same as the string "https://x.example/aMaMb" signed by hand.
    expect(a).toBe(createHmac('sha1', 't').update('https://x.example/aMaMb').digest('base64'));
  });
});

describe('urlVariants and signatureMatches', () => {
  it('tries the URL with and without the default port', () => {
    expect(urlVariants('https://a.example/p?q=1')).toEqual(['https://a.example/p?q=1', 'https://a.example:443/p?q=1']);
    expect(urlVariants('http://a.example:80/p')).toEqual(['http://a.example:80/p', 'http://a.example/p']);
    expect(urlVariants('https://a.example:8443/p')).toEqual(['https://a.example:8443/p']);
    const withPort = twilioSignature('12345', 'https://mycompany.com:443/myapp.php?foo=1&bar=2', PARAMS);
    expect(signatureMatches('12345', URL_CALLED, PARAMS, withPort)).toBe(true);
    expect(signatureMatches('12345', 'https://mycompany.com:443/myapp.php?foo=1&bar=2', PARAMS, EXPECTED)).toBe(true);
  });

  it('refuses a wrong, empty or differently sized signature', () => {
    expect(signatureMatches('12345', URL_CALLED, PARAMS, EXPECTED)).toBe(true);
    expect(signatureMatches('12345', URL_CALLED, PARAMS, `${EXPECTED.slice(0, -2)}A=`)).toBe(false);
    expect(signatureMatches('12345', URL_CALLED, PARAMS, '')).toBe(false);
    expect(signatureMatches('12345', URL_CALLED, PARAMS, `${EXPECTED}x`)).toBe(false);
    expect(signatureMatches('1234', URL_CALLED, PARAMS, EXPECTED)).toBe(false);
  });
});
