import type { PerformanceChannel } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../src/db/client.ts';

/**
 * The Performance Report's counts recomputed in the test from the raw rows, one by one in
 * JavaScript (days in the client's zone by Intl, not by SQL), for one client and a range: what
 * the route's figures are checked against.
 */
export type ReferenceCounts = {
  sent: number;
  delivered: number;
  opened: number;
  responses: number;
  promoters: number;
  passives: number;
  detractors: number;
  scoreSum: number;
  scoreCount: number;
  csatPositive: number;
  csatAnswers: number;
  alertsFired: number;
  alertsUnsent: number;
  invites: number;
  posted: number;
  reviews: number;
  bySite: Record<string, number>;
  ratingSum: number;
  rated: number;
};

export function localDay(at: unknown, zone: string): string {
  const d = at instanceof Date ? at : new Date(String(at));
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

export type ReferenceFilter = {
  clientId: number;
  from: string;
  to: string;
  channel?: PerformanceChannel;
  location?: string;
  /** Only events whose group key (by `keyOf`) is this value. */
};

const rows = async (db: Db, statement: ReturnType<typeof sql>) => rowsOf(await db.execute(statement));

export async function referenceCounts(db: Db, f: ReferenceFilter): Promise<ReferenceCounts> {
  const [client] = await rows(db, sql`select timezone from clients where id = ${f.clientId}`);
  const zone = String(client?.timezone);
  const inRange = (at: unknown) => at !== null && localDay(at, zone) >= f.from && localDay(at, zone) <= f.to;
  const channelOk = (channel: unknown) => !f.channel || f.channel === 'all' || channel === f.channel;
  const locationOk = (location: unknown) => !f.location || location === f.location;
  const c: ReferenceCounts = {
    sent: 0,
    delivered: 0,
    opened: 0,
    responses: 0,
    promoters: 0,
    passives: 0,
    detractors: 0,
    scoreSum: 0,
    scoreCount: 0,
    csatPositive: 0,
    csatAnswers: 0,
    alertsFired: 0,
    alertsUnsent: 0,
    invites: 0,
    posted: 0,
    reviews: 0,
    bySite: {},
    ratingSum: 0,
    rated: 0,
  };
  const items = await rows(
    db,
    sql`select id, sent_at, channel, source, location_id from survey_processing_items where client_id = ${f.clientId}`,
  );
  const logs = await rows(
    db,
    sql`select related_id, status from notification_logs where related_type = 'survey_processing_item' and type = 'survey_invite' and client_id = ${f.clientId}`,
  );
  const statuses = new Map<string, string[]>();
  for (const l of logs) statuses.set(String(l.related_id), [...(statuses.get(String(l.related_id)) ?? []), String(l.status)]);
  for (const i of items) {
    if (i.sent_at === null || i.source === 'manual_test' || !inRange(i.sent_at) || !channelOk(i.channel) || !locationOk(i.location_id))
      continue;
    c.sent++;
    const s = statuses.get(String(i.id)) ?? [];
    if (s.some((x) => ['delivered', 'opened', 'clicked', 'complained'].includes(x))) c.delivered++;
    if (s.some((x) => ['opened', 'clicked'].includes(x))) c.opened++;
  }
  const itemChannel = new Map(items.map((i) => [Number(i.id), i.channel]));
  const responses = await rows(
    db,
    sql`select r.id, r.processing_item_id, r.submitted_at, r.excluded, r.test, r.nps_class, r.key_score, r.location_id, s.type
      from survey_responses r join surveys s on s.id = r.survey_id where r.client_id = ${f.clientId}`,
  );
  const responseById = new Map(responses.map((r) => [Number(r.id), r]));
  for (const r of responses) {
    if (
      r.excluded ||
      r.test ||
      !inRange(r.submitted_at) ||
      !channelOk(itemChannel.get(Number(r.processing_item_id))) ||
      !locationOk(r.location_id)
    )
      continue;
    c.responses++;
    if (r.nps_class === 'promoter') c.promoters++;
    if (r.nps_class === 'passive') c.passives++;
    if (r.nps_class === 'detractor') c.detractors++;
    if (r.key_score !== null) {
      c.scoreSum += Number(r.key_score);
      c.scoreCount++;
      if ((r.type === 'csat' || r.type === 'star') && Number(r.key_score) >= 1 && Number(r.key_score) <= 5) {
        c.csatAnswers++;
        if (Number(r.key_score) >= 4) c.csatPositive++;
      }
    }
  }
  const itemLocation = new Map(items.map((i) => [Number(i.id), i.location_id]));
  const alerts = await rows(
    db,
    sql`select response_id, processing_item_id, state, created_at, test from survey_alert_events where client_id = ${f.clientId}`,
  );
  for (const e of alerts) {
    if (e.test || !inRange(e.created_at)) continue;
    const response = e.response_id === null ? undefined : responseById.get(Number(e.response_id));
    const itemId = Number(response?.processing_item_id ?? e.processing_item_id);
    if (!channelOk(itemChannel.get(itemId))) continue;
    if (!locationOk(response ? response.location_id : itemLocation.get(itemId))) continue;
    c.alertsFired++;
    if (e.state === 'unsent') c.alertsUnsent++;
  }
  const amps = await rows(db, sql`select invited_at, status, channel, location_id from amplifications where client_id = ${f.clientId}`);
  for (const a of amps) {
    if (!inRange(a.invited_at) || !channelOk(a.channel) || !locationOk(a.location_id)) continue;
    c.invites++;
    if (a.status === 'posted') c.posted++;
  }
  const reviews = await rows(db, sql`select site, rating, review_created_at, location_id from reviews where client_id = ${f.clientId}`);
  for (const v of reviews) {
    if (!inRange(v.review_created_at) || !locationOk(v.location_id)) continue;
    c.reviews++;
    c.bySite[String(v.site)] = (c.bySite[String(v.site)] ?? 0) + 1;
    if (v.rating !== null) {
      c.ratingSum += Number(v.rating);
      c.rated++;
    }
  }
  return c;
}
