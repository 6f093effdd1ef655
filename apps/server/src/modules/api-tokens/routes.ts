import {
  API_TOKEN_REGENERATE_LABELS,
  type ApiTokenCreate,
  type ApiTokenUpdate,
  apiTokenCreatedSchema,
  apiTokenRegenerateSchema,
  apiTokenResource,
  apiTokenSchema,
  apiTokenUpdateSchema,
  apiTokenUserSchema,
  dataEnvelope,
  idParamSchema,
  parseExpiry,
  TOKEN_HOLDER_RULE,
} from '@admin/shared';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { apiTokens, endpointConfigs } from '../../db/schema/index.ts';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { assertFresh, versionRequired } from '../../kit/status.ts';
import { validateFields } from '../../kit/validate-body.ts';
import { validated } from '../../kit/validated.ts';
import { fieldsRefused, HttpError, notFound } from '../../lib/http-error.ts';
import { tokenRight } from './holder.ts';
import { audited, dropBoundSecrets, generateFor, holderUser, issue, liveTokenOf, lockToken } from './issue.ts';
import { countUsers, findUserRow, listUsers } from './repository.ts';

const today = (now: Date) => now.toISOString().slice(0, 10);

/** The expiry as stored, or 422 naming the field as the form labels it. */
function expiryOf(value: string | null | undefined, now: Date): Date | null {
  const parsed = parseExpiry(value, today(now));
  if (!parsed.ok) throw fieldsRefused({ expires_at: [parsed.message] }, apiTokenResource.labels);
  return parsed.at;
}

/**
 * A regenerated token's expiry when none is asked for: the old token's, so a rotation changes no
 * date without a word (a token made to never expire stays so). One already passed (often why a
 * token is regenerated) is not silently replaced by a default: the caller is asked for one (422).
 */
function keptExpiry(old: Date | null, now: Date): Date | null {
  if (old === null || old > now) return old;
  const label = API_TOKEN_REGENERATE_LABELS.expires_at;
  throw fieldsRefused(
    { expires_at: [`The ${label} field is required: the current token expired on ${today(old)}; choose the new token's`] },
    API_TOKEN_REGENERATE_LABELS,
  );
}

/**
 * The form's field rules and its expiry together (`partial`: only the fields sent, an edit's), so
 * one 422 names every refused field; answers the expiry to store (undefined: none sent in an edit).
 */
async function checkFields(body: Record<string, unknown> & { expires_at?: string | null }, now: Date, partial: boolean) {
  const errors: Record<string, string[]> = {};
  const rules = partial ? { name: apiTokenResource.rules.name ?? 'required' } : apiTokenResource.rules;
  await validateFields(body, rules, { partial, names: apiTokenResource.labels }).catch((e: unknown) => {
    if (!(e instanceof HttpError && e.errors)) throw e;
    Object.assign(errors, e.errors);
  });
  const sent = !partial || body.expires_at !== undefined;
  const parsed = sent ? parseExpiry(body.expires_at, today(now)) : undefined;
  if (parsed && !parsed.ok) errors.expires_at = [parsed.message];
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, apiTokenResource.labels);
  return parsed?.ok ? parsed.at : undefined;
}

/**
 * API Token Generation (collection `/api/api-token`, the spec's call): the users with their newest
 * token (list and export, no secrets), then Generate, Edit, Regenerate and Revoke. The plaintext of
 * a token exists only in the 201 that made it; every action is audited without it.
 */
