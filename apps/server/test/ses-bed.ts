import { eq } from 'drizzle-orm';
import { clients, emailSuppressions, notificationLogs, sesEvents } from '../src/db/schema/index.ts';
import { bearer, type DbKind, login, startTestApp, type TestContext } from './helpers.ts';

/** Events on fixed days (2021-06-01..03), so the date filter and the totals are exact. */
export const DAY = '2021-06-0';
const DAY_MS = 86_400_000;

/** What an SES Logs / SES Bounce test works on: the app signed in as the admin, and its fixture's ids. */
export type SesWorld = {
  ctx: TestContext;
  headers: Record<string, string>;
  clientId: number;
  otherClientId: number;
  clientName: string;
  otherClientName: string;
  notificationId: number;
  bounceId: number;
};

type EventRow = typeof sesEvents.$inferInsert;
const event = (e: Omit<EventRow, 'source' | 'raw'> & Partial<EventRow>): EventRow => ({
  source: 'surveys@example.com',
  raw: { eventType: e.eventType, mail: { messageId: e.messageId, destination: [e.recipient] } },
  ...e,
});

/**
 * The demo app with SES events written straight into `ses_events` (the ingest is another module's):
 * a send and delivery to jane@ (client one, in Chicago, joined to its NotificationLog row), a hard
 * bounce from gone@ (client two), a complaint from angry@gmail.com (no client), and two soft
 * bounces from soft@, one yesterday and one 40 days ago; and their three `email_suppressions` rows
 * (the only events and addresses: the demo's are removed).
 */
export async function openSesWorld(kind: DbKind): Promise<SesWorld> {
  const ctx = await startTestApp(kind);
  const headers = bearer(await login(ctx.app, 'admin@example.com'));
  const db = ctx.database.db;
  const [first, second] = await db.select({ id: clients.id, name: clients.name }).from(clients).orderBy(clients.id).limit(2);
  if (!first || !second) throw new Error('the demo has two clients');
  await db.update(clients).set({ timezone: 'America/Chicago' }).where(eq(clients.id, first.id));

  const sent = await ctx.app.messenger.send({
    channel: 'email',
    type: 'survey_invite',
    to: 'jane@example.com',
    subject: 'How did we do?',
    text: 'x',
    clientId: first.id,
  });
  await db.update(notificationLogs).set({ providerMessageId: 'msg-1' }).where(eq(notificationLogs.id, sent.id));

  const now = Date.now();
  // The demo's own events (and suppressed addresses, below) are left out, so lists and totals are this fixture's.
  await db.delete(sesEvents);
  const rows = await db
    .insert(sesEvents)
    .values([
      event({
        messageId: 'msg-1',
        eventType: 'Send',
        recipient: 'jane@example.com',
        subject: 'How did we do?',
        eventAt: new Date(`${DAY}1T10:00:00Z`),
        clientId: first.id,
        notificationId: sent.id,
        configurationSet: 'surveys',
      }),
      event({
        messageId: 'msg-1',
        eventType: 'Delivery',
        recipient: 'jane@example.com',
        subject: 'How did we do?',
        eventAt: new Date(`${DAY}1T10:01:00Z`),
        clientId: first.id,
        notificationId: sent.id,
        diagnosticCode: '250 2.6.0 Message received',
        reportingMta: 'a1.example.com',
      }),
      event({
        messageId: 'msg-2',
        eventType: 'Bounce',
        recipient: 'gone@example.com',
        subject: 'New review',
        eventAt: new Date(`${DAY}2T10:00:00Z`),
        clientId: second.id,
        bounceType: 'Permanent',
        bounceSubtype: 'NoEmail',
        diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        reportingMta: 'dsn; a2.example.com',
      }),
      event({
        messageId: 'msg-3',
        eventType: 'Complaint',
        recipient: 'angry@gmail.com',
        subject: 'Weekly report',
        eventAt: new Date(`${DAY}3T10:00:00Z`),
        complaintFeedbackType: 'abuse',
      }),
      event({
        messageId: 'msg-4',
        eventType: 'Bounce',
        recipient: 'soft@example.com',
        eventAt: new Date(now - DAY_MS),
        clientId: second.id,
        bounceType: 'Transient',
        bounceSubtype: 'MailboxFull',
      }),
      event({
        messageId: 'msg-5',
        eventType: 'Bounce',
        recipient: 'soft@example.com',
        eventAt: new Date(now - 40 * DAY_MS),
        clientId: first.id,
        bounceType: 'Transient',
        bounceSubtype: 'MailboxFull',
      }),
    ])
    .returning({ id: sesEvents.id, messageId: sesEvents.messageId });

  await db.delete(emailSuppressions);
  await db.insert(emailSuppressions).values([
    {
      email: 'gone@example.com',
      reason: 'BOUNCE',
      lastBounceType: 'Permanent',
      lastBounceSubtype: 'NoEmail',
      lastDiagnosticCode: 'smtp; 550 5.1.1 user unknown',
      bounceCount: 1,
      lastTemplate: 'New review',
      clientIds: [second.id],
      firstSeenAt: new Date(`${DAY}2T10:00:00Z`),
      lastSeenAt: new Date(`${DAY}2T10:00:00Z`),
      suppressedAt: new Date(`${DAY}2T10:00:00Z`),
    },
    {
      email: 'angry@gmail.com',
      reason: 'COMPLAINT',
      complaintCount: 1,
      lastTemplate: 'Weekly report',
      firstSeenAt: new Date(`${DAY}3T10:00:00Z`),
      lastSeenAt: new Date(`${DAY}3T10:00:00Z`),
      suppressedAt: new Date(`${DAY}3T10:00:00Z`),
    },
    {
      email: 'soft@example.com',
      suppressed: false,
      reason: 'BOUNCE',
      lastBounceType: 'Transient',
      lastBounceSubtype: 'MailboxFull',
      bounceCount: 2,
      clientIds: [first.id, second.id],
      firstSeenAt: new Date(now - 40 * DAY_MS),
      lastSeenAt: new Date(now - DAY_MS),
    },
  ]);
  const bounceId = rows.find((r) => r.messageId === 'msg-2')?.id ?? 0;
  return {
    ctx,
    headers,
    clientId: first.id,
    otherClientId: second.id,
    clientName: first.name,
    otherClientName: second.name,
    notificationId: sent.id,
    bounceId,
  };
}
