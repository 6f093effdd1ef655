import { DEFAULT_USER_ENTRY } from '@admin/shared';
import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clients, clientUsers, emailSuppressions, smsOptOuts, surveyAlertRecipients, surveyAlertRules, users } from '../db/schema/index.ts';

const DAY = 86_400_000;

type Rule = Omit<typeof surveyAlertRules.$inferInsert, 'clientId' | 'createdAt' | 'updatedAt'>;

/**
 * The demo's survey alert rules (issue 20, item 7), written once the surveys and feeds have made
 * their month of responses, suppressions and opt-outs: each client's users get mobile phones and
 * the channels they accept, and two or three rules — detractors by e-mail to the owner and Default
 * for New User, the keywords "rude, dirty, wait" by SMS to a manager, a daily digest at 8 for one
 * client, a rule whose only recipient is an address the survey seed put on the suppression list,
 * and one whose SMS recipient's number opted out — so the alert engine records undelivered alerts
 * for real reasons. Created a few days before the anchor: the engine alerts only on responses
 * submitted at or after a rule was created.
 */
export async function seedAlertRules(tx: Db, anchor: Date): Promise<void> {
  const createdAt = new Date(anchor.getTime() - 5 * DAY);
  const clientRows = await tx.select({ id: clients.id }).from(clients).orderBy(asc(clients.id));
  const [suppressed] = await tx
    .select({ email: emailSuppressions.email })
    .from(emailSuppressions)
    .orderBy(asc(emailSuppressions.email))
    .limit(1);
  let optOutUsed = false;
  let digestUsed = false;
  let suppressedUsed = false;

  for (const [index, { id: clientId }] of clientRows.entries()) {
    const people = await tx
      .select({ id: clientUsers.userId, role: clientUsers.role })
      .from(clientUsers)
      .where(eq(clientUsers.clientId, clientId))
      .orderBy(asc(clientUsers.userId));
    const owner = people.find((p) => p.role === 'owner');
    const manager = people.find((p) => p.role === 'manager');
    if (!owner || !manager) continue;
    for (const [i, person] of people.entries()) {
      const phone = `+1303555${String(1000 + index * 20 + i).padStart(4, '0')}`;
      await tx.update(users).set({ phone }).where(eq(users.id, person.id));
      const channels = person.role === 'staff' ? ['email'] : ['email', 'sms'];
      await tx
        .update(clientUsers)
        .set({ alertChannels: channels })
        .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.userId, person.id)));
    }
    // The first client whose phones someone opted out of: its manager's number is that one.
    if (!optOutUsed) {
      const [optedOut] = await tx
        .select({ phone: smsOptOuts.phone })
        .from(smsOptOuts)
        .where(or(eq(smsOptOuts.clientId, clientId), isNull(smsOptOuts.clientId)))
        .orderBy(asc(smsOptOuts.phone))
        .limit(1);
      if (optedOut) {
        await tx.update(users).set({ phone: optedOut.phone }).where(eq(users.id, manager.id));
        optOutUsed = true;
      }
    }

    const rules: { rule: Rule; userIds: number[] }[] = [
      {
        rule: { name: 'Detractors to the owner', trigger: 'detractor', channels: ['email'], frequency: 'instant' },
        userIds: [owner.id, DEFAULT_USER_ENTRY.id],
      },
      {
        rule: {
          name: 'Rude, dirty or a long wait',
          trigger: 'keyword',
          keywords: ['rude', 'dirty', 'wait'],
          channels: ['sms'],
          frequency: 'instant',
        },
        userIds: [manager.id],
      },
    ];
    if (!digestUsed) {
      rules.push({
        rule: {
          name: 'Daily digest of low scores',
          trigger: 'score_at_or_below',
          scoreMax: 6,
          channels: ['email'],
          frequency: 'daily_digest',
          digestHour: 8,
          notifyLocationManager: true,
        },
        userIds: [owner.id],
      });
      digestUsed = true;
    } else if (!suppressedUsed && suppressed) {
      rules.push({
        rule: { name: 'Comments to the old front desk', trigger: 'any_comment', channels: ['email'], extraEmails: [suppressed.email] },
        userIds: [],
      });
      suppressedUsed = true;
    }
    for (const { rule, userIds } of rules) {
      const [row] = await tx
        .insert(surveyAlertRules)
        .values({ ...rule, clientId, createdAt, updatedAt: createdAt })
        .returning({ id: surveyAlertRules.id });
      if (!row) throw new Error('alert rule insert returned nothing');
      if (userIds.length > 0) {
        await tx.insert(surveyAlertRecipients).values(userIds.map((userId) => ({ ruleId: row.id, userId, addedAt: createdAt })));
      }
    }
  }
}
