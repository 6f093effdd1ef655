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

/** The 422 of an edit that does not say which version of the record it changes. */
export function versionRequired(): HttpError {
  return fieldsRefused(
    {
      updated_at: [
        `The ${UPDATED_AT_LABEL} field is required: send the record's updated_at as loaded, so that a change made since is not overwritten`,
      ],
    },
    { updated_at: UPDATED_AT_LABEL },
  );
}

/**
 * Optimistic concurrency: `seen` is the `updated_at` the editor loaded. Every edit of a versioned
 * record carries it, so a write never overwrites a change its author did not see: absent or not a
 * time stamp is 422 (bad input, named by its label), a real but older one is 409.
 *
 * Writes that may skip it, and why (docs/decisions/033-versions-ids-and-raw-bytes.md):
 * - creates and copies: there is no version yet;
 * - actions that move a record from one state to another and write only if it is still in the
 *   state they start from, else 409 (Survey Processing's reschedule, cancel, send now, retry, fix
 *   contact): the state is the version they check;
 * - actions that set one value the user chose in full and audit its before and after, where the
 *   last choice is the one meant (Survey Manager's exclude/include and reassign);
 * - the signed-in user's own state (column preferences, the current client): no one else writes it.
 */
export function assertFresh(current: Date, seen: string | undefined, what: string): void {
  if (seen === undefined) throw versionRequired();
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
