import { DEFAULT_RECIPIENT_ID } from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Db, rowsOf } from '../../db/client.ts';
import { fieldsRefused } from '../../lib/http-error.ts';
import type { AlertRuleKind, AlertRuleTable, RuleBodyBase, RuleQueryBase } from './kind.ts';
import { storedRecipients } from './recipients.ts';

/** Values of `wanted` that are not in `own`, for a message naming them. */
export const missing = <V>(wanted: readonly V[], own: readonly V[]) => [...new Set(wanted)].filter((v) => !own.includes(v));

/**
 * Of the locations and users a body names, those that are not the client's (users: its active
 * users, or Default for New User), by field, worded with the form's labels.
 */
async function foreignLocationsAndUsers(
  db: Db,
  clientId: number,
  body: { location_ids?: string[] | undefined; recipient_user_ids?: number[] | undefined },
  labels: Record<string, string>,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const locationIds = [...new Set((body.location_ids ?? []).map((l) => l.trim()))];
  if (locationIds.length > 0) {
    const own = rowsOf(
      await db.execute(sql`select _id as id from locations where client_id = ${clientId} and _id = any(${sql.param(locationIds)}::text[])`),
    ).map((r) => String(r.id));
    const other = missing(locationIds, own);
    if (other.length > 0) {
      errors.location_ids = [`The ${labels.location_ids} field names locations that are not this client's: ${other.join(', ')}`];
    }
  }
  const userIds = [...new Set((body.recipient_user_ids ?? []).filter((id) => id !== DEFAULT_RECIPIENT_ID))];
  if (userIds.length > 0) {
    const own = rowsOf(
      await db.execute(sql`
        select user_id from client_users
        where client_id = ${clientId} and status = 'active' and user_id = any(${sql.param(userIds)}::integer[])`),
    ).map((r) => Number(r.user_id));
    const other = missing(userIds, own);
    if (other.length > 0) {
      errors.recipient_user_ids = [
        `The ${labels.recipient_user_ids} field names people who are not active users of this client: ${other.join(', ')}`,
      ];
    }
  }
  return errors;
}

/**
 * The checks beyond each field's rules, on the rule as it will be saved (the body over the stored
 * rule): the kind's `problems` (its shared rules, the form's too), then the references it names,
 * which must be its own client's (the kind's own first, then locations and users). A new rule is
 * the current client's; an edit keeps its client.
 */
export async function checkAlertRule<T extends AlertRuleTable, Rec, Body extends RuleBodyBase, Query extends RuleQueryBase, Extras>(
  kind: AlertRuleKind<T, Rec, Body, Query, Extras>,
  db: Db,
  body: Partial<Body> & { location_ids?: string[] | undefined },
  before: T['$inferSelect'] | null,
  request: FastifyRequest,
): Promise<void> {
  const clientId = before?.clientId ?? request.auth?.user.currentClientId ?? null;
  const stored = before && body.recipient_user_ids === undefined ? await storedRecipients(db, kind.recipients, before.id) : [];
  const errors = kind.problems(body, before, body.recipient_user_ids ?? stored);
  if (clientId !== null) {
    const own = kind.foreign ? await kind.foreign(db, clientId, body) : {};
    const shared = await foreignLocationsAndUsers(db, clientId, body, kind.definition.labels);
    for (const [field, messages] of [...Object.entries(own), ...Object.entries(shared)]) {
      errors[field] = [...(errors[field] ?? []), ...messages];
    }
  }
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, kind.definition.labels);
}
