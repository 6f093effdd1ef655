import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { surveys } from '../../db/schema/index.ts';
import { notFound } from '../../lib/http-error.ts';

/** What the survey routes share (routes.ts, send-test.ts, preview.ts): the survey they act on and sample values. */

/** The sample personnel name of a test invitation. */
export const SAMPLE_PERSONNEL = 'Jordan';
export const DAY_MS = 24 * 60 * 60 * 1000;

/** A link token: 256 random bits, URL-safe (docs/decisions/023-survey-questions-as-jsonb.md). */
export const newSurveyToken = () => randomBytes(32).toString('base64url');

/** A survey of any client (the list shows the clients chosen in its filter), or 404; what it does acts on its own client. */
export async function findSurvey(db: Db, id: number) {
  const [survey] = await db.select().from(surveys).where(eq(surveys.id, id)).limit(1);
  if (!survey) throw notFound('Survey');
  return survey;
}
