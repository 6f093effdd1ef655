/**
 * The reputation half's shared words (domain.md §10–12, pipeline.md "Reviews" and "Listings"):
 * statuses with their labels, the listing directories, and the jobs that follow a stored review.
 */

/** An amplification (reputation item)'s states; `not_posted` comes 14 days after the invitation without a match. */
export const AMPLIFICATION_STATUSES = [
  { value: 'invited', label: 'Invited' },
  { value: 'clicked', label: 'Clicked' },
  { value: 'posted', label: 'Posted' },
  { value: 'not_posted', label: 'Not posted' },
  { value: 'opted_out', label: 'Opted out' },
  { value: 'failed', label: 'Failed' },
] as const;
export type AmplificationStatus = (typeof AMPLIFICATION_STATUSES)[number]['value'];

/** Days after the invitation an unmatched amplification becomes `not_posted`, and the longest a review may follow its invitation to match it. */
export const AMPLIFICATION_WINDOW_DAYS = 14;

/** Match scores (pipeline.md "Reviews"): at or above `auto` a review matches; from `suggest` a person confirms; below, nothing. */
export const MATCH_THRESHOLDS = { auto: 70, suggest: 40 } as const;

/** Most reviews one `POST /api/v1/reviews` takes. */
export const MAX_REVIEWS_PER_BATCH = 1000;

/** Directories the Listings Tool checks (domain.md §12). */
export const LISTING_DIRECTORIES = [
  { value: 'google', label: 'Google Business Profile' },
  { value: 'bing', label: 'Bing Places' },
  { value: 'apple', label: 'Apple Business Connect' },
  { value: 'facebook', label: 'Facebook' },
  { value: 'yelp', label: 'Yelp' },
  { value: 'yellow_pages', label: 'Yellow Pages' },
  { value: 'bbb', label: 'BBB' },
  { value: 'foursquare', label: 'Foursquare' },
  { value: 'data_axle', label: 'Data Axle' },
  { value: 'neustar', label: 'Neustar/Localeze' },
] as const;
export type ListingDirectory = (typeof LISTING_DIRECTORIES)[number]['value'];

export const LISTING_STATUSES = [
  { value: 'accurate', label: 'Accurate' },
  { value: 'needs_update', label: 'Needs update' },
  { value: 'not_found', label: 'Not found' },
  { value: 'duplicate', label: 'Duplicate' },
  { value: 'unclaimed', label: 'Unclaimed' },
  { value: 'pending_update', label: 'Pending update' },
  { value: 'suppressed', label: 'Suppressed' },
  // A directory the server has no connection to (no adapter, no key, demo directory off): docs/decisions/052.
  { value: 'not_checked', label: 'Not checked' },
] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number]['value'];

/** Jobs enqueued for each review stored or changed by the ingest function (payload `{ reviewId }`). */
export const REVIEW_JOBS = ['match-review', 'evaluate-review-alerts'] as const;
export type ReviewJob = (typeof REVIEW_JOBS)[number];
