import type { FeedRunStatus, IngestResult } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { namedRows } from '../../db/prepared.ts';
import { dataFeedRowErrors } from '../../db/schema/index.ts';
import { admitRowsOfRuns } from '../../pipeline/admit.ts';
import type { Normalized, RowError } from '../../pipeline/ingest/normalize.ts';
import { countOutcomes, type DataFeedRow, invalidRows } from '../../pipeline/ingest/process.ts';
import type { AdmitOutcome, Clock } from '../../pipeline/types.ts';

/**
 * The ingest API's calls of one client admitted together (docs/decisions/078-ingest-group-commit.md):
 * in ONE transaction, in the order they came, each call stays its own run (`source` api, named
 * "API") with its own items, row errors, counts and call-log line, and is answered only its own
 * rows. The rules see the earlier calls' rows because they run in that same transaction under
 * the client's admit lock (pipeline/admit.ts), call after call.
 */

/** One call past every check, its rows normalized, waiting for its client's next admission. */
export type IngestCall = {
  feed: DataFeedRow;
  rowsRead: number;
  normalized: Normalized;
  /** When the call arrived: its run's start. */
  receivedAt: Date;
  /** Its line in the call log (`api_call_logs`), written in the transaction that admits its rows. */
  log: { locationId: string; tokenId: number | null; ip: string };
};

/** What a call is answered, and what its call-log line says. */
export type IngestAnswer = { result: IngestResult; accepted: number; rejected: number; error: string | null };

/** Row errors stored per insert (as pipeline/ingest/process.ts stores them). */
const ERROR_BATCH = 1000;

/**
 * The database's own error inside what was thrown (drizzle wraps the driver's error as `cause`):
 * its SQLSTATE and its message, without the statement and parameters drizzle's message adds.
 */
function databaseError(error: unknown): { code: string; message: string } | null {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, message: e instanceof Error ? e.message : code };
  }
  return null;
}
/**
 * Classes 22 (data exception) and 23 (integrity constraint) are what one call's rows can cause;
 * anything else (the database away, a statement cut off) is the batch's, not a call's.
 */
const causedByRows = (error: unknown) => /^2[23]/.test(databaseError(error)?.code ?? '');

async function reserveRunIds(tx: Db, count: number): Promise<number[]> {
  const result = await tx.execute(
    sql`select nextval(pg_get_serial_sequence('data_feed_runs', 'id'))::int as id from generate_series(1, ${count}::int)`,
  );
  return rowsOf(result)
    .map((r) => Number(r.id))
    .sort((a, b) => a - b);
}

/** A call's run as finishRun (pipeline/ingest/process.ts) leaves it: counted, ended, held by nobody (columns of data_feed_runs). */
function runOf(call: IngestCall, id: number, outcomes: AdmitOutcome[], errors: RowError[], now: string) {
  const { skipped, accepted, scheduled } = countOutcomes(outcomes);
  const invalid = invalidRows(errors);
  const status: FeedRunStatus = call.rowsRead > 0 && invalid >= call.rowsRead ? 'failed' : invalid > 0 ? 'partial' : 'succeeded';
  return {
    id,
    data_feed_id: call.feed.id,
    client_id: call.feed.clientId,
    source: 'api',
    source_name: 'API',
    started_at: call.receivedAt.toISOString(),
    received_at: now,
    finished_at: now,
    rows_read: call.rowsRead,
    rows_done: call.rowsRead,
    rows_accepted: accepted,
    rows_skipped: skipped,
    rows_invalid: invalid,
    scheduled,
    status,
  };
}

/** The columns of `runOf`'s records and of the call-log lines, typed for json_to_recordset. */
const RUN_COLUMNS = sql.raw(
  'id int, data_feed_id int, client_id int, source text, source_name text, started_at timestamptz, received_at timestamptz, finished_at timestamptz, rows_read int, rows_done int, rows_accepted int, rows_skipped jsonb, rows_invalid int, scheduled int, status text',
);
const LOG_COLUMNS = sql.raw(
  'location_id text, token_id int, received_at timestamptz, ip text, status_code int, rows_accepted int, rows_rejected int, run_id int, error text',
);

function answerOf(runId: number, outcomes: AdmitOutcome[], errors: RowError[]): IngestAnswer {
  const result: IngestResult = { run_id: runId, accepted: [], rejected: [] };
  for (const o of outcomes) result.accepted.push({ row: o.rowNumber, processing_item_id: o.itemId, status: o.status, reason: o.reason });
  const byRow = new Map<number, { field: string | null; message: string }[]>();
  for (const e of errors) byRow.set(e.rowNumber, [...(byRow.get(e.rowNumber) ?? []), { field: e.column, message: e.message }]);
  result.rejected = [...byRow].map(([row, list]) => ({ row, errors: list }));
  const rejected = result.rejected.length;
  return {
    result,
    accepted: result.accepted.length,
    rejected,
    error: rejected > 0 ? `${rejected} row${rejected === 1 ? '' : 's'} rejected` : null,
  };
}

/**
 * Writes the calls' runs, feeds' last run and call-log lines as one statement (a batch's last
 * round trip but the row errors, which few calls have); answers each call.
 */
