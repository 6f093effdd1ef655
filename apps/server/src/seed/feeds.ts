import { and, asc, eq, inArray, isNotNull, isNull, lte, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  clients,
  dataFeeds,
  emailOptOuts,
  locations,
  personnel,
  products,
  surveyProcessingItems,
  surveyResponses,
  surveys,
  users,
} from '../db/schema/index.ts';
import { createMessenger } from '../messaging/send.ts';
import { surveySettingsOn } from '../modules/survey-settings/repository.ts';
import { movableClock } from '../pipeline/clock.ts';
import { parseFeedFile } from '../pipeline/ingest/parse.ts';
import { type DataFeedRow, runFeed } from '../pipeline/ingest/run.ts';
import type { SecretBox } from '../pipeline/ingest/secret.ts';
import { createSendEngine } from '../pipeline/send.ts';
import { ANSWER_RATE, answerInvitation } from './answer.ts';
import { csvUploadFeed } from './feed-csv.ts';
import { customerMaker, feedFiles, SYSTEMS } from './feed-exports.ts';
import type { FeedSchedule } from './feed-records.ts';
import { sftpDropFeed } from './feed-sftp.ts';
import { demoOutbox } from './outbox.ts';
import { seededRandom } from './random.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Sources the send engine's sweeps leave alone (apps/server/src/pipeline/send.ts): not feed-made. */
const NOT_SWEPT = ['manual_test', 'demo'];

/**
 * The days (before start-up) the clients upload their exports, at 18:00 UTC (late morning to
 * early afternoon across the US). The same moments for every client on purpose: each upload's
 * invitations fall due a day later, so the send engine has one pass per upload day for all the
 * clients instead of one per file, which keeps the seed fast (decision 026, "Feeds").
 */
const UPLOAD_DAYS_AGO = [24, 17, 10, 3];
const UPLOAD_HOUR_UTC = 18;

type Client = { id: number; name: string; industry: string; timezone: string; phone: string | null };

/** One file of a feed: when it arrived, its name, and the rows in it. */
type Planned = { feed: DataFeedRow; client: Client; at: Date; name: string; text: string; source: 'csv_upload' | 'sftp' };

/**
 * Demo feeds, ingested by the pipeline rather than inserted as outputs (docs/decisions/026-demo-surveys-run-the-code.md,
 * "Feeds"): most clients get a CSV-upload feed from their industry's business system, some
 * also an SFTP drop twice a month. Their files (a few bad rows, a repeated transaction, a customer
 * surveyed recently, one who opted out) go through `parseFeedFile` and `runFeed` on a clock moved
 * to each file's time over the last four weeks; between files the send engine sends what is due
 * and runs its reminder and expiry sweeps at that time, and about a third of the invitations sent
 * are answered as the public page records answers. The last upload of each CSV feed is a few
 * hours old: its invitations stay scheduled (Survey Processing's queue) and the workers send them
 * when their time comes.
 */
