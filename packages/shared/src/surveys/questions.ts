import { z } from 'zod';

/**
 * A survey's questions and a respondent's answers: the one contract of the builder (Surveys), the
 * public survey page (`/s/{token}`) and the response API, so the browser and the server check an
 * answer the same way.
 */

export const QUESTION_TYPES = ['nps_0_10', 'rating_1_5', 'yes_no', 'single_choice', 'multi_choice', 'text'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  nps_0_10: 'Likelihood to recommend (0–10)',
  rating_1_5: 'Rating (1–5)',
  yes_no: 'Yes / No',
  single_choice: 'One choice',
  multi_choice: 'Several choices',
  text: 'Comment',
};

export const SURVEY_TYPES = ['nps', 'csat', 'star', 'custom'] as const;
export type SurveyType = (typeof SURVEY_TYPES)[number];
/** The question type a survey's key metric must have (custom surveys have none). */
export const KEY_METRIC_TYPE: Record<SurveyType, QuestionType | null> = {
  nps: 'nps_0_10',
  csat: 'rating_1_5',
  star: 'rating_1_5',
  custom: null,
};

export const MAX_QUESTIONS = 30;
export const MAX_OPTIONS = 20;

export const surveyQuestionSchema = z.object({
  /** Stable within its survey (answers refer to it); a new question gets the next free number. */
  id: z.number().int().min(1).max(1000),
  type: z.enum(QUESTION_TYPES),
  text: z.string().trim().min(1, 'The Question field is required').max(500, 'The Question field may not be greater than 500 characters'),
  options: z.array(z.string().trim().min(1).max(100)).max(MAX_OPTIONS).default([]),
  required: z.boolean().default(false),
  is_key_metric: z.boolean().default(false),
});
export type SurveyQuestion = z.infer<typeof surveyQuestionSchema>;
/**
 * A stored question as an answer carries it: no trimming or defaults, so what was stored is
 * exactly what is sent (a response schema must not transform).
 */
export const storedQuestionSchema = z.object({
  id: z.number().int(),
  type: z.enum(QUESTION_TYPES),
  text: z.string(),
  options: z.array(z.string()),
  required: z.boolean(),
  is_key_metric: z.boolean(),
});

/** What is wrong with a survey's list of questions as a whole, or an empty list. */
export function questionListProblems(type: SurveyType, questions: readonly SurveyQuestion[]): string[] {
  const problems: string[] = [];
  if (questions.length === 0) problems.push('A survey needs at least one question');
  if (questions.length > MAX_QUESTIONS) problems.push(`A survey may have at most ${MAX_QUESTIONS} questions`);
  if (new Set(questions.map((q) => q.id)).size !== questions.length) problems.push('Two questions have the same id');
  const keyType = KEY_METRIC_TYPE[type];
  const keys = questions.filter((q) => q.is_key_metric);
  if (keyType === null) {
    if (keys.length > 0) problems.push('A custom survey has no key metric question');
  } else if (keys.length !== 1) {
    problems.push('Mark exactly one question as the key metric');
  } else if (keys[0]?.type !== keyType) {
    problems.push(`The key metric of this survey must be a "${QUESTION_TYPE_LABELS[keyType]}" question`);
  }
  for (const q of questions) {
    const choice = q.type === 'single_choice' || q.type === 'multi_choice';
    if (choice && q.options.length < 2) problems.push(`"${q.text}" needs at least two options`);
    if (!choice && q.options.length > 0) problems.push(`"${q.text}" takes no options`);
  }
  return problems;
}

/** One answer: a score, yes/no, the chosen option(s) or text. */
export const answerValueSchema = z.union([
  z.number().int(),
  z.boolean(),
  z.string().max(5000),
  z.array(z.string().max(100)).max(MAX_OPTIONS),
]);
export type AnswerValue = z.infer<typeof answerValueSchema>;
/** A respondent's answers by question id (as text, the way a form posts them). */
export const answersSchema = z.record(z.string().regex(/^\d{1,4}$/), answerValueSchema);
export type Answers = z.infer<typeof answersSchema>;

/** The message for one question's answer, or null when it is acceptable. */
export function answerProblem(question: SurveyQuestion, value: AnswerValue | undefined): string | null {
  const missing = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (missing) return question.required ? 'Please answer this question' : null;
  switch (question.type) {
    case 'nps_0_10':
      return typeof value === 'number' && value >= 0 && value <= 10 ? null : 'Choose a score from 0 to 10';
    case 'rating_1_5':
      return typeof value === 'number' && value >= 1 && value <= 5 ? null : 'Choose a rating from 1 to 5';
    case 'yes_no':
      return typeof value === 'boolean' ? null : 'Answer yes or no';
    case 'single_choice':
      return typeof value === 'string' && question.options.includes(value) ? null : 'Choose one of the options';
    case 'multi_choice':
      return Array.isArray(value) && value.every((v) => question.options.includes(v)) ? null : 'Choose among the options';
    case 'text':
      return typeof value === 'string' && value.length <= 5000 ? null : 'The comment may not be greater than 5000 characters';
  }
}

/** Problems by question id (as the answers name them); empty when the answers can be recorded. */
export function answerProblems(questions: readonly SurveyQuestion[], answers: Answers): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const q of questions) {
    const problem = answerProblem(q, answers[String(q.id)]);
    if (problem) problems[String(q.id)] = problem;
  }
  for (const id of Object.keys(answers)) if (!questions.some((q) => String(q.id) === id)) problems[id] = 'No such question';
  return problems;
}

export const NPS_CLASSES = ['promoter', 'passive', 'detractor'] as const;
export type NpsClass = (typeof NPS_CLASSES)[number];
/** 9–10 promoter, 7–8 passive, 0–6 detractor (NPS); only for 0–10 scores. */
export function npsClassOf(score: number): NpsClass {
  return score >= 9 ? 'promoter' : score >= 7 ? 'passive' : 'detractor';
}

/** The key score and, for NPS, its class, from the answers; null when the survey has no key metric answered. */
export function keyScoreOf(questions: readonly SurveyQuestion[], answers: Answers): { score: number; npsClass: NpsClass | null } | null {
  const key = questions.find((q) => q.is_key_metric);
  const value = key ? answers[String(key.id)] : undefined;
  if (!key || typeof value !== 'number') return null;
  return { score: value, npsClass: key.type === 'nps_0_10' ? npsClassOf(value) : null };
}

/** The comment: the first text question's answer. */
export function commentOf(questions: readonly SurveyQuestion[], answers: Answers): string | null {
  const text = questions.find((q) => q.type === 'text');
  const value = text ? answers[String(text.id)] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
