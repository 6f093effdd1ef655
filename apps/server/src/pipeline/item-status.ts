import type { ProcessingItemStatus } from '@admin/shared';
import type { SendResult } from '../messaging/send.ts';

/** An invitation's status from how its message ended (the send engine, Send test and the demo seed). */
export function itemStatusOf(result: SendResult): ProcessingItemStatus {
  if (result.status === 'sent') return 'sent';
  if (result.status === 'suppressed') return result.error?.includes('suppression list') ? 'skipped_suppressed' : 'skipped_opt_out';
  return 'failed';
}