export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const now = () => app.clock.now();
  await app.register(
    readOnlyRoutes(apiTokenResource, {
      list: (db, q, limit) => listUsers(db, q, limit, now(), app.apiTokens.retiredMasterEmail),
      count: (db, q) => countUsers(db, q),
      // One user's row (a user's id, as the list's rows): what an edit of their token starts from.
      detail: {
        schema: apiTokenUserSchema,
        find: (db, id) => findUserRow(db, id, now(), app.apiTokens.retiredMasterEmail),
        what: 'User',
      },
      exportAudit: { action: 'api_token.export', message: 'Exported API tokens (metadata, no secrets)' },
    }),
  );

  const path = apiTokenResource.path;
  // Routes with a body carry the form's labels, so the input guard names refused fields by them (plugins/input-guard.ts).
  const config = { labels: apiTokenResource.labels };
  const created = dataEnvelope(apiTokenCreatedSchema);
  const one = dataEnvelope(apiTokenSchema);

  app.post(path, { config, schema: { body: apiTokenResource.createSchema, response: { 201: created } } }, async (request, reply) => {
    const body = { ...apiTokenResource.defaults, ...validated<ApiTokenCreate>(request.body) };
    const at = now();
    const expiresAt = (await checkFields(body, at, false)) ?? null;
    const { user, clientId } = await generateFor(app.db, body.user_id ?? 0, app.apiTokens.retiredMasterEmail, apiTokenResource.labels);
    const result = await app.db.transaction(async (tx) => {
      const live = await liveTokenOf(tx, user.id, at);
      if (live) {
        throw new HttpError(409, `${user.name} already has a token (${live.name}); regenerate or revoke it.`, {
          user_id: ['The User already has a token'],
        });
      }
      const name = (body.name ?? '').trim();
      return issue(
        tx,
        request,
        {
          userId: user.id,
          name,
          scopes: body.scopes ?? ['feeds:write'],
          allowedIps: body.allowed_ips ?? [],
          expiresAt,
          replacesId: null,
          clientId,
          action: 'create',
          message: `Generated API token ${name} for ${user.name}`,
        },
        user.name,
      );
    });
    return reply.code(201).send({ data: result });
  });

  app.patch(
    `${path}/:id`,
    { config, schema: { params: idParamSchema, body: apiTokenUpdateSchema, response: { 200: one } } },
    async (request) => {
      const changes = validated<ApiTokenUpdate>(request.body);
      // The version edited comes first: without it nothing else is worth checking (kit/status.ts).
      if (changes.updated_at === undefined) throw versionRequired();
      const at = now();
      const expiresAt = await checkFields(changes, at, true);
      const id = validated<z.infer<typeof idParamSchema>>(request.params).id;
      const updated = await app.db.transaction(async (tx) => {
        const before = await lockToken(tx, id);
        assertFresh(before.updatedAt, changes.updated_at, `API token ${before.name}`);
        const [row] = await tx
          .update(apiTokens)
          .set({
            ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
            ...(changes.scopes !== undefined ? { scopes: changes.scopes } : {}),
            ...(changes.allowed_ips !== undefined ? { allowedIps: changes.allowed_ips } : {}),
            ...(expiresAt !== undefined ? { expiresAt } : {}),
            updatedAt: at,
          })
          .where(eq(apiTokens.id, id))
          .returning();
        if (!row) throw notFound('API token');
        return audited(request, tx, 'update', before, row, at);
      });
      return { data: updated };
    },
  );

  app.post(
    `${path}/:id/regenerate`,
    {
      config: { labels: API_TOKEN_REGENERATE_LABELS },
      schema: { params: idParamSchema, body: apiTokenRegenerateSchema, response: { 201: created } },
    },
    async (request, reply) => {
      const body = validated<z.infer<typeof apiTokenRegenerateSchema>>(request.body);
      const id = validated<z.infer<typeof idParamSchema>>(request.params).id;
      const at = now();
      const grace = body.grace_hours;
      // A blank expiry is none asked for (the dialog's box left empty), as left out.
      const asked = (body.expires_at ?? '').trim() === '' ? undefined : expiryOf(body.expires_at, at);
      const result = await app.db.transaction(async (tx) => {
        const old = await lockToken(tx, id);
        if (old.revokedAt) throw new HttpError(409, `API token ${old.name} is revoked; generate a new one.`);
        // The user must still be allowed to hold it (else: revoke it; a user moved to another client gets a new one).
        const holder = await holderUser(tx, old.userId, app.apiTokens.retiredMasterEmail);
        const right = holder ? tokenRight(holder.holder, old.clientId) : null;
        if (!holder || !right) {
          throw new HttpError(409, `The user of API token ${old.name} may no longer hold it. ${TOKEN_HOLDER_RULE}; revoke it.`);
        }
        const expiresAt = asked !== undefined ? asked : keptExpiry(old.expiresAt, at);
        const until = new Date(at.getTime() + grace * 3_600_000);
        await tx.update(apiTokens).set({ revokedAt: until, updatedAt: at }).where(eq(apiTokens.id, old.id));
        const fresh = await issue(
          tx,
          request,
          {
            userId: old.userId,
            name: old.name,
            scopes: old.scopes,
            allowedIps: old.allowedIps,
            expiresAt,
            replacesId: old.id,
            clientId: right.clientId,
            action: 'regenerate',
            message: `Regenerated API token ${old.name}; the old one works until ${until.toISOString()}`,
          },
          holder.user.name,
        );
        // Endpoints linked to the old token take the new one (the old still works through its grace).
        await tx.update(endpointConfigs).set({ tokenId: fresh.id, updatedAt: at }).where(eq(endpointConfigs.tokenId, old.id));
        return fresh;
      });
      return reply.code(201).send({ data: result });
    },
  );

  app.post(`${path}/:id/revoke`, { schema: { params: idParamSchema, response: { 200: one } } }, async (request) => {
    const id = validated<z.infer<typeof idParamSchema>>(request.params).id;
    const at = now();
    const revoked = await app.db.transaction(async (tx) => {
      const before = await lockToken(tx, id);
      const [row] = await tx.update(apiTokens).set({ revokedAt: at, updatedAt: at }).where(eq(apiTokens.id, id)).returning();
      if (!row) throw notFound('API token');
      // A token it replaced may still be in its grace period: that ends now too.
      if (row.replacesId !== null) {
        await tx
          .update(apiTokens)
          .set({ revokedAt: at, updatedAt: at })
          .where(and(eq(apiTokens.id, row.replacesId), or(isNull(apiTokens.revokedAt), gt(apiTokens.revokedAt, at))));
      }
      await dropBoundSecrets(tx, row.id, at);
      return audited(request, tx, 'revoke', before, row, at);
    });
    return { data: revoked };
  });
};
