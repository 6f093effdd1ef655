/** Where the SMS provider calls us; the http transport asks for status callbacks at the first (messaging/transports.ts). */
export const SMS_STATUS_PATH = '/api/v1/sms/status';
export const SMS_INBOUND_PATH = '/api/v1/sms/inbound';
