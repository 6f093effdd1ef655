import type { NotificationLog } from '@admin/shared';
import { eq } from 'drizzle-orm';
import { clients, emailSuppressions, locations } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { bearer, type DbKind, login, startTestApp, type TestContext } from './helpers.ts';

export type Page = { data: NotificationLog[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };

/** Messages on fixed days (2021-06-01..03), so the date filter and the totals are exact. */
export const DAY = '2021-06-0';

/** What a Tracking Logs test works on: the app signed in as the admin and the ids of its four messages' world. */
export type TrackingWorld = {
  ctx: TestContext;
  headers: Record<string, string>;
  clientId: number;
  otherClientId: number;
  locationId: string;
  inviteId: number;
};

/** The demo app with four messages sent on {DAY}1..3: an invitation, a reminder, an alert to a suppressed address and a system SMS. */
export async function openTrackingWorld(kind: DbKind): Promise<TrackingWorld> {
  const ctx = await startTestApp(kind);
  const headers = bearer(await login(ctx.app, 'admin@example.com'));
  const db = ctx.database.db;
  const [first, second] = await db.select({ id: clients.id }).from(clients).orderBy(clients.id).limit(2);
  const clientId = first?.id ?? 0;
  const otherClientId = second?.id ?? 0;
  // A client in Chicago: its messages' times are written in its zone, named (issue 19, item 10).
  await db.update(clients).set({ timezone: 'America/Chicago' }).where(eq(clients.id, clientId));
  const [location] = await db.select({ id: locations.id }).from(locations).limit(1);
  const locationId = location?.id ?? '';
  await db.insert(emailSuppressions).values({ email: 'bounced@example.com', reason: 'BOUNCE' });

  const at = (day: number) => createMessenger(db, ctx.config.messaging, { now: () => new Date(`${DAY}${day}T10:00:00Z`) });
  const invite = await at(1).send({
    channel: 'email',
    type: 'survey_invite',
    to: 'jane.doe@example.com',
    subject: 'How did we do, Jane?',
    text: 'Answer here: http://127.0.0.1/s/abc',
    html: '<p>Answer <a href="http://127.0.0.1/s/abc">here</a></p><script>alert(1)</script>',
    clientId,
    locationId,
    related: { type: 'survey_processing_item', id: 7 },
  });

  await at(2).send({
    channel: 'sms',
    type: 'survey_reminder',
    to: '+15555550142',
    template: 'Reminder',
    text: 'Reminder: http://x/s/abc',
    clientId,
  });
  await at(2).send({
    channel: 'email',
    type: 'review_alert',
    to: 'bounced@example.com',
    subject: 'New review',
    text: 'x',
    clientId: otherClientId,
  });
  await at(3).send({ channel: 'sms', type: 'system', to: '+447700900123', template: 'System', text: 'x' });
  return { ctx, headers, clientId, otherClientId, locationId, inviteId: invite.id };
}
