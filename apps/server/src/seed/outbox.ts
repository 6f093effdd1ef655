import type { MessagingConfig } from '../config.ts';

/** The outbox whatever the configuration: demo invitations go to made-up addresses. */
export const demoOutbox = (publicBaseUrl: string): MessagingConfig => ({
  publicBaseUrl,
  email: { transport: 'outbox' },
  emailFrom: 'Demo <demo@example.com>',
  sms: { transport: 'outbox' },
  smsFrom: '',
});
