import { checkFeed, type DataFeedBody, dataFeedResource, type FeedTriggerEvent } from '@admin/shared';
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
import { validateFields } from '../kit/validate-body.ts';
import { HttpError } from '../lib/http-error.ts';
import { createMessenger } from '../messaging/send.ts';
import { dataFeedStore } from '../modules/data-feeds/repository.ts';
import { surveySettingsOn } from '../modules/survey-settings/repository.ts';
import { movableClock } from '../pipeline/clock.ts';
import { nextRun, parseCron } from '../pipeline/ingest/cron.ts';
import { parseFeedFile } from '../pipeline/ingest/parse.ts';
import { type DataFeedRow, runFeed } from '../pipeline/ingest/run.ts';
import type { SecretBox } from '../pipeline/ingest/secret.ts';
import { localTimeOf } from '../pipeline/schedule.ts';
import { createSendEngine } from '../pipeline/send.ts';
import { seededRandom } from './random.ts';
import { ANSWER_RATE, answerInvitation, demoOutbox } from './surveys.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Sources the send engine's sweeps leave alone (apps/server/src/pipeline/send.ts): not feed-made. */
const NOT_SWEPT = ['manual_test', 'demo'];

/** Each industry's business system: the CSV export someone uploads, and the SFTP drop some clients have. */
const SYSTEMS: Record<string, { csv: [string, FeedTriggerEvent, string]; sftp: [string, FeedTriggerEvent, string] }> = {
  home_services: { csv: ['ServiceTitan', 'job_completed', 'Completed jobs'], sftp: ['Housecall Pro', 'invoice_paid', 'Paid invoices'] },
  automotive: { csv: ['CDK Global', 'ro_closed', 'Closed repair orders'], sftp: ['DealerSocket', 'sale_delivered', 'Vehicle deliveries'] },
  dental: { csv: ['Dentrix', 'appointment_completed', 'Completed appointments'], sftp: ['Eaglesoft', 'invoice_paid', 'Paid statements'] },
  senior_care: { csv: ['PointClickCare', 'discharge', 'Discharges'], sftp: ['MatrixCare', 'discharge', 'Respite discharges'] },
  healthcare: { csv: ['athenahealth', 'appointment_completed', 'Visits'], sftp: ['eClinicalWorks', 'appointment_completed', 'Visits'] },
  legal: { csv: ['Clio', 'invoice_paid', 'Paid matters'], sftp: ['MyCase', 'invoice_paid', 'Paid invoices'] },
  financial: { csv: ['Jack Henry', 'sale_delivered', 'Funded loans'], sftp: ['Fiserv', 'sale_delivered', 'New accounts'] },
  retail: { csv: ['Lightspeed', 'sale_delivered', 'Sales'], sftp: ['Shopify POS', 'sale_delivered', 'Orders'] },
  hospitality: { csv: ['Opera PMS', 'invoice_paid', 'Checkouts'], sftp: ['Cloudbeds', 'invoice_paid', 'Checkouts'] },
};

/** The columns of the demo exports, as a business system names them; each feed's mapping reads them. */
const COLUMNS = {
  first_name: 'Customer First Name',
  last_name: 'Customer Last Name',
  email: 'Email',
  phone: 'Mobile',
  transaction_id: 'Invoice #',
  transaction_date: 'Date',
  location_code: 'Store',
  personnel_code: 'Employee ID',
  product_code: 'Item Code',
  amount: 'Total',
  opt_in_sms: 'Text OK',
} as const;
type Column = keyof typeof COLUMNS;

const FIRST = ['Harper', 'Elijah', 'Zoe', 'Mateo', 'Layla', 'Henry', 'Aria', 'Jack', 'Nora', 'Levi', 'Lily', 'Ezra', 'Stella', 'Miles'];
const LAST = ['Ortiz', 'Fischer', 'Kowalski', 'Ramos', 'Bennett', 'Sato', 'Price', 'Hughes', 'Ward', 'Foster', 'Reid', 'Castillo'];
/** SFTP drops twice a month, on the 1st and the 15th (at the hour `seedFeeds` picks). */
const SFTP_DAYS = '1,15';
/**
 * The days (before start-up) the clients upload their exports, at 18:00 UTC (late morning to
 * early afternoon across the US). The same moments for every client on purpose: each upload's
 * invitations fall due a day later, so the send engine has one pass per upload day for all the
 * clients instead of one per file, which keeps the seed fast (decision 026, "Feeds").
 */
const UPLOAD_DAYS_AGO = [24, 17, 10, 3];
const UPLOAD_HOUR_UTC = 18;

