/**
 * The suppression policy (domain.md §25), as code in one place; docs/decisions/059-ses-events-and-suppression.md.
 * - Permanent bounce: suppressed at once (BOUNCE).
 * - Complaint: suppressed at once (COMPLAINT).
 * - Transient bounce: suppressed at the third counted one within 30 days (BOUNCE). A Transient
 *   General bounce is often an auto-reply, so it is not counted.
 * - OnAccountSuppressionList (a bounce subtype or a complaint's subtype): SES already suppresses
 *   the address account-wide; we mirror it.
 * - Undetermined bounces and every other event: counted where they are bounces, never suppressing.
 */

export const TRANSIENT_LIMIT = 3;
export const TRANSIENT_WINDOW_DAYS = 30;
export const ACCOUNT_SUPPRESSION_LIST = 'OnAccountSuppressionList';

export type SuppressionReason = 'BOUNCE' | 'COMPLAINT';

export type PolicyEvent = {
  eventType: string;
  bounceType: string | null;
  bounceSubtype: string | null;
  complaintSubtype: string | null;
};

/** Whether a bounce counts toward the transient rule (Transient, not General). */
export function countsAsTransient(e: Pick<PolicyEvent, 'eventType' | 'bounceType' | 'bounceSubtype'>): boolean {
  return e.eventType === 'Bounce' && e.bounceType === 'Transient' && e.bounceSubtype !== 'General';
}

const WINDOW_MS = TRANSIENT_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/**
 * Whether some 30-day span holds three counted transient bounces. `times` are the counted ones
 * within 30 days either side of the event being ingested (it included): events arrive out of order,
 * so the third of a burst may be the earliest to arrive, not the latest.
 */
export function transientBurst(times: readonly Date[]): boolean {
  const sorted = times.map((t) => t.getTime()).sort((a, b) => a - b);
  for (let i = 0; i + TRANSIENT_LIMIT - 1 < sorted.length; i++) {
    if ((sorted[i + TRANSIENT_LIMIT - 1] ?? Number.POSITIVE_INFINITY) - (sorted[i] ?? 0) <= WINDOW_MS) return true;
  }
  return false;
}

/** Why the event suppresses its address, or null; `burst` is `transientBurst` of the address's counted transients. */
export function suppressionFor(e: PolicyEvent, burst: boolean): SuppressionReason | null {
  if (e.eventType === 'Complaint') return 'COMPLAINT';
  if (e.eventType !== 'Bounce') return null;
  if (e.bounceType === 'Permanent' || e.bounceSubtype === ACCOUNT_SUPPRESSION_LIST) return 'BOUNCE';
  if (countsAsTransient(e) && burst) return 'BOUNCE';
  return null;
}

/** A line for the message's timeline naming what the event says, in words. */
export function eventDetail(
  e: PolicyEvent & { diagnosticCode: string | null; complaintFeedbackType: string | null },
  reason: SuppressionReason | null,
): string {
  const suppressed = reason ? '; the address is now suppressed' : '';
  const diagnostic = e.diagnosticCode ? `: ${e.diagnosticCode}` : '';
  switch (e.eventType) {
    case 'Bounce':
      return `SES reported a ${e.bounceType ?? 'Undetermined'} bounce (${e.bounceSubtype ?? 'no subtype'})${diagnostic}${suppressed}`.slice(
        0,
        2000,
      );
    case 'Complaint':
      return `The recipient marked the message as spam${e.complaintFeedbackType ? ` (${e.complaintFeedbackType})` : ''}${suppressed}`;
    case 'Delivery':
      return `Delivered to the recipient's mail server${diagnostic}`.slice(0, 2000);
    case 'DeliveryDelay':
      return `SES delayed the delivery${diagnostic}`.slice(0, 2000);
    case 'Send':
      return 'SES accepted the message for sending';
    case 'Open':
      return 'The recipient opened the message';
    case 'Click':
      return 'The recipient clicked a link in the message';
    case 'Reject':
      return `SES rejected the message${diagnostic}`.slice(0, 2000);
    case 'RenderingFailure':
      return `SES could not render the template${diagnostic}`.slice(0, 2000);
    default:
      return `SES reported ${e.eventType}`;
  }
}
