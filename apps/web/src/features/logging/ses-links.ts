/**
 * The jumps between the three message log screens (issue 22, item 4), as URLs their lists read:
 * Tracking Logs' search matches a provider message id whole (modules/tracking-logs/repository.ts),
 * SES Bounce's search an address, SES Logs' Recipient filter a whole address.
 */
export const trackingLogsLink = (messageId: string): string => `/admin/notifications/logs?q=${encodeURIComponent(messageId)}`;
export const sesBounceLink = (email: string): string => `/admin/ses/bounce?q=${encodeURIComponent(email)}`;
export const sesLogsLink = (email: string): string => `/admin/ses/logs?recipient=${encodeURIComponent(email)}`;