export async function seedFeeds(db: Db, options: { publicBaseUrl: string; anchor: Date; secrets: SecretBox }): Promise<void> {
  const rnd = seededRandom(20261124);
  const { anchor } = options;
  const clock = movableClock(anchor);
  const messenger = createMessenger(db, demoOutbox(options.publicBaseUrl), { now: () => clock.now() });
  // No lease renewal: the engine runs inside the seed's one transaction, which no other worker sees.
  const engine = createSendEngine(db, messenger, clock, surveySettingsOn(db), { renewEveryMs: null });
  // An SFTP password needs the server's key (none on PostgreSQL without SECRET_KEY): then no SFTP feed.
  const canEncrypt = options.secrets.encrypt('demo') !== null;
  const [uploader] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'staff@example.com')).limit(1);

  const allClients: Client[] = (
    await db
      .select({ id: clients.id, name: clients.name, industry: clients.industry, timezone: clients.timezone, phone: clients.phone })
      .from(clients)
      .orderBy(asc(clients.id))
  ).map((c) => ({ ...c, industry: c.industry ?? '' }));

  const midnight = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate());
  const uploadDays = UPLOAD_DAYS_AGO.map((days) => {
    const at = new Date(midnight - days * DAY_MS + UPLOAD_HOUR_UTC * HOUR_MS);
    // Not on a Saturday: its invitations would fall due on Sunday, not a send day by default.
    return at.getUTCDay() === 6 ? new Date(at.getTime() - DAY_MS) : at;
  });

  const planned: Planned[] = [];
  for (const [index, client] of allClients.entries()) {
    // One client in four has no feed yet (they send from Survey Processing or not at all).
    if (index % 4 === 3) continue;
    const system = SYSTEMS[client.industry];
    const ownSurveys = await db
      .select()
      .from(surveys)
      .where(and(eq(surveys.clientId, client.id), eq(surveys.status, 'active')))
      .orderBy(asc(surveys.id));
    const stores = await db
      .select({ id: locations.id, code: locations.externalCode, name: locations.locationname })
      .from(locations)
      .where(and(eq(locations.clientId, client.id), eq(locations.status, 'active')))
      .orderBy(asc(locations.locationname));
    const [survey] = ownSurveys;
    if (!system || !survey || stores.length === 0) continue;
    const staff = await db
      .select({ code: personnel.employeeCode })
      .from(personnel)
      .where(and(eq(personnel.clientId, client.id), isNotNull(personnel.employeeCode)))
      .orderBy(asc(personnel.id))
      .limit(10);
    const items = await db.select({ code: products.code }).from(products).where(eq(products.clientId, client.id)).orderBy(asc(products.id));
    // Customers the surveys' demo e-mailed lately (over-surveyed if they come again) and ones who unsubscribed.
    const recent = await db
      .select({ first: surveyProcessingItems.firstName, email: surveyProcessingItems.email })
      .from(surveyProcessingItems)
      .where(
        and(
          eq(surveyProcessingItems.clientId, client.id),
          eq(surveyProcessingItems.source, 'demo'),
          isNotNull(surveyProcessingItems.sentAt),
          isNotNull(surveyProcessingItems.email),
          sql`${surveyProcessingItems.sentAt} > ${new Date(anchor.getTime() - 60 * DAY_MS).toISOString()}::timestamptz`,
        ),
      )
      .orderBy(asc(surveyProcessingItems.id))
      .limit(3);
    const optedOutEmails = await db
      .select({ email: emailOptOuts.email })
      .from(emailOptOuts)
      .where(eq(emailOptOuts.clientId, client.id))
      .orderBy(asc(emailOptOuts.email));

    const prefix = client.name.slice(0, 3).toUpperCase();
    const customer = customerMaker(rnd, { index, phone: client.phone, prefix, survey, stores, staff, items });
    const created = new Date(anchor.getTime() - 29 * DAY_MS);
    const feeds: FeedSchedule[] = [
      await csvUploadFeed(db, options.secrets, rnd, {
        clientId: client.id,
        index,
        surveyId: survey.id,
        system: system.csv,
        created,
        uploadDays,
        anchor,
      }),
    ];
    if (index % 3 === 0 && canEncrypt) {
      const surveyId = (ownSurveys[1] ?? survey).id;
      feeds.push(await sftpDropFeed(db, options.secrets, rnd, { client, surveyId, system: system.sftp, created, uploadDays, anchor }));
    }
    for (const schedule of feeds) {
      for (const file of feedFiles(rnd, customer, schedule, { prefix, recent, optedOutEmails })) {
        planned.push({ ...file, feed: schedule.feed, client, source: schedule.source });
      }
    }
  }
  planned.sort((a, b) => a.at.getTime() - b.at.getTime());

  const industryOf = new Map(allClients.map((c) => [c.id, c.industry]));
  let lastPass = 0;
  /** The engine's passes up to `to`: at each moment an invitation or a reminder falls due, then the sent ones answered. */
  async function sendUntil(to: Date) {
    for (let guard = 0; ; guard++) {
      if (guard > 5000) throw new Error('demo feeds: the send engine does not settle');
      const [due] = await db
        .select({ at: min(surveyProcessingItems.scheduledAt) })
        .from(surveyProcessingItems)
        .where(and(eq(surveyProcessingItems.status, 'scheduled'), lte(surveyProcessingItems.scheduledAt, to)));
      const [reminder] = await db
        .select({ at: min(surveyProcessingItems.nextReminderAt) })
        .from(surveyProcessingItems)
        .where(
          and(
            lte(surveyProcessingItems.nextReminderAt, to),
            sql`${surveyProcessingItems.expiresAt} > ${surveyProcessingItems.nextReminderAt}`,
            sql`${surveyProcessingItems.source} not in ${NOT_SWEPT}`,
            inArray(surveyProcessingItems.status, ['sent', 'delivered', 'opened', 'reminded']),
          ),
        );
      const next = [due?.at, reminder?.at].flatMap((d) => (d ? [new Date(d).getTime()] : []));
      if (next.length === 0) return;
      // The engine sweeps at most every 30 s of its clock: a pass sooner than that would not remind.
      const at = new Date(Math.max(Math.min(...next), lastPass + 31_000));
      clock.set(at);
      lastPass = at.getTime();
      await engine.run(at);
      const sent = await db
        .select({ token: surveyProcessingItems.token, clientId: surveyProcessingItems.clientId })
        .from(surveyProcessingItems)
        .leftJoin(surveyResponses, eq(surveyResponses.processingItemId, surveyProcessingItems.id))
        .where(and(eq(surveyProcessingItems.sentAt, at), isNotNull(surveyProcessingItems.dataFeedId), isNull(surveyResponses.id)))
        .orderBy(asc(surveyProcessingItems.id));
      for (const item of sent) {
        if (rnd.next() >= ANSWER_RATE) continue;
        await answerInvitation(db, rnd, { token: item.token, sentAt: at, anchor, industry: industryOf.get(item.clientId) ?? '' });
      }
    }
  }

  for (const file of planned) {
    await sendUntil(file.at);
    clock.set(file.at);
    const { records } = parseFeedFile(file.text, { delimiter: file.feed.delimiter, hasHeader: file.feed.hasHeader });
    const result = await runFeed({ db, clock }, file.feed, {
      source: file.source,
      sourceName: file.name,
      records,
      startedBy: file.source === 'csv_upload' ? (uploader?.id ?? null) : null,
      ...(file.source === 'sftp' ? { file: { name: file.name, size: Buffer.byteLength(file.text), modifiedAt: file.at } } : {}),
    });
    if (!result) throw new Error(`demo feed ${file.feed.name}: the run of ${file.name} was not made`);
  }
  await sendUntil(anchor);
  // A last pass at start-up time, so the sweeps have run as of then and the workers find nothing overdue.
  if (anchor.getTime() - lastPass >= 31_000) {
    clock.set(anchor);
    await engine.run(anchor);
  }

  // The SFTP feeds are paused once their files are in (as Pause on Survey Platform writes it): their
  // hosts are made up, and an active feed saved on screen would queue pulls that try to connect.
  const pausedAt = new Date(anchor.getTime() - 30 * HOUR_MS);
  await db.update(dataFeeds).set({ status: 'paused', updatedAt: pausedAt }).where(eq(dataFeeds.sourceType, 'sftp'));
  messenger.close();
}
