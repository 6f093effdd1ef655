import { countSms, SMS_TOKENS, type SmsCount } from './segments.ts';

/** What an SMS template is for; the first three reach customers and must identify the sender and offer opt-out. */
export const SMS_PURPOSES = [
  'survey_invite',
  'survey_reminder',
  'review_invite',
  'survey_alert',
  'review_alert',
  'opt_in_confirmation',
  'help_reply',
  'stop_reply',
] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];
export const SMS_PURPOSE_LABELS: Record<SmsPurpose, string> = {
  survey_invite: 'Survey invite',
  survey_reminder: 'Survey reminder',
  review_invite: 'Review invite',
  survey_alert: 'Survey alert',
  review_alert: 'Review alert',
  opt_in_confirmation: 'Opt-in confirmation',
  help_reply: 'HELP reply',
  stop_reply: 'STOP reply',
};
export const CUSTOMER_FACING_PURPOSES: readonly SmsPurpose[] = ['survey_invite', 'survey_reminder', 'review_invite'];

/** The footer customer-facing messages end with unless they say it otherwise. */
export const SMS_OPT_OUT_FOOTER = 'Reply STOP to opt out';

/** "Reply STOP" / "text stop": the opt-out instruction carriers look for. */
const OPT_OUT = /\b(reply|text)\s+STOP\b/i;
const RATES = /msg\s*&\s*data\s+rates\s+may\s+apply/i;
/** The HELP keyword as a keyword (upper case), not the word "help" in a sentence. */
const HELP = /\bHELP\b/;
/** Something written like a token, e.g. `{firstname}`; braces around anything else are plain text. */
const TOKEN_LIKE = /\{[a-z_]+\}/gi;

/** Recommended ceiling (Twilio): above it a warning, not an error. */
export const SMS_RECOMMENDED_LENGTH = 320;
export const SMS_RECOMMENDED_SEGMENTS = 2;

/** Whether the text tells the recipient how to opt out (the stored `has_opt_out`). */
export const hasOptOut = (body: string): boolean => OPT_OUT.test(body);

export type SmsCheck = {
  count: SmsCount;
  /** Refuse the save: messages naming the field by its label. */
  errors: string[];
  /** Shown, not refused (length and cost). */
  warnings: string[];
};

/**
 * The compliance rules of a template (docs/screens.md, SMS Text), the same in the form and on the
 * server: customer-facing purposes name the business and say how to opt out; an opt-in confirmation
 * says "Msg & data rates may apply" and HELP; unknown tokens are refused (they would be sent as
 * typed); above 320 characters or 2 segments is a warning. `label` is the body field's label.
 */
export function checkSmsTemplate(purpose: string | null | undefined, body: string, label = 'Body'): SmsCheck {
  const count = countSms(body);
  const errors: string[] = [];
  const warnings: string[] = [];
  const field = `The ${label} field`;
  const purposeName = SMS_PURPOSES.find((p) => p === purpose);
  if (purposeName && CUSTOMER_FACING_PURPOSES.includes(purposeName)) {
    const what = SMS_PURPOSE_LABELS[purposeName].toLowerCase();
    if (!body.includes('{business_name}')) errors.push(`${field} must include {business_name} in a ${what}`);
    if (!hasOptOut(body)) errors.push(`${field} must say how to opt out in a ${what}, e.g. "${SMS_OPT_OUT_FOOTER}"`);
  }
  if (purposeName === 'opt_in_confirmation') {
    if (!RATES.test(body)) errors.push(`${field} must include "Msg & data rates may apply" in an opt-in confirmation`);
    if (!HELP.test(body)) errors.push(`${field} must name the HELP keyword in an opt-in confirmation, e.g. "Reply HELP for help"`);
  }
  const unknown = [...new Set([...body.matchAll(TOKEN_LIKE)].map((m) => m[0]))].filter((t) => !SMS_TOKENS.some((k) => k === t));
  if (unknown.length > 0) {
    errors.push(`${field} has an unknown token ${unknown.join(', ')}; the tokens are ${SMS_TOKENS.join(' ')}`);
  }
  if (count.characters > SMS_RECOMMENDED_LENGTH) {
    warnings.push(`${count.characters} characters: carriers recommend ${SMS_RECOMMENDED_LENGTH} or fewer`);
  }
  if (count.segments > SMS_RECOMMENDED_SEGMENTS) {
    warnings.push(`${count.segments} segments: each segment is billed as one message`);
  }
  return { count, errors, warnings };
}
