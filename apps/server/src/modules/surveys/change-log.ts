import type { Status, Survey, SurveyChangeAction } from '@admin/shared';
import { surveyResource } from '@admin/shared';
import type { SurveyQuestion } from '@admin/shared/surveys/questions';
import type { Db } from '../../db/client.ts';
import { surveyChangeLogs } from '../../db/schema/index.ts';

/**
 * The survey change log (Survey Manager Logs, Changes): who changed which survey how, written in
 * the same transaction as the change by the surveys module's hooks (kit `afterSave`,
 * `beforeStatus`) and its Duplicate route.
 */
type Diff = Record<string, { before: unknown; after: unknown }>;
export type SurveyChange = { action: SurveyChangeAction; diff: Diff };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The form's fields other than the questions, which are logged one by one. */
const LOGGED_FIELDS = surveyResource.fieldNames.filter((f) => f !== 'questions');

function fieldValue(survey: Survey, field: string): unknown {
  return Object.entries(survey).find(([key]) => key === field)?.[1] ?? null;
}

/**
 * What a save changed: `created` with the new survey's fields, or `updated` with the fields that
 * differ (named as the form names them), then each question added, removed or changed as its own
 * action, keyed `question <id>`.
 */
export function surveyChanges(before: Survey | null, after: Survey): SurveyChange[] {
  const changes: SurveyChange[] = [];
  const diff: Diff = {};
  for (const field of LOGGED_FIELDS) {
    const was = before === null ? null : fieldValue(before, field);
    const is = fieldValue(after, field);
    if (!same(was, is)) diff[field] = { before: was, after: is };
  }
  if (before === null) {
    diff.questions = { before: null, after: after.questions.length };
    return [{ action: 'created', diff }];
  }
  if (Object.keys(diff).length > 0) changes.push({ action: 'updated', diff });
  const old = new Map<number, SurveyQuestion>(before.questions.map((q) => [q.id, q]));
  const current = new Map<number, SurveyQuestion>(after.questions.map((q) => [q.id, q]));
  for (const [id, q] of current) {
    const was = old.get(id);
    if (!was) changes.push({ action: 'question_added', diff: { [`question ${id}`]: { before: null, after: q } } });
    else if (!same(was, q)) changes.push({ action: 'question_changed', diff: { [`question ${id}`]: { before: was, after: q } } });
  }
  for (const [id, q] of old) {
    if (!current.has(id)) changes.push({ action: 'question_removed', diff: { [`question ${id}`]: { before: q, after: null } } });
  }
  return changes;
}

/** The action a status change is logged as. */
export function statusAction(from: string, to: Status): SurveyChangeAction {
  if (to === 'paused') return 'paused';
  if (to === 'inactive') return 'archived';
  return from === 'inactive' ? 'restored' : 'resumed';
}

/** Writes change log rows for one survey, in the caller's transaction. */
export async function logSurveyChanges(
  tx: Db,
  survey: { id: number; clientId: number },
  userId: number | null,
  changes: SurveyChange[],
  at: Date = new Date(),
): Promise<void> {
  if (changes.length === 0) return;
  await tx
    .insert(surveyChangeLogs)
    .values(changes.map((c) => ({ surveyId: survey.id, clientId: survey.clientId, userId, action: c.action, diff: c.diff, at })));
}
