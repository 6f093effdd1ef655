import type { SendResult } from '../messaging/send.ts';

/** After the n-th failed attempt, the wait before the next (domain.md §6): 5 min, 30 min, 2 h, 12 h, then unsent. */
export const RETRY_DELAYS_MS = [5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;

/** How a send ended for an alert: delivered, a reason it never will be, or a failure worth retrying. */
export type Outcome = { kind: 'sent' } | { kind: 'permanent'; reason: string } | { kind: 'transient'; reason: string };

/**
 * The messenger's refusals and the provider's errors (apps/server/src/messaging/send.ts words them)
 * as domain.md §6's reasons. An SMTP 5xx or an SES rejection is final; anything else the provider
 * answers (4xx, timeouts, connection errors) is `provider_error`, retried.
 */
export function outcomeOf(result: SendResult): Outcome {
  if (result.status === 'sent') return { kind: 'sent' };
  const error = result.error ?? '';
  if (result.status === 'suppressed') {
    if (error.startsWith('The address is on the suppression list')) return { kind: 'permanent', reason: 'ses_suppressed' };
    if (error.startsWith('The phone opted out')) return { kind: 'permanent', reason: 'sms_opted_out' };
    return { kind: 'permanent', reason: 'recipient_unsubscribed' };
  }
  if (error.startsWith('Not a phone number')) return { kind: 'permanent', reason: 'sms_invalid_number' };
  if (error.startsWith('Not a valid e-mail address')) return { kind: 'permanent', reason: 'ses_rejected' };
  if (/MailFromDomainNotVerified|ConfigurationSet|AccountSendingPaused/.test(error))
    return { kind: 'permanent', reason: 'ses_config_error' };
  if (/MessageRejected|^5\d\d[ -]/.test(error)) return { kind: 'permanent', reason: 'ses_rejected' };
  if (/^21211|invalid.*(number|phone)|not a valid phone/i.test(error)) return { kind: 'permanent', reason: 'sms_invalid_number' };
  return { kind: 'transient', reason: 'provider_error' };
}

/** When the next attempt goes after `attempts` failed ones, or null when retries are spent. */
export function nextRetryAt(attempts: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}
