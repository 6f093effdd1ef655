import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { snsSigner } from '../../apps/server/test/sns-signer.ts';
import type { Http } from './http.ts';
import type { Target } from './setup.ts';

/**
 * The mixed load, each kind in its own loop at its own pace, and the book of what the server
 * acknowledged: only a write answered 2xx is one the end checks require (checks.ts).
 */
export type Ledger = {
  /** Transaction ids the ingest API answered as accepted rows. */
  ingested: string[];
  /** Uploads answered 202: their run, rows and the transaction-id prefix of their rows. */
  uploads: { runId: number; rows: number; tag: string }[];
  /** Responses answered 201. */
  responses: number[];
  /** SES message ids of the signed events answered 200. */
  sesMessages: string[];
  reads: number;
  /** Writes tried that got no acknowledgement (killed process, 503): allowed, not required. */
  unacknowledged: number;
};

export function newLedger(): Ledger {
  return { ingested: [], uploads: [], responses: [], sesMessages: [], reads: 0, unacknowledged: 0 };
}

/** Every row the soak writes has a transaction id starting so, to find them among the demo's. */
export const SOAK_PREFIX = 'SOAK-';
const INGEST_ROWS = 5;
const UPLOAD_ROWS = 20;

export type LoadOptions = { http: Http; target: Target; databaseUrl: string; ledger: Ledger; until: () => boolean; signerDir: string };

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dataOf = (json: unknown): unknown => (typeof json === 'object' && json && 'data' in json ? json.data : null);

/** Runs every loop until `until()` says stop. */
export async function runLoad(options: LoadOptions): Promise<void> {
  await Promise.all([
    loop(options, 150, ingestOnce),
    loop(options, 150, ingestOnce),
    loop(options, 2_000, uploadOnce),
    loop(options, 300, respondOnce),
    loop(options, 200, sesOnce),
    loop(options, 100, readOnce),
    loop(options, 100, readOnce),
  ]);
}

async function loop(options: LoadOptions, everyMs: number, once: (o: LoadOptions, n: number) => Promise<void>) {
  for (let n = 0; !options.until(); n++) {
    const started = Date.now();
    await once(options, n).catch(() => {
      options.ledger.unacknowledged++;
    });
    await pause(Math.max(0, everyMs - (Date.now() - started)));
  }
}

/**
 * Today's date where the client is: a transaction dates from the client's day, and the UTC date is
 * the client's tomorrow for hours every evening (US zones), which would schedule every invitation
 * of the run for the next day and send none.
 */
const today = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

async function ingestOnce({ http, target, ledger }: LoadOptions) {
  const batch = randomUUID().slice(0, 12);
  const rows = Array.from({ length: INGEST_ROWS }, (_, j) => ({
    first_name: 'Soak',
    last_name: 'Caller',
    email: `soak.${batch}.${j}@example.com`,
    transaction_id: `${SOAK_PREFIX}I-${batch}-${j}`,
    transaction_date: today(target.timeZone),
  }));
  const answer = await http.call('POST', `/api/v1/endpoints/${target.locationId}/transactions`, rows, {
    authorization: `Bearer ${target.apiToken}`,
  });
  const data = dataOf(answer?.json) as { accepted?: unknown[] } | null;
  // Each row is new (its own e-mail and transaction id), so an acknowledged call accepted all of them.
  if (answer?.status !== 200 || data?.accepted?.length !== INGEST_ROWS) {
    ledger.unacknowledged++;
    return;
  }
  for (const row of rows) ledger.ingested.push(row.transaction_id);
}

async function uploadOnce({ http, target, ledger }: LoadOptions) {
  const tag = `${SOAK_PREFIX}U-${randomUUID().slice(0, 12)}`;
  const csv = [
    'First,Email,Txn,Date',
    ...Array.from({ length: UPLOAD_ROWS }, (_, i) => `Up,${tag}.${i}@example.com,${tag}-${i},${today(target.timeZone)}`),
  ];
  const answer = await http.call('POST', `/api/data-feeds/${target.feedId}/upload?file_name=soak.csv`, csv.join('\n'), {
    authorization: `Bearer ${target.session}`,
  });
  const data = dataOf(answer?.json) as { id?: number } | null;
  if (answer?.status !== 202 || typeof data?.id !== 'number') {
    ledger.unacknowledged++;
    return;
  }
  ledger.uploads.push({ runId: data.id, rows: UPLOAD_ROWS, tag });
}

/** Tokens of sent, unanswered soak invitations, read from the database as a respondent's inbox would hold them. */
let tokens: string[] = [];
async function respondOnce({ http, target, ledger, databaseUrl }: LoadOptions) {
  if (tokens.length === 0) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
    await client.connect();
    try {
      const result = await client.query<{ token: string }>(
        `select token from survey_processing_items where status = 'sent' and transaction_id like $1 order by random() limit 20`,
        [`${SOAK_PREFIX}%`],
      );
      tokens = result.rows.map((r) => r.token);
    } finally {
      await client.end();
    }
    if (tokens.length === 0) return;
  }
  const token = tokens.pop();
  const answer = await http.call('POST', `/api/public/responses/${token}`, { answers: { [target.keyQuestionId]: target.lowScore } });
  const data = dataOf(answer?.json) as { id?: number } | null;
  if (answer?.status === 201 && typeof data?.id === 'number') ledger.responses.push(data.id);
  else if (answer?.status !== 409) ledger.unacknowledged++;
}

let signer: ReturnType<typeof snsSigner> | null = null;
async function sesOnce({ http, ledger, signerDir }: LoadOptions) {
  signer ??= snsSigner(signerDir);
  const messageId = `soak-ses-${randomUUID()}`;
  const at = new Date().toISOString();
  const to = 'soak.recipient@example.com';
  const event = {
    eventType: 'Delivery',
    mail: { timestamp: at, messageId, source: 'Surveys <surveys@example.com>', destination: [to], commonHeaders: { subject: 'Soak' } },
    delivery: { timestamp: at, recipients: [to], smtpResponse: '250 ok' },
  };
  const answer = await http.call('POST', '/api/v1/ses/events', JSON.stringify(signer.notification(event)), {
    'content-type': 'text/plain; charset=UTF-8',
    'x-amz-sns-message-type': 'Notification',
  });
  if (answer?.status === 200) ledger.sesMessages.push(messageId);
  else ledger.unacknowledged++;
}

async function readOnce({ http, target, ledger }: LoadOptions, n: number) {
  const auth = { authorization: `Bearer ${target.session}` };
  const to = today(target.timeZone);
  const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const paths = [
    '/api/create-client?perPage=20',
    `/api/survey-processing?perPage=20`,
    '/api/notifications-logs?perPage=20',
    `/api/reports/performance?from=${from}&to=${to}&clients=${target.clientId}`,
    '/api/survey-manager-logs/runs?perPage=20',
    '/api/ses-events?perPage=20',
    '/api/survey-responses?perPage=20',
    '/api/system-logs?perPage=20',
  ];
  const path = paths[n % paths.length] ?? '/healthz';
  const answer = await http.call('GET', path, undefined, auth);
  if (answer && answer.status < 300) ledger.reads++;
}
