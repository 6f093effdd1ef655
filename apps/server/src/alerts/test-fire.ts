import type { Answers, SurveyQuestion } from '@admin/shared/surveys/questions';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { surveyAlertEvents, surveyAlertRules, surveyResponses } from '../db/schema/index.ts';
import { countedResponse } from '../kit/counted-responses.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import type { Messenger } from '../messaging/send.ts';
import { deliverDue } from './deliver.ts';
import { eventRows, insertEvents, namedBy } from './evaluate.ts';
import { recipientsOf, ruleUsers } from './recipients.ts';
import { triggerFires } from './triggers.ts';

/** Recent responses a Test looks through for one its rule would fire on. */
const SAMPLE_WINDOW = 200;

/**
 * A rule's Test (Survey Alert Settings): fires the rule now on a sample, to its real recipients,
 * whatever its frequency. The sample is the client's newest counted response the rule matches and
 * fires on, else its newest matching one, else none (a message about no response in particular).
 * Its events are `test` (never unique, never counted) and its messages say "[Test]".
 */
export async function fireTest(db: Db, messenger: Messenger, ruleId: number, clientId: number, now: Date) {
  const [rule] = await db
    .select()
    .from(surveyAlertRules)
    .where(and(eq(surveyAlertRules.id, ruleId), eq(surveyAlertRules.clientId, clientId)));
  if (!rule) throw notFound('Survey alert rule');
  if (rule.status === 'archived') throw conflict('An archived rule cannot be tested: restore it first.');
  const recent = await db
    .select()
    .from(surveyResponses)
    .where(
      and(
        eq(surveyResponses.clientId, clientId),
        countedResponse,
        rule.surveyIds.length > 0 ? inArray(surveyResponses.surveyId, rule.surveyIds) : undefined,
        rule.locationIds.length > 0 ? inArray(surveyResponses.locationId, rule.locationIds) : undefined,
      ),
    )
    .orderBy(desc(surveyResponses.submittedAt), desc(surveyResponses.id))
    .limit(SAMPLE_WINDOW);
  const sample =
    recent.find((r) => triggerFires(rule, { ...r, answers: r.answers as Answers, questions: r.questions as SurveyQuestion[] })) ??
    recent[0] ??
    null;
  const named = await namedBy(db, sample?.personnelId ?? null, sample?.locationId ?? null);
  const users = (await ruleUsers(db, clientId, [rule.id])).get(rule.id) ?? [];
  const recipients = recipientsOf(rule, users, named);
  const rows = eventRows(
    { ...rule, frequency: 'instant' },
    recipients,
    { responseId: sample?.id ?? null, processingItemId: null },
    now,
    true,
  );
  await insertEvents(db, rows);
  const created = await db
    .select({ id: surveyAlertEvents.id })
    .from(surveyAlertEvents)
    .where(and(eq(surveyAlertEvents.ruleId, rule.id), eq(surveyAlertEvents.test, true), eq(surveyAlertEvents.createdAt, now)));
  const ids = created.map((e) => e.id);
  await deliverDue(db, messenger, now, ids);
  const sent = ids.length
    ? await db
        .select({ id: surveyAlertEvents.id })
        .from(surveyAlertEvents)
        .where(and(inArray(surveyAlertEvents.id, ids), eq(surveyAlertEvents.state, 'sent')))
    : [];
  return { rule, sent: sent.length, recipients: recipients.map((r) => r.to) };
}
