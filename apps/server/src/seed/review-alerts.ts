import { DEFAULT_USER_ENTRY, REVIEW_SITE_CODES } from '@admin/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clients, clientUsers, reviewAlertRecipients, reviewAlertRules } from '../db/schema/index.ts';

const DAY = 86_400_000;

type Rule = Omit<typeof reviewAlertRules.$inferInsert, 'clientId' | 'createdAt' | 'updatedAt'>;

/**
 * The demo's review alert rules (issue 21, item 7), written before the demo's reviews are ingested
 * so the negative ones fire them: for every client a "1–2 star reviews, instant" rule on every site
 * by e-mail and SMS to the owner and Default for New User, with a reply link, and a weekly digest
 * of every review on Monday at 08:00 (the client's zone) to the manager. Users' phones and alert
 * channels are the survey alert seed's (alert-rules.ts), which runs first.
 */
export async function seedReviewAlertRules(tx: Db, anchor: Date): Promise<void> {
  const createdAt = new Date(anchor.getTime() - 5 * DAY);
  const clientRows = await tx.select({ id: clients.id }).from(clients).orderBy(asc(clients.id));
  for (const { id: clientId } of clientRows) {
    const people = await tx
      .select({ id: clientUsers.userId, role: clientUsers.role })
      .from(clientUsers)
      .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.status, 'active')))
      .orderBy(asc(clientUsers.userId));
    const owner = people.find((p) => p.role === 'owner');
    const manager = people.find((p) => p.role === 'manager') ?? owner;
    if (!owner || !manager) continue;
    const rules: { rule: Rule; userIds: number[] }[] = [
      {
        rule: {
          name: '1–2 star reviews, instant',
          sites: [...REVIEW_SITE_CODES],
          ratingMin: 1,
          ratingMax: 2,
          recommendFilter: ['not_recommended'],
          channels: ['email', 'sms'],
          frequency: 'instant',
          includeReplyLink: true,
        },
        userIds: [owner.id, DEFAULT_USER_ENTRY.id],
      },
      {
        rule: {
          name: 'Weekly digest of every review',
          sites: [...REVIEW_SITE_CODES],
          frequency: 'weekly',
          sendTime: '08:00',
          weeklyDay: 'mon',
        },
        userIds: [manager.id],
      },
    ];
    for (const { rule, userIds } of rules) {
      const [row] = await tx
        .insert(reviewAlertRules)
        .values({ ...rule, clientId, createdAt, updatedAt: createdAt })
        .returning({ id: reviewAlertRules.id });
      if (!row) throw new Error('review alert rule insert returned nothing');
      await tx.insert(reviewAlertRecipients).values(userIds.map((userId) => ({ ruleId: row.id, userId, addedAt: createdAt })));
    }
  }
}
