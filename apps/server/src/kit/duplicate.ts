import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';

/** Names are at most this long in every resource that has a Duplicate action. */
const NAME_MAX = 120;
const SUFFIX = ' (copy)';

/** A copy's name: the source's with " (copy)", cut so that the whole stays within the name limit. */
export const copyName = (name: string): string => `${name.slice(0, NAME_MAX - SUFFIX.length)}${SUFFIX}`;

/**
 * The audit entry of a Duplicate action, in the copy's transaction: the copy as answered and the
 * id it came from, filed under the copy's client. `forWhom` names another client the copy was
 * made for (" for Lakeside Honda").
 */
export function auditDuplicate(
  request: FastifyRequest,
  tx: Db,
  entry: {
    entityType: string;
    /** How the message names the kind of record ("SMS template", "survey"). */
    what: string;
    source: { id: number; name: string };
    copy: { id: number; name: string; clientId: number | null };
    record: object;
    forWhom?: string;
  },
): Promise<void> {
  const { entityType, what, source, copy, record, forWhom } = entry;
  return request.audit(
    {
      action: `${entityType}.duplicate`,
      message: `Duplicated ${what} ${source.name} as ${copy.name}${forWhom ? ` for ${forWhom}` : ''}`,
      clientId: copy.clientId,
      entityType,
      entityId: copy.id,
      after: { ...record, source_id: source.id },
    },
    tx,
  );
}
