import type { Answers, SurveyQuestion } from '@admin/shared/surveys/questions';

/** What a trigger reads of a rule (survey_alert_rules, apps/server/src/db/schema/alerts.ts). */
export type RuleTrigger = {
  trigger: string;
  scoreMin: number | null;
  scoreMax: number | null;
  keywords: readonly string[];
};

/** What a trigger reads of a response. */
export type ResponseFacts = {
  keyScore: number | null;
  npsClass: string | null;
  comment: string | null;
  answers: Answers;
  questions: readonly SurveyQuestion[];
};

/** Lower case without accents, so "Café" and "cafe" are one word (pipeline.md "Alerts"). */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** A response's texts (the comment and every text answer), folded, and the whole words in them. */
type Texts = { folded: string[]; words: Set<string> };

const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** Where `keyword` and `any_comment` look. */
function textsOf(response: ResponseFacts): Texts {
  const texts = response.comment ? [response.comment] : [];
  for (const q of response.questions) {
    if (q.type !== 'text') continue;
    const value = response.answers[String(q.id)];
    if (typeof value === 'string' && value.trim() !== '') texts.push(value);
  }
  const folded = texts.map(foldText);
  return { folded, words: new Set(folded.flatMap((t) => t.split(NOT_WORD))) };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How a keyword is looked for, compiled once: a single word is a lookup in the response's word
 * set (a client's thousand keyword rules cost a thousand lookups, not a thousand scans, per
 * response: bench/alerts); several words, or words with punctuation, a pattern with the same
 * boundaries. Null for a keyword that is empty once folded.
 */
type Matcher = { word: string } | { pattern: RegExp } | null;
const matchers = new Map<string, Matcher>();
const MATCHERS_MAX = 50_000;

function matcherOf(keyword: string): Matcher {
  let matcher = matchers.get(keyword);
  if (matcher !== undefined) return matcher;
  const folded = foldText(keyword.trim());
  if (folded === '') matcher = null;
  else if (!NOT_WORD.test(folded)) matcher = { word: folded };
  else matcher = { pattern: new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(folded)}($|[^\\p{L}\\p{N}])`, 'u') };
  if (matchers.size >= MATCHERS_MAX) matchers.clear();
  matchers.set(keyword, matcher);
  return matcher;
}

/** A rule's keyword list compiled, kept while the list is (the evaluator's cached rules keep theirs). */
const compiledLists = new WeakMap<readonly string[], Matcher[]>();

function matchersOf(keywords: readonly string[]): Matcher[] {
  let compiled = compiledLists.get(keywords);
  if (!compiled) {
    compiled = keywords.map(matcherOf);
    compiledLists.set(keywords, compiled);
  }
  return compiled;
}

/** A keyword (one word or several) found whole, not inside a longer word ("rude" not in "prudent"). */
function found(texts: Texts, matcher: Matcher): boolean {
  if (matcher === null) return false;
  if ('word' in matcher) return texts.words.has(matcher.word);
  return texts.folded.some((t) => matcher.pattern.test(t));
}

/**
 * Whether a rule's trigger fires on a response. `no_response_days` never does here: it is about
 * invitations nobody answered (apps/server/src/alerts/no-response.ts).
 */
export function triggerFires(rule: RuleTrigger, response: ResponseFacts): boolean {
  return firingTest(response).fires(rule);
}

/** Many rules tested on one response; its texts are folded once, when first needed. */
export type FiringTest = {
  fires(rule: RuleTrigger): boolean;
  /** The whole words of the response's texts (what single-word keywords are looked up in). */
  words(): ReadonlySet<string>;
};

export function firingTest(response: ResponseFacts): FiringTest {
  let texts: Texts | null = null;
  const once = () => {
    texts ??= textsOf(response);
    return texts;
  };
  return { fires: (rule) => triggerFiresOn(rule, response, once), words: () => once().words };
}

/**
 * The words a keyword list fires on when each keyword is a single word, so a rule can be found
 * from a response's words (active-rules.ts); null when one is a phrase, which only a scan of the
 * texts finds.
 */
export function singleWordsOf(keywords: readonly string[]): string[] | null {
  const words: string[] = [];
  for (const matcher of matchersOf(keywords)) {
    if (matcher === null) continue;
    if (!('word' in matcher)) return null;
    words.push(matcher.word);
  }
  return words;
}

function triggerFiresOn(rule: RuleTrigger, response: ResponseFacts, textsOfResponse: () => Texts): boolean {
  const score = response.keyScore;
  switch (rule.trigger) {
    case 'score_at_or_below':
      return score !== null && rule.scoreMax !== null && score <= rule.scoreMax;
    case 'score_between':
      return score !== null && rule.scoreMin !== null && rule.scoreMax !== null && score >= rule.scoreMin && score <= rule.scoreMax;
    case 'detractor':
      return response.npsClass === 'detractor';
    case 'keyword': {
      const texts = textsOfResponse();
      return matchersOf(rule.keywords).some((m) => found(texts, m));
    }
    case 'any_comment':
      return textsOfResponse().folded.length > 0;
    default:
      return false;
  }
}
