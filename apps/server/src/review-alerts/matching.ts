import { firingTest, singleWordsOf } from '../alerts/triggers.ts';

/** What a rule's filters read of a review rule (review_alert_rules, apps/server/src/db/schema/reputation.ts). */
export type ReviewFilter = {
  locationIds: readonly string[];
  sites: readonly string[];
  ratingMin: number | null;
  ratingMax: number | null;
  recommendFilter: readonly string[];
  textFilter: string;
  keywords: readonly string[];
};

/** What the filters read of a review. */
export type ReviewFacts = { locationId: string; site: string; rating: number | null; recommend: boolean | null; text: string | null };

/** Reviews older than this when they reach the engine alert nobody (docs/decisions/051-review-alerts.md). */
export const RECENT_DAYS = 7;

/** Whether a review is recent enough to alert: written on the site at most RECENT_DAYS before `now`. */
export const isRecent = (reviewCreatedAt: Date, now: Date) => now.getTime() - reviewCreatedAt.getTime() <= RECENT_DAYS * 86_400_000;

/**
 * The rating part: a star review inside the rule's range (either end open when unset); a recommend
 * review (Facebook, no stars) by the rule's recommended / not recommended choice, either when none
 * is chosen. A star range never excludes a recommend review, nor a recommend choice a star one.
 */
function ratingMatches(rule: ReviewFilter, review: ReviewFacts): boolean {
  if (review.rating !== null) {
    return (rule.ratingMin === null || review.rating >= rule.ratingMin) && (rule.ratingMax === null || review.rating <= rule.ratingMax);
  }
  if (review.recommend === null || rule.recommendFilter.length === 0) return true;
  return rule.recommendFilter.includes(review.recommend ? 'recommended' : 'not_recommended');
}

/**
 * A review's test against many rules (domain.md §11): its location (none = all), site, rating or
 * recommendation, text present or absent, and keywords — any one, as a whole word, ignoring case
 * and accents, found as survey alert keywords are (apps/server/src/alerts/triggers.ts). The text
 * is folded once per review, however many rules look at it.
 */
export function reviewTest(review: ReviewFacts): (rule: ReviewFilter) => boolean {
  const hasText = (review.text ?? '').trim() !== '';
  const words = firingTest({ keyScore: null, npsClass: null, comment: review.text, answers: {}, questions: [] });
  return (rule) => {
    if (rule.locationIds.length > 0 && !rule.locationIds.includes(review.locationId)) return false;
    if (!rule.sites.includes(review.site)) return false;
    if (!ratingMatches(rule, review)) return false;
    if (rule.textFilter === 'with_text' && !hasText) return false;
    if (rule.textFilter === 'without_text' && hasText) return false;
    if (rule.keywords.length === 0) return true;
    return words.fires({ trigger: 'keyword', scoreMin: null, scoreMax: null, keywords: rule.keywords });
  };
}

/** Whether a review passes every filter of one rule. */
export const reviewMatches = (rule: ReviewFilter, review: ReviewFacts): boolean => reviewTest(review)(rule);

/**
 * A client's rules indexed for a batch of reviews, as survey rules are (alerts/active-rules.ts): a
 * rule whose keywords are all single words can only pass a review holding one of them, so it is
 * looked up by the review's words instead of tested on every review (a client's 900 keyword rules
 * cost a lookup per word, not 900 tests: bench/reputation/review-alerts.ts). Every other rule is
 * tested on every review. Answers, per review, the rules it passes, in the rules' order.
 */
export function ruleIndex<R extends ReviewFilter>(rules: readonly R[]): (review: ReviewFacts) => R[] {
  const byWord = new Map<string, number[]>();
  const always: number[] = [];
  rules.forEach((rule, i) => {
    const words = rule.keywords.length > 0 ? singleWordsOf(rule.keywords) : null;
    if (words === null) always.push(i);
    for (const word of new Set(words)) byWord.set(word, [...(byWord.get(word) ?? []), i]);
  });
  return (review) => {
    const picked = [...always];
    if (byWord.size > 0) {
      const words = firingTest({ keyScore: null, npsClass: null, comment: review.text, answers: {}, questions: [] }).words();
      for (const word of words) picked.push(...(byWord.get(word) ?? []));
    }
    const passes = reviewTest(review);
    return [...new Set(picked)]
      .sort((a, b) => a - b)
      .flatMap((i) => rules[i] ?? [])
      .filter(passes);
  };
}
