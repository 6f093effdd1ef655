import { count, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { emailSuppressions, notificationEvents, notificationLogs, sesEvents, systemLogs } from '../src/db/schema/index.ts';
import type { SnsEnvelope } from '../src/deliverability/ses/sns.ts';
import { type DbKind, openTestDatabase } from './helpers.ts';
import { type SnsSigner, snsSigner, TEST_TOPIC_ARN } from './sns-signer.ts';

/** The app with one accepted topic, the test signer's certificate injected, and SubscribeURL calls recorded. */
export type SesEventsBed = {
  app: FastifyInstance;
  database: Database;
  signer: SnsSigner;
  confirmed: string[];
  post(body: SnsEnvelope | string | object, contentType?: string): Promise<LightMyRequestResponse>;
  counts(): Promise<{ events: number; suppressions: number; timeline: number; refusals: number }>;
  /** A sent e-mail's NotificationLog row with this provider message id. */
  message(providerMessageId: string, to: string, clientId?: number | null): Promise<number>;
  statusOf(id: number): Promise<string | undefined>;
  suppression(email: string): Promise<typeof emailSuppressions.$inferSelect | undefined>;
  close(): Promise<void>;
};

export async function openSesEventsBed(kind: DbKind): Promise<SesEventsBed> {
  const database = await openTestDatabase(kind);
  const signer = snsSigner();
  const confirmed: string[] = [];
  const app = await buildApp(testConfig({ sesSnsTopicArns: [TEST_TOPIC_ARN] }), {
    database,
    snsCertificate: signer.fetcher,
    snsConfirm: async (url) => {
      confirmed.push(url);
      return '<ConfirmSubscriptionResponse/>';
    },
  });
  await app.ready();
  const db = database.db;
  const total = async (table: typeof sesEvents | typeof emailSuppressions | typeof notificationEvents) =>
    (await db.select({ n: count() }).from(table))[0]?.n ?? 0;
  return {
    app,
    database,
    signer,
    confirmed,
    post: (body, contentType = 'text/plain; charset=UTF-8') =>
      app.inject({
        method: 'POST',
        url: '/api/v1/ses/events',
        headers: { 'content-type': contentType, 'x-amz-sns-message-type': 'Notification' },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    counts: async () => ({
      events: await total(sesEvents),
      suppressions: await total(emailSuppressions),
      timeline: await total(notificationEvents),
      refusals: (await db.select({ n: count() }).from(systemLogs).where(eq(systemLogs.action, 'ses.refused')))[0]?.n ?? 0,
    }),
    message: async (providerMessageId, to, clientId = null) => {
      const [row] = await db
        .insert(notificationLogs)
        .values({
          channel: 'email',
          type: 'survey_invite',
          recipient: to,
          subjectOrTemplate: 'How did we do?',
          providerMessageId,
          status: 'sent',
          clientId,
        })
        .returning({ id: notificationLogs.id });
      if (!row) throw new Error('no row');
      return row.id;
    },
    statusOf: async (id) =>
      (await db.select({ s: notificationLogs.status }).from(notificationLogs).where(eq(notificationLogs.id, id)))[0]?.s,
    suppression: async (email) => (await db.select().from(emailSuppressions).where(eq(emailSuppressions.email, email)))[0],
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** SES event publishing's shapes (reference-second-half.md A3), trimmed to what matters plus an unknown field. */
export const ses = {
  mail: (messageId: string, to: string, at: string) => ({
    timestamp: at,
    messageId,
    source: 'Surveys <surveys@example.com>',
    destination: [to],
    commonHeaders: { subject: 'How did we do?' },
    tags: { 'ses:configuration-set': ['surveys'] },
  }),
  bounce: (messageId: string, to: string, at: string, bounceType: string, bounceSubType: string) => ({
    eventType: 'Bounce',
    somethingNew: { added: 'later by AWS' },
    mail: ses.mail(messageId, to, at),
    bounce: {
      bounceType,
      bounceSubType,
      timestamp: at,
      feedbackId: `fb-${messageId}`,
      reportingMTA: 'dns; a1.amazonses.com',
      bouncedRecipients: [{ emailAddress: to, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    },
  }),
  complaint: (messageId: string, to: string, at: string, complaintSubType: string | null = null) => ({
    notificationType: 'Complaint',
    mail: ses.mail(messageId, to, at),
    complaint: { timestamp: at, complainedRecipients: [{ emailAddress: to }], complaintFeedbackType: 'abuse', complaintSubType },
  }),
  simple: (eventType: 'Delivery' | 'Open' | 'Click' | 'Send', messageId: string, to: string, at: string) => ({
    eventType,
    mail: ses.mail(messageId, to, at),
    ...(eventType === 'Delivery' ? { delivery: { timestamp: at, recipients: [to], smtpResponse: '250 ok' } } : {}),
    ...(eventType === 'Open' ? { open: { timestamp: at, userAgent: 'x' } } : {}),
    ...(eventType === 'Click' ? { click: { timestamp: at, link: 'https://example.com' } } : {}),
  }),
};
