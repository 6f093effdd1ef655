import { describe, expect, it } from 'vitest';
import { manualSuppressionSchema, releaseSuppressionSchema, suppressionDescription } from './email-suppressions.ts';
import { bounceDescription } from './ses-bounce-descriptions.ts';
import { bounceText, SES_BOUNCE_SUBTYPES, sesEventMoment, sesEventTypeText } from './ses-events.ts';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('SES Logs words', () => {
  it('writes event types and bounces in words, an unknown one as it came', () => {
    expect(sesEventTypeText('RenderingFailure')).toBe('Rendering failure');
    expect(sesEventTypeText('toString')).toBe('toString');
    expect(bounceText('Permanent', 'NoEmail')).toBe('Permanent (hard) · No such address');
    expect(bounceText('Transient', null)).toBe('Transient (soft)');
    expect(bounceText(null, null)).toBeNull();
    expect(bounceText('Odd', 'Thing')).toBe('Odd · Thing');
  });

  it('writes an event time in its client’s zone, else UTC, named', () => {
    expect(sesEventMoment({ event_at: '2021-06-01T10:00:00Z', client_timezone: 'America/Chicago' })).toBe('Jun 1, 2021, 5:00 AM CDT');
    expect(sesEventMoment({ event_at: '2021-06-01T10:00:00Z', client_timezone: null })).toBe('Jun 1, 2021, 10:00 AM UTC');
  });
});

describe('SES Bounce descriptions', () => {
  it('describes every subtype SES gives under its types, and nothing it does not know', () => {
    const pairs = [
      ['Undetermined', 'Undetermined'],
      ...['General', 'NoEmail', 'Suppressed', 'OnAccountSuppressionList'].map((s) => ['Permanent', s]),
      ...['General', 'MailboxFull', 'MessageTooLarge', 'ContentRejected', 'AttachmentRejected'].map((s) => ['Transient', s]),
    ] as const;
    expect(new Set(pairs.map(([, s]) => s))).toEqual(new Set(SES_BOUNCE_SUBTYPES));
    const texts = pairs.map(([t, s]) => bounceDescription(t, s));
    expect(texts.every((t) => typeof t === 'string' && t.length > 20)).toBe(true);
    expect(new Set(texts).size).toBe(texts.length);
    expect(bounceDescription('Transient', 'General')).toMatch(/automatic reply/);
    expect(bounceDescription('Permanent', 'MailboxFull')).toBeNull();
    expect(bounceDescription(null, null, 'abuse')).toMatch(/unsolicited/);
    expect(bounceDescription(null, null, 'constructor')).toBeNull();
  });

  it('says what put an address on the list when no bounce does', () => {
    const base = { last_bounce_type: null, last_bounce_subtype: null, complaint_count: 0 } as const;
    expect(suppressionDescription({ ...base, reason: 'COMPLAINT', complaint_count: 1 })).toMatch(/complaint/);
    expect(suppressionDescription({ ...base, reason: 'MANUAL' })).toBe('Suppressed by hand in SES Bounce.');
    expect(suppressionDescription({ ...base, reason: 'BOUNCE' })).toBeNull();
  });
});

describe('SES Bounce bodies', () => {
  it('needs a Reason of at most 500 characters to release, named as the dialog labels it', () => {
    expect(firstMessage(releaseSuppressionSchema.safeParse({ email: 'a@example.com' }))).toBe('The Reason field is required');
    expect(firstMessage(releaseSuppressionSchema.safeParse({ email: 'a@example.com', reason: '  ' }))).toBe('The Reason field is required');
    expect(firstMessage(releaseSuppressionSchema.safeParse({ email: 'a@example.com', reason: 'x'.repeat(501) }))).toBe(
      'The Reason field may not be greater than 500 characters',
    );
    expect(releaseSuppressionSchema.parse({ email: ' A@Example.com ', reason: ' ok ' })).toEqual({ email: 'a@example.com', reason: 'ok' });
  });

  it('needs a valid Email to suppress by hand, lower-cased', () => {
    expect(firstMessage(manualSuppressionSchema.safeParse({}))).toBe('The Email field is required');
    expect(firstMessage(manualSuppressionSchema.safeParse({ email: ' ' }))).toBe('The Email field is required');
    expect(firstMessage(manualSuppressionSchema.safeParse({ email: 'nope' }))).toBe('The Email field must be a valid email');
    expect(manualSuppressionSchema.parse({ email: ' Jane@Example.COM ' })).toEqual({ email: 'jane@example.com' });
  });
});
