import { describe, expect, it } from 'vitest';
import { entityDiff, entityText, eventText } from './entity-labels.ts';
import { relatedOf } from './notification-logs.ts';
import { auditDiff, diffRows, valueText } from './readable-diff.ts';
import { diffText, refusedRows, skippedText, sourceText, surveyDiffRows } from './survey-manager-logs.ts';

/** Issue 19, item 11: labels and readable diffs where people read, never raw keys or JSON. */
describe('readable changes', () => {
  const q1 = { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true };

  it("names a survey's fields by the form's labels, options by their labels, linked ids by their number", () => {
    const text = diffText({
      name: { before: 'Visit', after: 'Visit v2' },
      send_delay_hours: { before: 24, after: 48 },
      channel: { before: 'email', after: 'sms' },
      location_ids: { before: ['a'.repeat(24)], after: ['a'.repeat(24), 'b'.repeat(24)] },
    });
    expect(text).toBe('Name: Visit → Visit v2; Send delay (hours): 24 → 48; Channel: Email → SMS; Locations: 1 selected → 2 selected');
  });

  it('writes a question as one line and a list of questions one per line, never JSON', () => {
    const [row] = surveyDiffRows({ 'question 1': { before: q1, after: { ...q1, text: 'Would you recommend us?' } } });
    expect(row).toEqual({
      key: 'question 1',
      label: 'Question 1',
      before: '“How likely are you to recommend us?” (Likelihood to recommend (0–10), required, key metric)',
      after: '“Would you recommend us?” (Likelihood to recommend (0–10), required, key metric)',
    });
    const list = valueText([q1, { id: 2, type: 'single_choice', text: 'Which?', options: ['A', 'B'] }]);
    expect(list).toBe(
      '1. “How likely are you to recommend us?” (Likelihood to recommend (0–10), required, key metric)\n2. “Which?” (One choice): A / B',
    );
    expect(list).not.toContain('{');
  });

  it("shows an audit entry's changed fields only, by the entity's labels", () => {
    const before = { id: 4, name: 'Latte', code: 'LAT', status: 'active', archived: false };
    const after = { ...before, name: 'Oat latte', archived: true };
    expect(entityDiff('product', auditDiff(before, after))).toEqual([
      { key: 'name', label: 'Name', before: 'Latte', after: 'Oat latte' },
      { key: 'archived', label: 'Archived', before: 'No', after: 'Yes' },
    ]);
    expect(diffRows(auditDiff(null, { plan: 'gold' }))).toEqual([{ key: 'plan', label: 'Plan', before: '—', after: 'gold' }]);
    // A stored moment reads as every time does: in the client's zone, named.
    expect(entityDiff('product', { updated_at: { before: '2026-11-26T15:05:03.000Z', after: null } }, 'America/Chicago')).toEqual([
      { key: 'updated_at', label: 'Updated at', before: 'Nov 26, 2026, 9:05 AM CST', after: '—' },
    ]);
    expect(diffRows(auditDiff(null, ['x']))).toEqual([{ key: 'value', label: 'Value', before: '—', after: 'x' }]);
  });

  it('names entities, sources, skip reasons and what a message is about in words', () => {
    expect(entityText('survey_processing_item', '571')).toBe('Invitation 571');
    expect(entityText('api_token', '3')).toBe('API token 3');
    expect(entityText('request', null)).toBe('Request');
    expect(eventText('product.update')).toBe('Product: update');
    expect(eventText('survey_processing_item.resend')).toBe('Invitation: resend');
    expect(eventText('auth.login.refused')).toBe('Auth: login refused');
    expect(relatedOf({ related_type: 'survey_processing_item', related_id: '571' })).toBe('Invitation 571');
    expect(sourceText('csv_upload', 40, 5)).toBe('CSV upload · run 40, line 5');
    expect(sourceText('api', 41, 2)).toBe('API · run 41, row 2');
    expect(sourceText('manual_test', null, null)).toBe('Test send');
    expect(skippedText({ invalid_contact: 1, skipped_duplicate: 2 })).toBe('Invalid contact 1, Skipped: duplicate 2');
  });

  it('lists a refused row once with all its errors, whatever the number of its stored errors', () => {
    const raw = { Name: '', Email: 'x@' };
    expect(
      refusedRows([
        { row_number: 3, column: 'Name', message: 'The First name field is required', raw },
        { row_number: 3, column: 'Email', message: 'The Email field must be a valid email', raw },
        { row_number: 7, column: null, message: 'The row could not be admitted', raw: {} },
      ]),
    ).toEqual([
      {
        row_number: 3,
        errors: [
          { column: 'Name', message: 'The First name field is required' },
          { column: 'Email', message: 'The Email field must be a valid email' },
        ],
        raw,
      },
      { row_number: 7, errors: [{ column: null, message: 'The row could not be admitted' }], raw: {} },
    ]);
  });
});
