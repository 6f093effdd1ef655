import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LOGIN_LABELS } from '../constants.ts';
import { loginBodySchema } from './identity.ts';
import { RESPONSE_EXCLUSION_LABELS, responseExclusionSchema } from './survey-responses.ts';
import { SURVEY_TEST_EMAIL_LABELS, surveyTestEmailSchema } from './survey-settings.ts';
import { SURVEY_TEST_LABELS, surveyTestSchema } from './surveys.ts';

/** Every message a schema gives for `body`, as `field: message`. */
function messages(schema: z.ZodType, body: unknown): string[] {
  const parsed = schema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

// Issue 19, item 19: a message names its field as the form labels it ("the To field" under a
// "Send to" input, "the reason field" under "Reason", "the email field" under "Email" did not).
describe('the messages of hand-written schemas name fields by their form labels', () => {
  it('Send test (Surveys): Send to', () => {
    expect(messages(surveyTestSchema, { to: '' })).toContain(`to: The ${SURVEY_TEST_LABELS.to} field is required`);
    expect(messages(surveyTestSchema, { to: 'pat' })[0]).toBe(
      'to: The Send to field must be an email or a phone in international format, e.g. +13035550142',
    );
  });

  it('Send test email (Survey Admin): To', () => {
    expect(messages(surveyTestEmailSchema, { to: 'nope' })).toEqual([`to: The ${SURVEY_TEST_EMAIL_LABELS.to} field must be a valid email`]);
  });

  it('Exclude / Include (Survey Manager): Reason', () => {
    expect(messages(responseExclusionSchema, { excluded: true, reason: ' ' })).toEqual(['reason: The Reason field is required']);
    expect(messages(responseExclusionSchema, { excluded: true, reason: 'x'.repeat(501) })).toEqual([
      `reason: The ${RESPONSE_EXCLUSION_LABELS.reason} field may not be greater than 500 characters`,
    ]);
  });

  it('Sign in: Email and Password', () => {
    const empty = messages(loginBodySchema, { email: '', password: '' });
    expect(empty).toContain(`email: The ${LOGIN_LABELS.email} field is required`);
    expect(empty).toContain('password: The Password field is required');
    expect(messages(loginBodySchema, { email: 'not-an-email', password: 'x' })).toEqual(['email: The Email field must be a valid email']);
  });
});
