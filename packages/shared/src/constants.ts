/**
 * Business constants of the original console (docs/overview.md). Both the server and the
 * browser import them so a label or key is written once.
 */

/** Session storage keys. The token is stored as `JSON.stringify(token)`, e.g. `"abc"`. */
export const STORAGE_KEYS = {
  token: 'storage-auth-user-token',
  authenticated: 'storage-auth-user-authenticated',
  user: 'storage-auth-user',
  currentClient: 'storage-current-client',
} as const;

/**
 * The header the console names the client its tab shows in (`X-Client-Id: 12`); the server refuses
 * a call naming another client than the user's current one with 409 and names the current one in
 * `X-Current-Client-Id` (apps/server/src/plugins/client-scope.ts).
 */
export const CLIENT_HEADER = 'x-client-id';
export const CURRENT_CLIENT_HEADER = 'x-current-client-id';
/** The BroadcastChannel tabs of one browser tell each other of a client switch on. */
export const CLIENT_CHANNEL = 'admin-console-current-client';

/** The single-sign-on cookie set by the identity host. */
export const SSO_COOKIE = 'ssoToken';

/** Reserved user-list entry, always first in the browser's user list. No real user has id 1000. */
export const DEFAULT_USER_ENTRY = { id: 1000, name: 'Default for New User' } as const;
export const RESERVED_USER_ID = DEFAULT_USER_ENTRY.id;

export const STATUSES = ['active', 'paused', 'inactive'] as const;
export type Status = (typeof STATUSES)[number];
export const STATUS_LABELS: Record<Status, string> = {
  active: 'Active',
  paused: 'Paused',
  inactive: 'Archived',
};

/** Multi-select value meaning "every option"; sent as an omitted parameter. */
export const SELECTED_ALL = 'selected all';
export const SELECTED_ALL_LABEL = 'Selected All';

/** Reputation site selector default. */
export const DEFAULT_REPUTATION_SITE = 'Google';

/**
 * The sign-in form's fields as it labels them; its messages and the server's name them so. Here,
 * not beside the login schema, so the login route loads no zod (decision 002).
 */
export const LOGIN_LABELS = { email: 'Email', password: 'Password' } as const satisfies Record<string, string>;

/** The login rejection text (docs/overview.md, Signing in). */
export function loginRejectionMessage(email: string): string {
  return `Note: ${email} is no Longer allowed. Please try Again with a different account.`;
}

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';

/** Largest page a list endpoint serves. */
export const MAX_PER_PAGE = 200;

/**
 * Review sites (domain.md part D, `ReviewSite`): a client defaults to one (`google`), a survey offers
 * some, reviews come from them. Facebook rates by recommending, not by stars.
 */
export const REVIEW_SITES = [
  { value: 'google', label: 'Google', ratingType: 'stars_1_5' },
  { value: 'facebook', label: 'Facebook', ratingType: 'recommend' },
  { value: 'yelp', label: 'Yelp', ratingType: 'stars_1_5' },
  { value: 'tripadvisor', label: 'TripAdvisor', ratingType: 'stars_1_5' },
  { value: 'bbb', label: 'BBB', ratingType: 'stars_1_5' },
  { value: 'angi', label: 'Angi', ratingType: 'stars_1_5' },
  { value: 'healthgrades', label: 'Healthgrades', ratingType: 'stars_1_5' },
  { value: 'zocdoc', label: 'Zocdoc', ratingType: 'stars_1_5' },
  { value: 'cars_com', label: 'Cars.com', ratingType: 'stars_1_5' },
  { value: 'dealerrater', label: 'DealerRater', ratingType: 'stars_1_5' },
  { value: 'edmunds', label: 'Edmunds', ratingType: 'stars_1_5' },
  { value: 'other', label: 'Other', ratingType: 'stars_1_5' },
] as const;

export type ReviewSite = (typeof REVIEW_SITES)[number]['value'];

export const REVIEW_SITE_CODES = REVIEW_SITES.map((s) => s.value) as [ReviewSite, ...ReviewSite[]];

/** A site's label for people to read ("Cars.com"), or the code itself when unknown. */
export function reviewSiteLabel(code: string): string {
  return REVIEW_SITES.find((s) => s.value === code)?.label ?? code;
}

/**
 * Status transitions (docs/overview.md, Shared vocabulary): active ⇄ paused, active|paused → inactive (Archive),
 * inactive → active (Restore). Archive is the delete.
 */
export const STATUS_TRANSITIONS: Record<Status, readonly Status[]> = {
  active: ['paused', 'inactive'],
  paused: ['active', 'inactive'],
  inactive: ['active'],
};

export function canTransition(from: Status, to: Status): boolean {
  return STATUS_TRANSITIONS[from].includes(to);
}

/** The button a person presses for a transition, e.g. `Archive`. */
export function transitionLabel(from: Status, to: Status): string {
  if (to === 'paused') return 'Pause';
  if (to === 'inactive') return 'Archive';
  return from === 'inactive' ? 'Restore' : 'Resume';
}

/** US state and territory codes, for state filters. */
export const US_STATES = [
  'AK',
  'AL',
  'AR',
  'AZ',
  'CA',
  'CO',
  'CT',
  'DC',
  'DE',
  'FL',
  'GA',
  'HI',
  'IA',
  'ID',
  'IL',
  'IN',
  'KS',
  'KY',
  'LA',
  'MA',
  'MD',
  'ME',
  'MI',
  'MN',
  'MO',
  'MS',
  'MT',
  'NC',
  'ND',
  'NE',
  'NH',
  'NJ',
  'NM',
  'NV',
  'NY',
  'OH',
  'OK',
  'OR',
  'PA',
  'PR',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VA',
  'VT',
  'WA',
  'WI',
  'WV',
  'WY',
] as const;