type Client = { id: number; name: string; industry: string; timezone: string; phone: string | null };
type Row = Partial<Record<Column, string>>;

/** A CSV file's text, the columns in COLUMNS' order and quoted where needed, as a business system exports it. */
function csvOf(rows: Row[]): string {
  const columns = Object.keys(COLUMNS) as Column[];
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [columns.map((c) => COLUMNS[c]), ...rows.map((r) => columns.map((c) => r[c] ?? ''))]
    .map((line) => line.map(cell).join(','))
    .join('\r\n');
}

/** `2026-11-23` as the feed's date format writes it. */
function dateIn(day: string, format: 'yyyy-MM-dd' | 'MM/dd/yyyy'): string {
  const [y, m, d] = day.split('-');
  return format === 'yyyy-MM-dd' ? day : `${m}/${d}/${y}`;
}

/**
 * A feed made the way `POST /api/data-feeds` makes one: the definition's defaults and schema, its
 * field rules, `checkFeed` and the schedule read by the cron matcher, then the store's `values`
 * (which encrypts the SFTP password). No pull is queued: the route's hook does that, and the demo's
 * SFTP feeds are paused once their runs are made.
 */
async function createFeed(db: Db, secrets: SecretBox, clientId: number, at: Date, input: Partial<DataFeedBody>): Promise<DataFeedRow> {
  const body: DataFeedBody = { ...dataFeedResource.defaults, ...dataFeedResource.createSchema.parse(input) };
  await validateFields(body, dataFeedResource.rules, { names: dataFeedResource.labels });
  const errors = checkFeed({ ...body, field_mapping: body.field_mapping ?? null });
  if (body.schedule_cron) parseCron(body.schedule_cron);
  if (Object.keys(errors).length > 0) throw new HttpError(422, `Demo feed ${body.name}: ${JSON.stringify(errors)}`, errors);
  const [row] = await db
    .insert(dataFeeds)
    .values({
      ...(dataFeedStore(secrets).values(body, { clientId }) as typeof dataFeeds.$inferInsert),
      clientId,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

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
  const engine = createSendEngine(db, messenger, clock, surveySettingsOn(db));
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

    const texting = survey.channel !== 'email';
    // The client's own area code (a real one, so the rows' phones pass as valid), as seed/surveys.ts does.
    const areaCode = client.phone?.slice(2, 5) ?? '303';
    let phoneSeq = 50;
    let txSeq = 1000 + index * 1000;
    const prefix = client.name.slice(0, 3).toUpperCase();
    /** A customer of this client: a fresh name, an address, and a phone that may be texted where the survey texts. */
    const customer = (tag: string, day: string, format: 'yyyy-MM-dd' | 'MM/dd/yyyy'): Row => {
      const first = rnd.pick(FIRST);
      const last = rnd.pick(LAST);
      const byText = texting && (survey.channel === 'sms' || rnd.next() < 0.4);
      // The fictional 555-0150…0199 range, after the surveys' 555-01xx invitations.
      const phone = byText && phoneSeq < 100 ? `(${areaCode}) 555-01${String(phoneSeq++)}` : '';
      txSeq += rnd.int(1, 9);
      return {
        first_name: first,
        last_name: last,
        email: phone && survey.channel === 'sms' ? '' : `${first}.${last}.${tag}@example.com`.toLowerCase(),
        phone,
        transaction_id: `${prefix}-${txSeq}`,
        transaction_date: dateIn(day, format),
        location_code: rnd.pick(stores).code ?? '',
        personnel_code: staff.length > 0 ? (rnd.pick(staff).code ?? '') : '',
        product_code: items.length > 0 ? rnd.pick(items).code : '',
        amount: (rnd.int(4000, 90000) / 100).toFixed(2),
        opt_in_sms: phone ? 'Y' : 'N',
      };
    };

    const feeds: { feed: DataFeedRow; source: 'csv_upload' | 'sftp'; times: Date[]; format: 'yyyy-MM-dd' | 'MM/dd/yyyy' }[] = [];
    const mapping = Object.fromEntries(Object.entries(COLUMNS));
    const [csvVendor, csvTrigger, csvWhat] = system.csv;
    const csvFormat = index % 2 === 0 ? 'MM/dd/yyyy' : 'yyyy-MM-dd';
    const created = new Date(anchor.getTime() - 29 * DAY_MS);
    const csvFeed = await createFeed(db, options.secrets, client.id, created, {
      name: `${csvVendor} ${csvWhat.toLowerCase()}`,
      source_type: 'csv_upload',
      vendor: csvVendor,
      trigger_event: csvTrigger,
      survey_id: survey.id,
      location_mode: 'column',
      date_format: csvFormat,
      field_mapping: mapping,
    });
    // The first upload day and one of the later ones (small businesses upload when they think of it).
    const later = rnd.int(1, uploadDays.length - 1);
    const uploads = uploadDays.filter((_, i) => i === 0 || i === later);
    // The last file a few hours before start-up: its invitations are the queue.
    uploads.push(new Date(Math.floor(anchor.getTime() - (2 + rnd.next() * 8) * HOUR_MS)));
    feeds.push({ feed: csvFeed, source: 'csv_upload', times: uploads, format: csvFormat });

    if (index % 3 === 0 && canEncrypt) {
      const [vendor, trigger, what] = system.sftp;
      const second = ownSurveys[1] ?? survey;
      // The drop's local hour is the uploads' moment (18:00 UTC) in the client's zone, so all the
      // drops of a day fall due together and the send engine needs one pass for them.
      const hour = Math.floor(localTimeOf(uploadDays[0] ?? anchor, client.timezone).minute / 60);
      const cronText = `0 ${hour} ${SFTP_DAYS} * *`;
      const host = `sftp.${client.name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.com`;
      const sftpFeed = await createFeed(db, options.secrets, client.id, created, {
        name: `${vendor} ${what.toLowerCase()} (SFTP)`,
        source_type: 'sftp',
        vendor,
        trigger_event: trigger,
        survey_id: second.id,
        location_mode: 'column',
        schedule_cron: cronText,
        sftp_host: host,
        sftp_port: 22,
        sftp_path: '/outbound/surveys',
        sftp_username: 'reviews',
        sftp_password: `demo-${rnd.int(100000, 999999)}`,
        file_name_pattern: 'export_*.csv',
        date_format: 'yyyy-MM-dd',
        field_mapping: mapping,
      });
      // Its pulls over the last four weeks, the latest at least a day and a half old.
      const pulls: Date[] = [];
      const cron = parseCron(cronText);
      for (let at = nextRun(cron, created, client.timezone); at && at.getTime() < anchor.getTime() - 36 * HOUR_MS; ) {
        pulls.push(at);
        at = nextRun(cron, at, client.timezone);
      }
      feeds.push({ feed: sftpFeed, source: 'sftp', times: pulls, format: 'yyyy-MM-dd' });
    }

    for (const { feed, source, times, format } of feeds) {
      let previous: Row[] = [];
      for (const [n, at] of times.entries()) {
        const day = new Date(at.getTime() - rnd.int(1, 3) * DAY_MS).toISOString().slice(0, 10);
        const rows = Array.from({ length: rnd.int(5, 9) }, (_, i) => customer(`f${feed.id}-${n}-${i}`, day, format));
        const extra = (row: Row | undefined) => {
          if (row) rows.splice(rnd.int(0, rows.length), 0, row);
        };
        // What real exports bring: a row repeated from the file before (the rules skip the repeat)…
        if (n > 0 && n % 2 === 1) extra(previous[0] ? { ...previous[0] } : undefined);
        // … a customer the client surveyed lately (over-survey protection skips them) …
        const again = recent[n];
        if (n === 1 && again) {
          extra({ ...customer(`again-${feed.id}`, day, format), first_name: again.first, email: again.email ?? '', phone: '' });
        }
        // … one who unsubscribed from an earlier invitation (skipped: opted out) …
        const optedOut = optedOutEmails[0]?.email;
        if (n === 2 && optedOut) extra({ ...customer(`out-${feed.id}`, day, format), email: optedOut, phone: '' });
        // … and a couple of rows the feed cannot read (partial runs, with their row errors).
        if (n === 0 || n === 2) {
          const bad = customer(`bad-${feed.id}-${n}`, day, format);
          const kind = (feed.id + n) % 4;
          if (kind === 0) extra({ ...bad, email: `${bad.first_name?.toLowerCase()}@@example.com`, phone: '555-12' });
          else if (kind === 1) extra({ ...bad, transaction_date: '31/31/2026' });
          else if (kind === 2) extra({ ...bad, location_code: `${prefix}-999` });
          else extra({ ...bad, first_name: '' });
        }
        previous = rows;
        const stamp = at.toISOString().slice(0, 10).replace(/-/g, '');
        const name = source === 'sftp' ? `export_${stamp}.csv` : `${feed.vendor?.toLowerCase().replace(/[^a-z]+/g, '-')}-${stamp}.csv`;
        planned.push({ feed, client, at, name, text: csvOf(rows), source });
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
