import { describe, expect, it } from 'vitest';
import { alertRuleBody, commonRuleValues, namedOptions, numberOf, recipientLabels } from './alert-rule-fields.tsx';

describe('alert rule form kit', () => {
  it('sends the kind’s numbers and id lists as numbers, empty as none, text left for the rules to name', () => {
    const body = alertRuleBody(
      { name: ' Low ', rating_min: '2', rating_max: '', score_min: 'x', recipient_user_ids: ['5', '1000'], keywords: ['late'] },
      ['rating_min', 'rating_max', 'score_min'],
      ['recipient_user_ids'],
    );
    expect(body).toEqual({
      name: 'Low',
      rating_min: 2,
      rating_max: null,
      score_min: 'x',
      recipient_user_ids: [5, 1000],
      keywords: ['late'],
    });
  });

  it('compacts extra phones and leaves other lists as chosen', () => {
    const body = alertRuleBody({ extra_phones: ['+1 (312) 555-0166'], extra_emails: ['a@b.test'] }, [], []);
    expect(body).toEqual({ extra_phones: ['+13125550166'], extra_emails: ['a@b.test'] });
  });

  it('reads what every rule’s check reads: lists, user ids as numbers, the frequency', () => {
    expect(commonRuleValues({ keywords: ['a'], recipient_user_ids: ['7'], extra_emails: 'none', frequency: 'weekly' })).toEqual({
      keywords: ['a'],
      recipient_user_ids: [7],
      extra_emails: [],
      extra_phones: [],
      frequency: 'weekly',
    });
    expect(numberOf(' 12 ')).toBe(12);
    expect(numberOf('1.5')).toBeNull();
  });

  it('names chosen ids by the record’s names, and marks a user who joined by default', () => {
    expect(namedOptions([3, 4], ['Downtown'])).toEqual({ '3': 'Downtown', '4': '4' });
    expect(
      recipientLabels([
        { id: 1000, name: 'Default for New User', added_by: 'chosen' },
        { id: 9, name: 'Ann', added_by: 'default' },
      ]),
    ).toEqual({ '1000': 'Default for New User', '9': 'Ann (joined by default)' });
  });
});
