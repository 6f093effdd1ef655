import { describe, expect, it } from 'vitest';
import { checkSmsTemplate, hasOptOut } from './compliance.ts';
import { countSms } from './segments.ts';

const a = (n: number) => 'a'.repeat(n);
/** Cyrillic letters: outside GSM-7, one UTF-16 unit each. */
const zh = (n: number) => 'ж'.repeat(n);

describe('countSms', () => {
  it.each([
    // [what, text, encoding, characters, units, segments]
    ['empty', '', 'gsm7', 0, 0, 0],
    ['160 GSM-7 characters fit one segment', a(160), 'gsm7', 160, 160, 1],
    ['161 need two', a(161), 'gsm7', 161, 161, 2],
    ['153 × 2 fill two concatenated segments', a(306), 'gsm7', 306, 306, 2],
    ['307 need three', a(307), 'gsm7', 307, 307, 3],
    ['70 UCS-2 units fit one segment', zh(70), 'ucs2', 70, 70, 1],
    ['71 need two', zh(71), 'ucs2', 71, 71, 2],
    ['67 × 2 fill two', zh(134), 'ucs2', 134, 134, 2],
    ['135 need three', zh(135), 'ucs2', 135, 135, 3],
    ['an extension character counts 2 septets (160)', `${a(158)}[`, 'gsm7', 159, 160, 1],
    ['… and one more needs a second segment', `${a(159)}€`, 'gsm7', 160, 161, 2],
    ['an escape pair is never split: it moves to the next segment', `${a(152)}€${a(152)}`, 'gsm7', 305, 306, 3],
    ['a surrogate pair is never split', `${zh(66)}😀${zh(66)}`, 'ucs2', 133, 134, 3],
    ['one emoji switches the whole message to UCS-2', `${a(69)}😀`, 'ucs2', 70, 71, 2],
    ['a line break is one septet', 'Thanks!\nSee you', 'gsm7', 15, 15, 1],
  ] as const)('%s', (_what, text, encoding, characters, units, segments) => {
    expect(countSms(text)).toMatchObject({ encoding, characters, units, segments });
  });

  it.each([
    // Real messages: [text, encoding, characters, segments, the characters that forced UCS-2]
    [
      'Hi {first_name}, thanks for choosing {business_name}! How did we do? {link} Reply STOP to opt out',
      'gsm7',
      // "Hi " 3 + 12 + ", thanks for choosing " 22 + 30 + "! How did we do? " 17 + 23 + " Reply STOP to opt out" 22
      129,
      1,
      [],
    ],
    ['We’d love your feedback, {first_name}: {link}', 'ucs2', 25 + 12 + 2 + 23, 1, ['’']],
    ['¿Cómo fue su visita a {business_name}? {link} Responda STOP para cancelar', 'ucs2', 22 + 30 + 2 + 23 + 28, 2, ['ó']],
    ['Señor, gracias. Reply STOP to opt out', 'gsm7', 37, 1, []],
    ["Merci d'être venu ! {link}", 'ucs2', 20 + 23, 1, ['ê']],
    ['Thanks for the 5 stars 🌟🌟 Reply STOP to opt out', 'ucs2', 47, 1, ['🌟']],
    ['Price: 20€ ~ {approx}', 'gsm7', 21, 1, []],
  ] as const)('%s', (text, encoding, characters, segments, nonGsm) => {
    const count = countSms(text);
    expect(count).toMatchObject({ encoding, characters, segments });
    expect(count.nonGsm).toEqual(nonGsm);
  });

  it('counts every link as a 23-character short link, without trailing punctuation', () => {
    expect(countSms('Rate us: https://example.com/reviews/write?location=123456789&utm_source=sms')).toMatchObject({
      characters: 9 + 23,
      links: 1,
    });
    expect(countSms('See https://example.com.')).toMatchObject({ characters: 4 + 23 + 1, links: 1 });
    expect(countSms('{link} and http://a.example/x')).toMatchObject({ characters: 23 + 5 + 23, links: 2 });
    // A token written otherwise is plain text, counted as typed.
    expect(countSms('{First_Name}').characters).toBe(12);
    expect(countSms('{Link}')).toMatchObject({ characters: 6, links: 0 });
  });

  it('names the extension characters and what is left in the segment', () => {
    const count = countSms('Use code {SAVE} | 10% off ^_^');
    expect(count.extension).toEqual(['{', '}', '|', '^']);
    expect(count.units).toBe(count.characters + 5);
    expect(countSms(a(150))).toMatchObject({ perSegment: 160, remaining: 10 });
    expect(countSms(a(200))).toMatchObject({ perSegment: 153, remaining: 153 - 47 });
  });
});

describe('checkSmsTemplate', () => {
  const invite = 'Hi {first_name}, how was your visit to {business_name}? {link} Reply STOP to opt out';

  it('passes a compliant survey invite and stores has_opt_out', () => {
    expect(checkSmsTemplate('survey_invite', invite)).toMatchObject({ errors: [], warnings: [] });
    expect(hasOptOut(invite)).toBe(true);
    expect(hasOptOut('text stop to end')).toBe(true);
    expect(hasOptOut('Reply STOPS')).toBe(false);
    expect(hasOptOut('Do not STOP')).toBe(false);
  });

  it.each(['survey_invite', 'survey_reminder', 'review_invite'])('%s needs the business name and the opt-out', (purpose) => {
    const { errors } = checkSmsTemplate(purpose, 'Hi {first_name}, rate us: {link}', 'Message');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^The Message field must include \{business_name\}/);
    expect(errors[1]).toMatch(/^The Message field must say how to opt out/);
  });

  it('asks nothing of alerts', () => {
    expect(checkSmsTemplate('survey_alert', 'New 1-star response at {business_name}: {link}').errors).toEqual([]);
  });

  it('opt-in confirmations need the rates notice and HELP', () => {
    expect(checkSmsTemplate('opt_in_confirmation', 'You are subscribed. Reply STOP to cancel.').errors).toEqual([
      'The Body field must include "Msg & data rates may apply" in an opt-in confirmation',
      'The Body field must name the HELP keyword in an opt-in confirmation, e.g. "Reply HELP for help"',
    ]);
    const ok = 'You are subscribed to {business_name} texts. Msg & data rates may apply. Reply HELP for help, STOP to cancel.';
    expect(checkSmsTemplate('opt_in_confirmation', ok).errors).toEqual([]);
  });

  it('refuses unknown tokens', () => {
    expect(checkSmsTemplate('survey_alert', 'Hi {firstname} {link}').errors).toEqual([
      'The Body field has an unknown token {firstname}; the tokens are {first_name} {business_name} {link}',
    ]);
  });

  it('warns above 320 characters or 2 segments', () => {
    expect(checkSmsTemplate('survey_alert', a(307)).warnings).toEqual(['3 segments: each segment is billed as one message']);
    expect(checkSmsTemplate('survey_alert', a(321)).warnings).toHaveLength(2);
    expect(checkSmsTemplate('survey_alert', zh(135)).warnings).toEqual(['3 segments: each segment is billed as one message']);
    expect(checkSmsTemplate('survey_alert', a(306)).warnings).toEqual([]);
  });
});
