import type { FeedField } from '../pipeline/enums.ts';

/** How Survey Platform names the values of a feed's closed lists and the fields a mapping fills (data-feeds.ts exports these too). */
export const FEED_SOURCE_TYPE_LABELS = { csv_upload: 'CSV upload', sftp: 'SFTP', api: 'API endpoint', webhook: 'Webhook' } as const;
export const FEED_TRIGGER_EVENT_LABELS = {
  invoice_paid: 'Invoice paid',
  job_completed: 'Job completed',
  appointment_completed: 'Appointment completed',
  ro_closed: 'Repair order closed',
  sale_delivered: 'Sale delivered',
  discharge: 'Discharge',
} as const;
export const FEED_LOCATION_MODE_LABELS = { single: 'One location', column: 'Location code column' } as const;
export const FEED_DELIMITER_LABELS = { comma: 'Comma (,)', pipe: 'Pipe (|)', tab: 'Tab' } as const;
export const FEED_DATE_FORMAT_LABELS = { 'yyyy-MM-dd': 'yyyy-MM-dd', 'MM/dd/yyyy': 'MM/dd/yyyy', 'dd/MM/yyyy': 'dd/MM/yyyy' } as const;
/** How the mapping editor and the row errors name each field. */
export const FEED_FIELD_LABELS: Record<FeedField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  transaction_id: 'Transaction id',
  transaction_date: 'Transaction date',
  location_code: 'Location code',
  personnel_code: 'Personnel code',
  product_code: 'Product code',
  referral_source: 'Referral source',
  amount: 'Amount',
  opt_in_sms: 'SMS opt-in',
};
export const FEED_RUN_STATUS_LABELS = { running: 'Running', succeeded: 'Succeeded', partial: 'Partial', failed: 'Failed' } as const;
