import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { systemLogs } from '../db/schema/index.ts';

export type AuditEntry = {
  action: string;
  message: string;
  service?: string;
  level?: 'debug' | 'info' | 'warn' | 'error';
  clientId?: number | null;
  entityType?: string;
  entityId?: string | number;
  before?: unknown;
  after?: unknown;
  /** Actor when the request has no signed-in user yet (sign-in). */
  actorUserId?: number | null;
};

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Records who did what to which record. Pass the transaction of the write so the log row
     * commits (or rolls back) with it.
     */
    audit(entry: AuditEntry, tx?: Db): Promise<void>;
  }
}

export async function writeAudit(db: Db, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  await db.insert(systemLogs).values({
    level: entry.level ?? 'info',
    service: entry.service ?? 'api',
    action: entry.action,
    message: entry.message,
    actorUserId: entry.actorUserId ?? request.auth?.user.id ?? null,
    clientId: entry.clientId ?? null,
    entityType: entry.entityType ?? null,
    entityId: entry.entityId === undefined ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: request.id,
    ip: request.ip,
  });
}

export const auditPlugin = fp(
  async (app) => {
    app.decorateRequest('audit', function (this: FastifyRequest, entry: AuditEntry, tx?: Db) {
      return writeAudit(tx ?? app.db, this, entry);
    });
  },
  { name: 'audit', dependencies: ['db'] },
);
