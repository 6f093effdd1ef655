import { TOKEN_HOLDER_RULE } from '@admin/shared';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { apiTokens, endpointConfigs, users } from '../../db/schema/index.ts';
import { fieldsRefused, HttpError, notFound } from '../../lib/http-error.ts';
import { holderOf, soleClientOf } from './holder.ts';
import { type ApiTokenRow, toApiToken } from './record.ts';
import { newApiToken, storedParts } from './token.ts';

/** A user and whether they may hold a token (TOKEN_HOLDER_RULE); undefined when there is no such user. */
export async function holderUser(db: Db, userId: number, retiredMasterEmail: string) {
  const [row] = await db
    .select({ user: users, soleClient: soleClientOf(users.id) })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ? { user: row.user, holder: holderOf(row.user, row.soleClient, retiredMasterEmail) } : undefined;
}

/** Generate's user: one who may hold a token, with the client it will feed (null: any), or 422 naming the User field. */
export async function generateFor(db: Db, userId: number, retiredMasterEmail: string, labels: Readonly<Record<string, string>>) {
  const found = await holderUser(db, userId, retiredMasterEmail);
  if (!found) throw fieldsRefused({ user_id: ['The User does not exist'] }, labels);
  if (!found.holder.allowed) throw fieldsRefused({ user_id: [`The User may not hold a token. ${TOKEN_HOLDER_RULE}.`] }, labels);
  return { user: found.user, clientId: found.holder.clientId };
}

/** A user's token that is neither revoked nor past its grace (the unique index allows one unrevoked token per user). */
export async function liveTokenOf(tx: Db, userId: number, at: Date): Promise<ApiTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), or(isNull(apiTokens.revokedAt), gt(apiTokens.revokedAt, at))))
    .orderBy(apiTokens.id)
    .limit(1);
  return row;
}

/** Audits an edit or a revoke (before and after, never a secret) and answers the token as it now is. */
export async function audited(
  request: FastifyRequest,
  tx: Db,
  action: 'update' | 'revoke',
  before: ApiTokenRow,
  row: ApiTokenRow,
  at: Date,
) {
  const after = toApiToken(row, at);
  await request.audit(
    {
      action: `api_token.${action}`,
      message: `${action === 'update' ? 'Updated' : 'Revoked'} API token ${row.name}`,
      clientId: row.clientId,
      entityType: 'api_token',
      entityId: row.id,
      before: toApiToken(before, at),
      after,
    },
    tx,
  );
  return after;
}

export async function lockToken(tx: Db, id: number): Promise<ApiTokenRow> {
  const [row] = await tx.select().from(apiTokens).where(eq(apiTokens.id, id)).for('update');
  if (!row) throw notFound('API token');
  return row;
}

/**
 * Revoking a token ends the webhook secrets of the endpoints bound to it (decision 032): the
 * secret spoke for that token, and must not come back to life if the endpoint is later unbound.
 */
export async function dropBoundSecrets(tx: Db, tokenId: number, at: Date): Promise<void> {
  await tx
    .update(endpointConfigs)
    .set({ webhookSecretHash: null, updatedAt: at })
    .where(and(eq(endpointConfigs.tokenId, tokenId), sql`${endpointConfigs.webhookSecretHash} is not null`));
}

type Issue = {
  userId: number;
  name: string;
  scopes: ApiTokenRow['scopes'];
  allowedIps: string[];
  expiresAt: Date | null;
  replacesId: number | null;
  /** The one client the token may feed; null for a super-admin's token. */
  clientId: number | null;
  action: 'create' | 'regenerate';
  message: string;
};

/**
 * Makes a token, stores only its hash, prefix and last 4, audits it, and answers the plaintext
 * once. The insert yields to the partial unique index (one unrevoked token per user): when a
 * parallel Generate won, it inserts nothing and the caller is told so (409), never a second token.
 */
export async function issue(tx: Db, request: FastifyRequest, what: Issue, userName: string) {
  const token = newApiToken();
  const at = request.server.clock.now();
  const [row] = await tx
    .insert(apiTokens)
    .values({
      userId: what.userId,
      clientId: what.clientId,
      name: what.name,
      ...storedParts(token),
      scopes: what.scopes,
      allowedIps: what.allowedIps,
      expiresAt: what.expiresAt,
      createdBy: request.auth?.user.id ?? null,
      replacesId: what.replacesId,
    })
    .onConflictDoNothing({ target: apiTokens.userId, where: sql`revoked_at is null` })
    .returning();
  if (!row) {
    throw new HttpError(409, `${userName} already has a token; regenerate or revoke it.`, { user_id: ['The User already has a token'] });
  }
  // The legacy users.api_token column keeps the hash only (domain: API Token Generation).
  await tx.update(users).set({ apiToken: row.tokenHash }).where(eq(users.id, what.userId));
  const record = toApiToken(row, at);
  await request.audit(
    {
      action: `api_token.${what.action}`,
      message: what.message,
      clientId: what.clientId,
      entityType: 'api_token',
      entityId: row.id,
      after: record,
    },
    tx,
  );
  return { ...record, token };
}
