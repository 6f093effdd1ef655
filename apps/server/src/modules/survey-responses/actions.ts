import { isIdText, type OptionsQuery } from '@admin/shared';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, locations, personnel, smsTemplates, surveyProcessingItems, surveyResponses, surveys } from '../../db/schema/index.ts';
import { pagedOptions, personLabel } from '../../kit/options.ts';

/**
 * What the Survey Responses actions write and check (routes.ts): exclusion, reassignment to
 * another person or location of the client, and a resend of the invitation. The list and detail
 * reads are in repository.ts.
 */

export async function setExcluded(db: Db, id: number, excluded: boolean, reason: string, at: Date) {
  const [row] = await db
    .update(surveyResponses)
    .set({ excluded, excludedReason: reason, updatedAt: at })
    .where(eq(surveyResponses.id, id))
    .returning({ id: surveyResponses.id });
  return row !== undefined;
}

/** People a response of `clientId` can be reassigned to: the client's own, not merged into another. */
export const personnelOptionsOf = (db: Db, clientId: number, q: OptionsQuery) =>
  pagedOptions(
    db,
    q,
    {
      value: sql`${personnel.id}`,
      label: personLabel,
      from: sql`${personnel}`,
      where: sql`${personnel.clientId} = ${clientId} and ${personnel.mergedIntoId} is null`,
    },
    isIdText,
  );

/** Locations a response of `clientId` can be reassigned to: the client's own. */
export const locationOptionsOf = (db: Db, clientId: number, q: OptionsQuery) =>
  pagedOptions(
    db,
    q,
    {
      value: sql`${locations.id}`,
      label: sql`${locations.locationname}`,
      from: sql`${locations}`,
      where: sql`${locations.clientId} = ${clientId}`,
    },
    (v) => /^[a-f0-9]{24}$/.test(v),
  );

/** The person `id` if it belongs to `clientId` (and was not merged into another), else undefined. */
export async function personOfClient(db: Db, clientId: number, id: number) {
  const [row] = await db
    .select({ id: personnel.id })
    .from(personnel)
    .where(and(eq(personnel.id, id), eq(personnel.clientId, clientId), isNull(personnel.mergedIntoId)))
    .limit(1);
  return row;
}

/** The location `id` if it belongs to `clientId`, else undefined. */
export async function locationOfClient(db: Db, clientId: number, id: string) {
  const [row] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.id, id), eq(locations.clientId, clientId)))
    .limit(1);
  return row;
}

/** Writes the attribution on the response and on its processing item together. */
export async function reassign(
  db: Db,
  response: { id: number; processingItemId: number },
  change: { personnelId: number } | { locationId: string },
  at: Date,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(surveyResponses)
      .set({ ...change, updatedAt: at })
      .where(eq(surveyResponses.id, response.id));
    await tx
      .update(surveyProcessingItems)
      .set({ ...change, updatedAt: at })
      .where(eq(surveyProcessingItems.id, response.processingItemId));
  });
}

/** A processing item with what its invitation is rendered from: the survey's messaging, location and personnel names. */
export async function findItemForResend(db: Db, id: number) {
  const [row] = await db
    .select({
      item: surveyProcessingItems,
      surveyName: surveys.name,
      senderName: surveys.senderName,
      replyTo: surveys.replyTo,
      emailSubject: surveys.emailSubject,
      emailBody: surveys.emailBody,
      smsTemplateId: surveys.smsTemplateId,
      clientName: clients.name,
      locationName: locations.locationname,
      personnelName: personLabel,
      answered: sql<boolean>`exists (select 1 from ${surveyResponses} where ${surveyResponses.processingItemId} = ${surveyProcessingItems.id})`,
    })
    .from(surveyProcessingItems)
    .innerJoin(surveys, eq(surveys.id, surveyProcessingItems.surveyId))
    .leftJoin(clients, eq(clients.id, surveyProcessingItems.clientId))
    .leftJoin(locations, eq(locations.id, surveyProcessingItems.locationId))
    .leftJoin(personnel, eq(personnel.id, surveyProcessingItems.personnelId))
    .where(eq(surveyProcessingItems.id, id))
    .limit(1);
  return row;
}

/** The SMS template `id` if the client may use it (its own or a global one). */
export async function smsTemplateOf(db: Db, clientId: number, id: number) {
  const [row] = await db
    .select({ name: smsTemplates.name, body: smsTemplates.body })
    .from(smsTemplates)
    .where(and(eq(smsTemplates.id, id), or(isNull(smsTemplates.clientId), eq(smsTemplates.clientId, clientId))))
    .limit(1);
  return row;
}

/** After a resend: one more attempt; a failure is kept as the last error without undoing the earlier send. */
export async function recordResend(db: Db, id: number, error: string | null, at: Date) {
  await db
    .update(surveyProcessingItems)
    .set({ attempts: sql`${surveyProcessingItems.attempts} + 1`, lastError: error, updatedAt: at })
    .where(eq(surveyProcessingItems.id, id));
}
