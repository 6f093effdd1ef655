import pg from 'pg';
import { type Ledger, SOAK_PREFIX } from './load.ts';

/** One invariant: what it says, how many rows break it (0 to pass), and a sample of them. */
export type Check = { name: string; violations: number; sample?: unknown };

/** Counts of what the run produced, besides the invariants. */
export type Produced = { items: number; sent: number; responses: number; alertEvents: number; sesEvents: number; jobsDone: number };

const like = `${SOAK_PREFIX}%`;

/**
 * The invariants, read with SQL once the load has stopped and the workers have drained: every
 * acknowledged write present, every due invitation sent exactly once, no job or feed run stuck,
 * no alert doubled.
 */
export async function checkInvariants(databaseUrl: string, ledger: Ledger): Promise<{ checks: Check[]; produced: Produced }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const count = async (text: string, values: unknown[] = []) => {
    const result = await client.query(text, values);
    return { n: Number(result.rows[0]?.n ?? 0), rows: result.rows };
  };
  const rowsBreaking = async (name: string, text: string, values: unknown[] = []): Promise<Check> => {
    const result = await client.query(`${text} limit 5`, values);
    const total = await client.query(`select count(*)::int as n from (${text}) broken`, values);
    return { name, violations: Number(total.rows[0]?.n ?? 0), ...(result.rows.length ? { sample: result.rows } : {}) };
  };
  try {
    const checks: Check[] = [];
    const ingested = await count(
      `select count(distinct transaction_id)::int as n from survey_processing_items where transaction_id = any($1::text[])`,
      [ledger.ingested],
    );
    checks.push({ name: 'every acknowledged ingest row is a processing item', violations: ledger.ingested.length - ingested.n });
    const uploadIds = ledger.uploads.map((u) => u.runId);
    checks.push(
      await rowsBreaking(
        'every acknowledged upload ran to the end with all its rows',
        `select r.id, r.status, r.rows_read, r.rows_done from data_feed_runs r
         where r.id = any($1::int[]) and (r.status <> 'succeeded' or r.rows_done <> $2)`,
        [uploadIds, ledger.uploads[0]?.rows ?? 0],
      ),
    );
    const uploaded = await count(`select count(*)::int as n from data_feed_runs where id = any($1::int[])`, [uploadIds]);
    checks.push({ name: 'every acknowledged upload has its run', violations: uploadIds.length - uploaded.n });
    const tags = ledger.uploads.map((u) => `${u.tag}-%`);
    const uploadRows = await count(`select count(*)::int as n from survey_processing_items where transaction_id like any($1::text[])`, [
      tags,
    ]);
    checks.push({
      name: 'every row of an acknowledged upload is a processing item',
      violations: ledger.uploads.reduce((s, u) => s + u.rows, 0) - uploadRows.n,
    });
    checks.push(
      await rowsBreaking(
        'no transaction admitted twice',
        `select transaction_id, count(*) from survey_processing_items where transaction_id like $1 group by 1 having count(*) > 1`,
        [like],
      ),
    );
    const responses = await count(`select count(*)::int as n from survey_responses where id = any($1::int[])`, [ledger.responses]);
    checks.push({ name: 'every acknowledged response is stored', violations: ledger.responses.length - responses.n });
    const ses = await count(`select count(distinct message_id)::int as n from ses_events where message_id = any($1::text[])`, [
      ledger.sesMessages,
    ]);
    checks.push({ name: 'every acknowledged SES event is stored', violations: ledger.sesMessages.length - ses.n });
    checks.push(
      await rowsBreaking(
        'no due invitation left unsent',
        `select id, status, scheduled_at, claimed_until from survey_processing_items
         where transaction_id like $1 and status in ('queued', 'scheduled') and scheduled_at <= now()`,
        [like],
      ),
    );
    checks.push(
      await rowsBreaking(
        'no invitation sent twice',
        `select l.related_id, count(*) from notification_logs l
         join survey_processing_items i on l.related_type = 'survey_processing_item' and l.related_id = i.id::text
         where i.transaction_id like $1 and l.type = 'survey_invite' group by 1 having count(*) > 1`,
        [like],
      ),
    );
    checks.push(
      await rowsBreaking(
        'every invitation marked sent has its message',
        `select i.id from survey_processing_items i where i.transaction_id like $1 and i.sent_at is not null
           and not exists (select 1 from notification_logs l where l.related_type = 'survey_processing_item'
             and l.related_id = i.id::text and l.type = 'survey_invite')`,
        [like],
      ),
    );
    checks.push(
      await rowsBreaking(
        'no job stuck (running past its lease, or due and pending for over a minute)',
        `select id, queue, status, run_at, locked_until from jobs
         where (status = 'running' and locked_until < now()) or (status = 'pending' and run_at < now() - interval '1 minute')`,
      ),
    );
    checks.push(await rowsBreaking('no feed run stuck', `select id, status, locked_until from data_feed_runs where status = 'running'`));
    checks.push(
      await rowsBreaking(
        'no alert doubled (one event per rule, response, channel and recipient)',
        `select rule_id, response_id, channel, recipient, count(*) from survey_alert_events where not test
         group by rule_id, response_id, processing_item_id, channel, recipient having count(*) > 1`,
      ),
    );
    checks.push(
      await rowsBreaking(
        'no alert message sent twice',
        `select related_id, count(*) from notification_logs where related_type = 'survey_alert_event' group by 1 having count(*) > 1`,
      ),
    );
    checks.push(
      await rowsBreaking(
        'every low-score response alerted',
        `select r.id from survey_responses r where r.id = any($1::int[])
           and not exists (select 1 from survey_alert_events e where e.response_id = r.id)`,
        [ledger.responses],
      ),
    );
    const produced: Produced = {
      items: (await count(`select count(*)::int as n from survey_processing_items where transaction_id like $1`, [like])).n,
      sent: (
        await count(`select count(*)::int as n from survey_processing_items where transaction_id like $1 and sent_at is not null`, [like])
      ).n,
      responses: ledger.responses.length,
      alertEvents: (
        await count(`select count(*)::int as n from survey_alert_events where response_id = any($1::int[])`, [ledger.responses])
      ).n,
      sesEvents: ses.n,
      jobsDone: (await count(`select count(*)::int as n from jobs where status = 'done'`)).n,
    };
    return { checks, produced };
  } finally {
    await client.end();
  }
}
