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

/** A keyword (one word or several) found whole, not inside a longer word ("rude" not in "prudent"). */
export function hasKeyword(texts: readonly string[], keyword: string): boolean {
  const folded = foldText(keyword.trim());
  if (folded === '') return false;
  const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(folded)}($|[^\\p{L}\\p{N}])`, 'u');
  return texts.some((t) => pattern.test(t));
}

/**
 * Whether a rule's trigger fires on a response. `no_response_days` never does here: it is about
 * invitations nobody answered (apps/server/src/alerts/no-response.ts).
 */
export function triggerFires(rule: RuleTrigger, response: ResponseFacts): boolean {
  const score = response.keyScore;
  switch (rule.trigger) {
    case 'score_at_or_below':
      return score !== null && rule.scoreMax !== null && score <= rule.scoreMax;
    case 'score_between':
      return score !== null && rule.scoreMin !== null && rule.scoreMax !== null && score >= rule.scoreMin && score <= rule.scoreMax;
    case 'detractor':
      return response.npsClass === 'detractor';
    case 'keyword': {
      const texts = textsOf(response);
      return rule.keywords.some((k) => hasKeyword(texts, k));
    }
    case 'any_comment':
      return textsOf(response).length > 0;
    default:
      return false;
  }
}
