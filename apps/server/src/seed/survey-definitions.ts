import type { SurveyQuestion } from '@admin/shared/surveys/questions';

// What the demo surveys say and who they go to; surveys.ts writes them through the product's code.

/**
 * The client whose invitations stopped over a week ago (its last month's run 9 to 30 days back), so
 * the AC Performance Report has a client at risk for "No feed data for N days" (decision 070).
 */
export const QUIET_CLIENT = 'Evergreen Credit Union';
/** Days before the anchor the quiet client's last invitation is at least. */
export const QUIET_DAYS = 9;

/** The demo clients that text their customers: an SMS survey, or e-mail with SMS for those without an address. */
export const TEXTING_CLIENTS: Record<string, 'sms' | 'email_then_sms'> = {
  'Pioneer Plumbing Co.': 'sms',
  'Clearwater Pest Control': 'sms',
  'Northstar Toyota': 'email_then_sms',
};

/** The texting clients' own survey invitation (SMS Text), written to pass the compliance rules. */
export const SMS_INVITE = {
  name: 'Survey invite (text)',
  purpose: 'survey_invite',
  language: 'en',
  body: 'Hi {first_name}, thanks for choosing {business_name}! How did we do? It takes 30 seconds: {link} Reply STOP to opt out',
} as const;

/**
 * The global defaults every client sees on SMS Text and may copy for itself (docs/screens.md,
 * SMS Text): one per purpose a demo client would start from.
 */
export const GLOBAL_SMS_TEMPLATES = [
  { ...SMS_INVITE, name: 'Survey invite (default)' },
  {
    name: 'Review request (default)',
    purpose: 'review_invite',
    language: 'en',
    body: 'Hi {first_name}, thank you for visiting {business_name}! Would you share a quick review? {link} Reply STOP to opt out',
  },
] as const;

/** Industries that also run a satisfaction survey next to NPS, and its kind. */
export const SECOND_SURVEY: Record<string, 'csat' | 'star'> = {
  healthcare: 'csat',
  dental: 'csat',
  senior_care: 'csat',
  hospitality: 'star',
  retail: 'star',
};

/** The demo's customers (the feeds' customers have names of their own, feed-exports.ts). */
export const FIRST = ['Avery', 'Jordan', 'Riley', 'Morgan', 'Casey', 'Taylor', 'Jamie', 'Quinn', 'Parker', 'Reese', 'Drew', 'Skyler'];
export const LAST = ['Reyes', 'Chen', 'Okafor', 'Schmidt', 'Rossi', 'Silva', 'Novak', 'Haddad', 'Larsen', 'Murphy', 'Ito', 'Bauer'];

export const EMAIL_BODY = [
  'Hi {first_name},',
  '',
  'Thank you for choosing {location_name}. {personnel_name} and the team would love to hear how it went.',
  'It takes less than a minute: {survey_link}',
  '',
  'No longer want these e-mails? {unsubscribe_link}',
].join('\n');

/** The questions of a demo survey of the kind: the key metric, a yes/no, and a comment. */
export function questionsOf(type: 'nps' | 'csat' | 'star', clientName: string): SurveyQuestion[] {
  const key: SurveyQuestion =
    type === 'nps'
      ? {
          id: 1,
          type: 'nps_0_10',
          text: `How likely are you to recommend ${clientName} to a friend or colleague?`,
          options: [],
          required: true,
          is_key_metric: true,
        }
      : {
          id: 1,
          type: 'rating_1_5',
          text: type === 'csat' ? 'How satisfied were you with your visit?' : 'How would you rate your stay overall?',
          options: [],
          required: true,
          is_key_metric: true,
        };
  return [
    key,
    { id: 2, type: 'yes_no', text: 'Was everything done the way you expected?', options: [], required: false, is_key_metric: false },
    { id: 3, type: 'text', text: 'Tell us more about your experience', options: [], required: false, is_key_metric: false },
  ];
}
