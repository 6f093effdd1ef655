import { AMPLIFICATION_WINDOW_DAYS } from '@admin/shared';

/**
 * How well a review fits a review invitation (pipeline.md "Reviews"), 0–100, with its parts kept
 * (`match_reasons`): the click is the strongest evidence, the reviewer's name against the
 * customer's is weak (nicknames, initials), closeness in time and comment likeness add a little.
 * The weights make a name alone, however close, at most a suggestion (docs/decisions/049).
 */
export const WEIGHTS = { click: 45, name: 30, time: 15, comment: 10 } as const;

export type Candidate = { customerName: string; invitedAt: Date; clickedAt: Date | null; comment: string | null };
export type ReviewFacts = { authorName: string; createdAt: Date; text: string | null };
export type MatchScore = {
  score: number;
  reasons: { click: number; name: number; time: number; comment: number; name_similarity: number };
};

const HOUR = 3_600_000;

/** Jaro similarity of two strings, 0–1. */
function jaro(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 0 : 1;
  const reach = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aHit = new Array<boolean>(a.length).fill(false);
  const bHit = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - reach); j < Math.min(b.length, i + reach + 1); j++) {
      if (bHit[j] || a[i] !== b[j]) continue;
      aHit[i] = bHit[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let k = 0;
  let half = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aHit[i]) continue;
    while (!bHit[k]) k++;
    if (a[i] !== b[k]) half++;
    k++;
  }
  return (matches / a.length + matches / b.length + (matches - half / 2) / matches) / 3;
}

/** Jaro–Winkler similarity, 0–1: Jaro with a bonus for a common prefix of up to four characters (p = 0.1). */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return j + prefix * 0.1 * (1 - j);
}

/** "Dana Lee" and "dana l." both become "dana l": first name and last initial, lower case, no accents or marks. */
export function nameKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const first = words[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1] ?? '').charAt(0) : '';
  return last ? `${first} ${last}` : first;
}

/** Words of three letters or more, lower case without accents, for comment likeness. */
function wordsOf(text: string): Set<string> {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  return new Set(words.filter((w) => w.length >= 3));
}

/**
 * What scoring derives from a name or a text; a batch scoring thousands of pairs keeps them
 * (`memoized`) so each name and text is read once, not once per pair.
 */
export type Derive = { key(name: string): string; words(text: string): Set<string> };
const direct: Derive = { key: nameKey, words: wordsOf };

/** `Derive` with a cache per name and text, for one batch. */
export function memoized(): Derive {
  const keys = new Map<string, string>();
  const words = new Map<string, Set<string>>();
  return {
    key(name) {
      const known = keys.get(name);
      if (known !== undefined) return known;
      const k = nameKey(name);
      keys.set(name, k);
      return k;
    },
    words(text) {
      const known = words.get(text);
      if (known !== undefined) return known;
      const w = wordsOf(text);
      words.set(text, w);
      return w;
    },
  };
}

/** Share of words the two texts have in common (Jaccard), 0–1; 0 when either is empty. */
export function commentLikeness(a: string | null, b: string | null, derive: Derive = direct): number {
  if (!a || !b) return 0;
  const x = derive.words(a);
  const y = derive.words(b);
  if (x.size === 0 || y.size === 0) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return common / (x.size + y.size - common);
}

/** Points for time: a review soon after the click (or the invitation) is likelier the respondent's. */
function timePoints(invitation: Candidate, review: ReviewFacts): number {
  const from = invitation.clickedAt && invitation.clickedAt <= review.createdAt ? invitation.clickedAt : invitation.invitedAt;
  const hours = (review.createdAt.getTime() - from.getTime()) / HOUR;
  if (hours < 0 || hours > AMPLIFICATION_WINDOW_DAYS * 24) return 0;
  if (hours <= 2) return WEIGHTS.time;
  if (hours <= 24) return 10;
  if (hours <= 72) return 5;
  return 2;
}

export function scoreMatch(invitation: Candidate, review: ReviewFacts, derive: Derive = direct): MatchScore {
  // A click counts only when it came before the review was written.
  const click = invitation.clickedAt !== null && invitation.clickedAt <= review.createdAt ? WEIGHTS.click : 0;
  const a = derive.key(invitation.customerName);
  const b = derive.key(review.authorName);
  const similarity = a && b ? jaroWinkler(a, b) : 0;
  // Below 0.7 two names say nothing; from there up to 1 the points grow linearly.
  const name = Math.round(WEIGHTS.name * Math.max(0, (similarity - 0.7) / 0.3));
  const time = timePoints(invitation, review);
  const comment = Math.round(WEIGHTS.comment * Math.min(1, 2 * commentLikeness(invitation.comment, review.text, derive)));
  return {
    score: Math.min(100, click + name + time + comment),
    reasons: { click, name, time, comment, name_similarity: Math.round(similarity * 100) / 100 },
  };
}
