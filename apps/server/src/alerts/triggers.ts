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

/** The comment and every text answer, each folded: where `keyword` and `any_comment` look. */
function textsOf(response: ResponseFacts): string[] {
  const texts = response.comment ? [response.comment] : [];
  for (const q of response.questions) {
    if (q.type !== 'text') continue;
    const value = response.answers[String(q.id)];
    if (typeof value === 'string' && value.trim() !== '') texts.push(value);
  }
  return texts.map(foldText);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiled keyword patterns: a client's rules are evaluated against every response, their words rarely change. */
const patterns = new Map<string, RegExp | null>();
const PATTERNS_MAX = 50_000;

function patternOf(keyword: string): RegExp | null {
  let pattern = patterns.get(keyword);
  if (pattern !== undefined) return pattern;
  const folded = foldText(keyword.trim());
  pattern = folded === '' ? null : new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(folded)}($|[^\\p{L}\\p{N}])`, 'u');
  if (patterns.size >= PATTERNS_MAX) patterns.clear();
  patterns.set(keyword, pattern);
  return pattern;
}

/** A keyword (one word or several) found whole, not inside a longer word ("rude" not in "prudent"). */
export function hasKeyword(texts: readonly string[], keyword: string): boolean {
  const pattern = patternOf(keyword);
  return pattern !== null && texts.some((t) => pattern.test(t));
}

/**
 * Whether a rule's trigger fires on a response. `no_response_days` never does here: it is about
 * invitations nobody answered (apps/server/src/alerts/no-response.ts).
 */
export function triggerFires(rule: RuleTrigger, response: ResponseFacts): boolean {
  return triggerFiresOn(rule, response, () => textsOf(response));
}

/** `triggerFires` for many rules on one response: `texts` folds its texts once, when a rule first needs them. */
export function firingTest(response: ResponseFacts): (rule: RuleTrigger) => boolean {
  let texts: string[] | null = null;
  const once = () => {
    texts ??= textsOf(response);
    return texts;
  };
  return (rule) => triggerFiresOn(rule, response, once);
}

function triggerFiresOn(rule: RuleTrigger, response: ResponseFacts, textsOfResponse: () => string[]): boolean {
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
      return rule.keywords.some((k) => hasKeyword(texts, k));
    }
    case 'any_comment':
      return textsOfResponse().length > 0;
    default:
      return false;
  }
}