async function record(tx: Db, calls: IngestCall[], ids: number[], outcomes: AdmitOutcome[][], errors: RowError[][], now: Date) {
  const at = now.toISOString();
  const runs = calls.map((call, i) => runOf(call, ids[i] ?? 0, outcomes[i] ?? [], errors[i] ?? [], at));
  const answers = calls.map((_, i) => answerOf(ids[i] ?? 0, outcomes[i] ?? [], errors[i] ?? []));
  const logs = calls.map((call, i) => ({
    location_id: call.log.locationId,
    token_id: call.log.tokenId,
    received_at: at,
    ip: call.log.ip,
    status_code: 200,
    rows_accepted: answers[i]?.accepted ?? 0,
    rows_rejected: answers[i]?.rejected ?? 0,
    run_id: ids[i] ?? null,
    error: answers[i]?.error ?? null,
  }));
  const feedIds = [...new Set(calls.map((c) => c.feed.id))];
  await namedRows(
    tx,
    sql`with runs as (
        insert into data_feed_runs (id, data_feed_id, client_id, source, source_name, started_at, received_at, finished_at,
          rows_read, rows_done, rows_accepted, rows_skipped, rows_invalid, scheduled, status)
        select * from json_to_recordset(${JSON.stringify(runs)}::json) as r(${RUN_COLUMNS})
      ), feeds as (
        update data_feeds set last_run_at = ${at}::timestamptz, last_received = 'API', last_error = null, last_error_at = null
        where id in (select jsonb_array_elements_text(${JSON.stringify(feedIds)}::jsonb)::int)
      )
      insert into api_call_logs (location_id, token_id, received_at, ip, status_code, rows_accepted, rows_rejected, run_id, error)
      select * from json_to_recordset(${JSON.stringify(logs)}::json) as l(${LOG_COLUMNS})`,
  );
  const refused = calls.flatMap((_, i) =>
    (errors[i] ?? []).map((e) => ({ runId: ids[i] ?? 0, rowNumber: e.rowNumber, column: e.column, message: e.message, raw: e.raw })),
  );
  // After the runs they belong to, which the statement above wrote.
  for (let i = 0; i < refused.length; i += ERROR_BATCH) await tx.insert(dataFeedRowErrors).values(refused.slice(i, i + ERROR_BATCH));
  return answers;
}

/** The calls (all of one client) admitted in one transaction, in order; throws when the transaction fails. */
async function admitTogether(db: Db, clock: Clock, calls: IngestCall[]): Promise<IngestAnswer[]> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const ids = await reserveRunIds(tx, calls.length);
    const outcomes: AdmitOutcome[][] = [];
    // Consecutive calls of one feed (and survey) are one admitRows batch; a call of another feed
    // (an endpoint of the same client) starts the next, so rows are still admitted in the calls' order.
    for (let start = 0; start < calls.length; ) {
      const feed = calls[start]?.feed;
      if (!feed) break;
      let end = start + 1;
      const same = (next: DataFeedRow | undefined) => next?.id === feed.id && next.surveyId === feed.surveyId;
      while (end < calls.length && same(calls[end]?.feed)) end++;
      const part = calls.slice(start, end);
      const rows = part.flatMap((c) => c.normalized.rows);
      const runOfRow = part.flatMap((c, i) => c.normalized.rows.map(() => ids[start + i] ?? null));
      const ctx = { clientId: feed.clientId, surveyId: feed.surveyId, dataFeedId: feed.id, runId: null, source: 'api' as const };
      const done = await admitRowsOfRuns(tx, ctx, rows, now, (index) => runOfRow[index] ?? null);
      let at = 0;
      for (const call of part) {
        outcomes.push(done.slice(at, at + call.normalized.rows.length));
        at += call.normalized.rows.length;
      }
      start = end;
    }
    return record(
      tx,
      calls,
      ids,
      outcomes,
      calls.map((c) => c.normalized.errors),
      now,
    );
  });
}

/**
 * A call whose rows the database refused, alone: its run records every row refused with the
 * reason (as a feed run's refused batch, pipeline/ingest/process.ts), so Re-run failed rows can
 * replay them and the caller is answered which rows did not go in.
 */
async function refuseAlone(db: Db, clock: Clock, call: IngestCall, reason: string): Promise<IngestAnswer> {
  const now = clock.now();
  const lost = call.normalized.rows.map((r) => ({
    rowNumber: r.rowNumber,
    column: null,
    message: `The row could not be admitted: ${reason}`,
    raw: r.raw,
  }));
  return db.transaction(async (tx) => {
    const ids = await reserveRunIds(tx, 1);
    const [answer] = await record(tx, [call], ids, [[]], [[...call.normalized.errors, ...lost]], now);
    if (!answer) throw new Error('The refused call was not recorded');
    return answer;
  });
}

/**
 * Admits a batch of one client's calls, answering each: together in one transaction; when the
 * database refuses that because of some call's rows, each call again alone, in order, so one
 * call's bad rows neither fail nor lose the others'. A failure that is not the rows' (the
 * database away) fails every call of the batch with it, nothing of them written.
 */
export async function admitCalls(db: Db, clock: Clock, calls: IngestCall[]): Promise<PromiseSettledResult<IngestAnswer>[]> {
  try {
    return (await admitTogether(db, clock, calls)).map((value) => ({ status: 'fulfilled', value }));
  } catch (err) {
    if (!causedByRows(err)) return calls.map(() => ({ status: 'rejected', reason: err }));
    const [lone] = calls;
    if (calls.length === 1 && lone) {
      const reason = databaseError(err)?.message ?? String(err);
      try {
        return [{ status: 'fulfilled', value: await refuseAlone(db, clock, lone, reason) }];
      } catch {
        // Not even its refusal could be written: the call is answered the first error.
        return [{ status: 'rejected', reason: err }];
      }
    }
    const settled: PromiseSettledResult<IngestAnswer>[] = [];
    for (const call of calls) settled.push(...(await admitCalls(db, clock, [call])));
    return settled;
  }
}
