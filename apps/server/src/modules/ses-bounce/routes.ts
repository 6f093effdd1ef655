import {
  dataEnvelope,
  emailSuppressionResource,
  emailSuppressionSchema,
  type ManualSuppression,
  manualSuppressionSchema,
  type ReleaseSuppression,
  releaseSuppressionSchema,
  SUPPRESSION_ACTION_LABELS,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailSuppressions } from '../../db/schema/index.ts';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { validated } from '../../kit/validated.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { countAddresses, findAddress, listPage } from './repository.ts';

const def = emailSuppressionResource;
const one = dataEnvelope(emailSuppressionSchema);
// A refused body names its fields as the dialogs label them (plugins/errors.ts).
const config = { labels: SUPPRESSION_ACTION_LABELS };

/**
 * SES Bounce (domain.md §25): the addresses of `email_suppressions` (kept by the SES ingest's
 * suppression policy), listed and exported by the kit's read-only routes; Release and Add manual
 * suppression are this module's, each audited in its own transaction.
 */
export const sesBounceRoutes: FastifyPluginAsyncZod = async (app) => {
  const now = () => app.clock.now();
  await app.register(
    readOnlyRoutes(def, {
      list: (db, q, limit) => listPage(db, q, limit, now()),
      count: countAddresses,
      exportAudit: { action: 'email_suppressions.export', message: 'Exported SES bounces as CSV' },
    }),
  );

  /**
   * Release from suppression (after fxa's `emails.clearBounces`): the sender may write to the
   * address again. The row and its counts stay, with who released it, when and why. An address
   * that is not suppressed is refused (409): there is nothing to release.
   */
  app.post(`${def.path}/release`, { config, schema: { body: releaseSuppressionSchema, response: { 200: one } } }, async (request) => {
    const { email, reason } = validated<ReleaseSuppression>(request.body);
    const at = now();
    await app.db.transaction(async (tx) => {
      const [before] = await tx.select().from(emailSuppressions).where(eq(emailSuppressions.email, email)).for('update');
      if (!before) throw notFound('Address');
      if (!before.suppressed) throw new HttpError(409, `${email} is not suppressed; there is nothing to release.`);
      await tx
        .update(emailSuppressions)
        .set({ suppressed: false, releasedAt: at, releasedBy: request.auth?.user.id ?? null, releaseReason: reason })
        .where(eq(emailSuppressions.email, email));
      await request.audit(
        {
          action: 'ses_bounce.release',
          message: `Released ${email} from suppression: ${reason}`,
          entityType: 'email_suppression',
          entityId: email,
          before: { suppressed: true, reason: before.reason },
          after: { suppressed: false, release_reason: reason },
        },
        tx,
      );
    });
    const found = await findAddress(app.db, email, at);
    if (!found) throw notFound('Address');
    return { data: found };
  });

  /**
   * Add manual suppression: the address (lower-cased) is suppressed with reason MANUAL, whether or
   * not it bounced before; its counts and release history are kept. 201 for a new address, 200
   * for one already listed.
   */
  app.post(def.path, { config, schema: { body: manualSuppressionSchema, response: { 200: one, 201: one } } }, async (request, reply) => {
    const { email, reason } = validated<ManualSuppression>(request.body);
    const note = reason === undefined || reason === '' ? null : reason;
    const at = now();
    const created = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(emailSuppressions)
        .values({ email, suppressed: true, reason: 'MANUAL', note, firstSeenAt: at, lastSeenAt: at, suppressedAt: at, createdAt: at })
        .onConflictDoUpdate({
          target: emailSuppressions.email,
          set: { suppressed: true, reason: 'MANUAL', note, lastSeenAt: at, suppressedAt: at },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      const inserted = row?.inserted === true;
      await request.audit(
        {
          action: 'ses_bounce.suppress',
          message: `Suppressed ${email} by hand${note ? `: ${note}` : ''}`,
          entityType: 'email_suppression',
          entityId: email,
          after: { suppressed: true, reason: 'MANUAL', note },
        },
        tx,
      );
      return inserted;
    });
    const found = await findAddress(app.db, email, at);
    if (!found) throw notFound('Address');
    return reply.code(created ? 201 : 200).send({ data: found });
  });
};
