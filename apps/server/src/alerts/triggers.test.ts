import { describe, expect, it } from 'vitest';
import { foldText, triggerFires } from './triggers.ts';

const response = (comment: string) => ({ keyScore: 3, npsClass: 'detractor', comment, answers: {}, questions: [] });
const fires = (keywords: string[], comment: string) =>
  triggerFires({ trigger: 'keyword', scoreMin: null, scoreMax: null, keywords }, response(comment));

/** The rule as pipeline.md states it: the folded keyword found with no letter or digit on either side. */
function reference(keyword: string, comment: string): boolean {
  const k = foldText(keyword.trim());
  if (k === '') return false;
  const text = foldText(comment);
  for (let at = text.indexOf(k); at !== -1; at = text.indexOf(k, at + 1)) {
    const before = text.slice(0, at).at(-1) ?? ' ';
    const after = text.at(at + k.length) ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

describe('keyword trigger', () => {
  const comments = [
    'A prudent choice, rudeness aside',
    'The staff was RUDE!',
    'Café froid, service lent',
    'the wi-fi was down; waited 45 minutes',
    'Wait… long wait. Long   wait',
    '(rude)',
    'rude',
    'naïve question: why 5 stars?',
    '',
  ];
  const keywords = ['rude', 'cafe froid', 'wi-fi', 'wifi', '45', '5 stars', 'long wait', 'NAIVE', ' rude ', '', 'down;', 'é'];

  it('matches whole words and phrases exactly as the rule says, ignoring case and accents', () => {
    for (const comment of comments) {
      for (const keyword of keywords) {
        expect(fires([keyword], comment), `${keyword} in ${comment}`).toBe(reference(keyword, comment));
      }
    }
  });

  it('fires when any keyword of the rule is found', () => {
    expect(fires(['absent', 'rude'], 'The staff was rude')).toBe(true);
    expect(fires(['absent', 'prude'], 'The staff was rude')).toBe(false);
  });
});
