import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { surveys } from '../db/schema/index.ts';
import { invitationEmail, invitationSms } from '../messaging/invitation.ts';
import { logRowOf } from '../messaging/log-row.ts';
import type { OutboundMessage } from '../messaging/send.ts';
import { newSurveyToken } from '../modules/surveys/sample.ts';
import { ANSWER_RATE } from './answer.ts';
import { FIRST, LAST } from './demo-names.ts';
import { outcomeOf } from './history-outcomes.ts';
import { DAY_MS, INVITATIONS_PER_LOCATION, type Period, seasonOf } from './history-plan.ts';
import { inChunks, iso, recordset } from './history-sql.ts';
import type { seededRandom } from './random.ts';

type Rnd = ReturnType<typeof seededRandom>;

/** What the history reads of a client, once (history.ts). */
export type HistoryClient = {
  id: number;
  name: string;
  industry: string;
  coordinatorId: number | null;
  areaCode: string;
  locations: { id: string; name: string; reviewLinks: Record<string, string> }[];
  surveys: { survey: typeof surveys.$inferSelect; locationIds: Set<string> }[];
  staff: { id: number; firstName: string }[];
  /** The client's SMS template, when it texts its customers. */
  template: { name: string; body: string } | null;
};

/** One invitation of the history: planned, then inserted (`itemId`) and sent (`status`). */
export type HistoryInvitation = {
  client: HistoryClient;
  survey: typeof surveys.$inferSelect;
  location: HistoryClient['locations'][number];
  person: { id: number; firstName: string } | undefined;
  first: string;
  last: string;
  channel: 'email' | 'sms';
  to: string;
  sentAt: number;
  token: string;
  period: number;
  /** When the customer answers it, within two days (ANSWER_RATE of them, as the last month's), or null. */
  answeredAt: number | null;
  itemId: number;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * The n-th phone of a client's history: the 555-01xx numbers kept for fiction, in its area code and
 * then in the next ones (a texting client's last month uses most of its own hundred).
 */
const phoneOf = (client: HistoryClient, n: number) => {
  const area = 201 + ((Number(client.areaCode) - 201 + Math.floor(n / 100)) % 789);
  return `+1${area}555${String(100 + (n % 100)).padStart(4, '0')}`;
};

/** Customers of an e-mail → SMS survey who gave only a phone (surveys.ts' PHONE_ONLY_RATE). */
const PHONE_ONLY_RATE = 0.3;
/** A returning client's second survey takes about a third of the invitations where it runs (surveys.ts). */
const SECOND_SURVEY_SHARE = 0.35;

/**
 * The invitations of every period: per client and active location, INVITATIONS_PER_LOCATION in
 * an average season, more in the client's busy months, at random moments of the period; to the
 * survey's channel, a made-up customer with an address of their own (never one the last month
 * used, so no opt-out or suppression of the demo's stories reaches back), oldest first.
 */
export function planInvitations(
  clients: readonly HistoryClient[],
  periods: readonly Period[],
  taken: ReadonlySet<string>,
  rnd: Rnd,
): HistoryInvitation[] {
  const end = periods.at(-1)?.end ?? 0;
  const planned: HistoryInvitation[] = [];
  for (const client of clients) {
    const [main, second] = client.surveys;
    if (!main) continue;
    let n = 0;
    for (const period of periods) {
      const season = seasonOf(period, client.industry);
      for (const location of client.locations) {
        const count = Math.round(INVITATIONS_PER_LOCATION * season * (0.8 + 0.4 * rnd.next()));
        for (let i = 0; i < count; i++) {
          n += 1;
          const target = second?.locationIds.has(location.id) && rnd.next() < SECOND_SURVEY_SHARE ? second : main;
          const { survey } = target;
          const byText =
            client.template !== null && (survey.channel === 'sms' || (survey.channel === 'email_then_sms' && rnd.next() < PHONE_ONLY_RATE));
          const first = rnd.pick(FIRST);
          const last = rnd.pick(LAST);
          const sentAt = Math.floor(period.start + rnd.next() * (period.end - period.start));
          const answers = rnd.next() < ANSWER_RATE;
          // Phones in the 555-01xx range kept for fiction, none that opted out (the messenger would refuse it)
          // nor the client's customers of the last month (a history customer is never invited again);
          // e-mails at example.com, each one this invitation's.
          let phone = n;
          while (phone < n + 1000 && (taken.has(phoneOf(client, phone)) || taken.has(`${client.id}:${phoneOf(client, phone)}`))) phone += 1;
          planned.push({
            client,
            survey,
            location,
            person: client.staff.length > 0 ? rnd.pick(client.staff) : undefined,
            first,
            last,
            channel: byText ? 'sms' : 'email',
            to: byText ? phoneOf(client, phone) : `${first}.${last}.${client.id}-h${n}@example.com`.toLowerCase(),
            sentAt,
            token: newSurveyToken(),
            period: period.index,
            answeredAt: answers ? Math.max(sentAt + MINUTE, Math.min(end - MINUTE, sentAt + (0.5 + rnd.next() * 47.5) * HOUR)) : null,
            itemId: 0,
          });
        }
      }
    }
  }
  return planned.sort((a, b) => a.sentAt - b.sentAt);
}

/**
 * The invitations as the surveys' demo sends them (surveys.ts), written in bulk as they stand once
 * sent and reported (decision 070: thousands of single sends would cost the seed seconds): the
 * processing item `sent` (or `responded`, when answered) with one attempt and its `sent_at`,
 * source `demo` (counted in every figure; the send engine's sweeps leave it alone); its Tracking
 * Logs row as the messenger writes it (`logRowOf`: the rendered e-mail or SMS, an outbox message
 * id) with the status the provider's reports left (history-outcomes.ts) and that status history.
 * The rollup's triggers count the send on `sent_at`'s day and the delivery from the row's status.
 */
export async function writeInvitations(db: Db, planned: HistoryInvitation[], publicBaseUrl: string, rnd: Rnd): Promise<void> {
  // As the messenger makes a link (messaging/send.ts `link`).
  const link = (path: string) => `${publicBaseUrl}${path}`;
  // One JSON parameter per thousand rows rather than a parameter per column: PGlite binds
  // thousands of parameters slowly (stack notes, "Insert in batches").
  const items = await inChunks(
    db,
    planned.map((p) => ({
      client: p.client.id,
      location: p.location.id,
      survey: p.survey.id,
      first: p.first,
      last: p.last,
      email: p.channel === 'email' ? p.to : null,
      phone: p.channel === 'sms' ? p.to : null,
      personnel: p.person?.id ?? null,
      channel: p.channel,
      status: p.answeredAt === null ? 'sent' : 'responded',
      sent: iso(p.sentAt),
      token: p.token,
      expires: iso(p.sentAt + p.survey.linkExpiresDays * DAY_MS),
      updated: iso(p.answeredAt ?? p.sentAt),
    })),
    (json) => sql`insert into survey_processing_items (client_id, location_id, survey_id, first_name, last_name, email, phone, personnel_id,
        channel, status, attempts, sent_at, token, expires_at, source, created_at, updated_at)
      select client, location, survey, first, last, email, phone, personnel, channel, status, 1, sent, token, expires, 'demo', sent, updated
      from ${recordset(json, 'client int, location text, survey int, first text, last text, email text, phone text, personnel int, channel text, status text, sent timestamptz, token text, expires timestamptz, updated timestamptz')}
      returning id, token`,
  );
  const idOf = new Map(items.map((r) => [String(r.token), Number(r.id)]));
  for (const p of planned) p.itemId = idOf.get(p.token) ?? 0;
  const outcomes = new Map(planned.map((p) => [p.itemId, outcomeOf(p, rnd)]));
  const logs = await inChunks(
    db,
    planned.map((p) => {
      const outcome = outcomes.get(p.itemId);
      const row = logRowOf(messageOf(p, link), p.to, outcome?.status ?? 'sent', null, new Date(p.sentAt));
      return {
        ...row,
        createdAt: iso(p.sentAt),
        updatedAt: iso(outcome?.events.at(-1)?.at ?? p.sentAt),
        providerMessageId: p.channel === 'email' ? `outbox-${uuidOf(rnd)}` : null,
      };
    }),
    (
      json,
    ) => sql`insert into notification_logs (client_id, location_id, channel, type, recipient, subject_or_template, body_text, body_html,
        provider_message_id, status, related_type, related_id, error, created_at, updated_at)
      select "clientId", "locationId", channel, type, recipient, "subjectOrTemplate", "bodyText", "bodyHtml", "providerMessageId", status,
        "relatedType", "relatedId", error, "createdAt", "updatedAt"
      from ${recordset(json, '"clientId" int, "locationId" text, channel text, type text, recipient text, "subjectOrTemplate" text, "bodyText" text, "bodyHtml" text, "providerMessageId" text, status text, "relatedType" text, "relatedId" text, error text, "createdAt" timestamptz, "updatedAt" timestamptz')}
      returning id, related_id`,
  );
  const events = logs.flatMap((l) =>
    (outcomes.get(Number(l.related_id))?.events ?? []).map((e) => ({
      log: Number(l.id),
      status: e.status,
      at: iso(e.at),
      detail: e.detail,
    })),
  );
  await inChunks(
    db,
    events,
    (json) => sql`insert into notification_events (notification_id, status, at, detail)
      select log, status, at, detail from ${recordset(json, 'log bigint, status text, at timestamptz, detail text')}`,
  );
}

/** A provider message id of the outbox's shape (`outbox-<uuid>`), from the seeded random. */
function uuidOf(rnd: Rnd): string {
  const hex = Array.from({ length: 32 }, () => '0123456789abcdef'[rnd.int(0, 15)]).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** The invitation rendered as the surveys' demo renders it (surveys.ts): the survey's e-mail, or the client's SMS text. */
function messageOf(p: HistoryInvitation, link: (path: string) => string): OutboundMessage {
  const values = {
    firstName: p.first,
    locationName: p.location.name,
    personnelName: p.person?.firstName ?? null,
    businessName: p.client.name,
    surveyLink: link(`/s/${p.token}`),
    unsubscribeLink: link(`/u/${p.token}`),
  };
  const common = {
    type: 'survey_invite' as const,
    to: p.to,
    clientId: p.client.id,
    locationId: p.location.id,
    related: { type: 'survey_processing_item', id: p.itemId },
  };
  if (p.channel === 'sms' && p.client.template) {
    return { ...common, channel: 'sms', template: p.client.template.name, text: invitationSms(p.client.template.body, values) };
  }
  return { ...common, channel: 'email', ...invitationEmail(p.survey, values, null) };
}
