import { canTransition, STATUS_LABELS, STATUSES, type Status, UPDATED_AT_LABEL } from '@admin/shared';
import { fieldsRefused, HttpError } from '../lib/http-error.ts';

const isStatus = (s: string): s is Status => (STATUSES as readonly string[]).includes(s);

/** 409 unless the move is one of the status moves (docs/overview.md, Shared vocabulary). */
export function assertTransition(from: string, to: Status, what: string): void {
  if (!isStatus(from) || !canTransition(from, to)) {
    const fromLabel = isStatus(from) ? STATUS_LABELS[from] : from;
    throw new HttpError(409, `${what} is ${fromLabel}; it cannot be made ${STATUS_LABELS[to]}.`, {
      status: [`A ${fromLabel} record cannot be made ${STATUS_LABELS[to]}`],
    });
  }
}

/**
 * Optimistic concurrency: `seen` is the `updated_at` the editor loaded. If the record changed
 * since, the write would overwrite someone else's change, so it is refused with 409.
 */
export function assertFresh(current: Date, seen: string | undefined, what: string): void {
  if (seen === undefined) return;
  const seenTime = new Date(seen).getTime();
  // Not a time at all is bad input (422), not a stale write (409).
  if (!/^\d{4}-\d{2}-\d{2}T/.test(seen) || Number.isNaN(seenTime)) {
    // No form shows the stamp (only an API caller can send a malformed one); it is still named by
    // a label, like every field in a message.
    throw fieldsRefused(
      { updated_at: [`The ${UPDATED_AT_LABEL} field must be the record's time stamp as loaded, e.g. 2026-11-22T10:00:00.000Z`] },
      { updated_at: UPDATED_AT_LABEL },
    );
  }
  if (seenTime !== current.getTime()) {
    throw new HttpError(409, `${what} was changed by someone else since you opened it. Reload it and try again.`, {
      updated_at: ['The record has changed since it was loaded'],
    });
  }
}
