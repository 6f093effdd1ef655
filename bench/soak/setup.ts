import pg from 'pg';
import type { Http } from './http.ts';

/** What the load writes to: one location of an active e-mail survey with an instant alert rule on low scores. */
export type Target = {
  clientId: number;
  surveyId: number;
  locationId: string;
  /** The key question's id and the score that trips the rule. */
  keyQuestionId: string;
  lowScore: number;
  /** The client's time zone, in which its transactions' dates are read. */
  timeZone: string;
  /** Admin session, ingest API token, the upload feed. */
  session: string;
  apiToken: string;
  feedId: number;
};

const TARGET_SQL = `
  select s.client_id, c.timezone, s.id as survey_id, sl.location_id,
         (select q->>'id' from jsonb_array_elements(s.questions) q where (q->>'is_key_metric')::boolean limit 1) as key_id,
         (select q->>'type' from jsonb_array_elements(s.questions) q where (q->>'is_key_metric')::boolean limit 1) as key_type
  from survey_alert_rules r
  join clients c on c.id = r.client_id and c.status = 'active'
  join surveys s on s.client_id = r.client_id and s.status = 'active' and s.channel in ('email', 'email_then_sms')
  join survey_locations sl on sl.survey_id = s.id
  join locations l on l._id = sl.location_id and l.status = 'active' and l.client_id = s.client_id
  where r.status = 'active' and r.frequency = 'instant' and r.trigger in ('score_at_or_below', 'detractor')
    and (cardinality(r.survey_ids) = 0 or s.id = any(r.survey_ids))
    and (cardinality(r.location_ids) = 0 or sl.location_id = any(r.location_ids))
  order by s.id, sl.location_id
  limit 1`;

/**
 * Chooses the target in the seeded demo, and makes its invitations due at once (no send delay, no
 * quiet hours, every day, no daily cap), so the workers send during the run what the load admits:
 * the soak checks sends, not the schedule (pipeline/schedule.ts has its own tests). A token and an
 * endpoint for the ingest API and a feed for uploads are made through the API, as staff would.
 */
export async function prepareTarget(http: Http, databaseUrl: string, password: string): Promise<Target> {
  const signIn = await http.call('POST', '/api/login', { email: 'admin@example.com', password });
  const session = dataOf<{ token: string }>(signIn, 'sign-in').token;
  const auth = { authorization: `Bearer ${session}` };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const row = (await client.query(TARGET_SQL)).rows[0] as
      | { client_id: number; timezone: string; survey_id: number; location_id: string; key_id: string | null; key_type: string | null }
      | undefined;
    if (!row?.key_id) throw new Error('the demo has no active e-mail survey with a key question under an instant low-score alert rule');
    await client.query('update surveys set send_delay_hours = 0 where id = $1', [row.survey_id]);
    await client.query(
      `insert into client_survey_settings (client_id, from_name, from_email, quiet_hours_start, quiet_hours_end, send_days, daily_cap_per_location)
       values ($1, 'Customer Feedback', 'no-reply@example.com', '00:00', '00:00', '{mon,tue,wed,thu,fri,sat,sun}', 0)
       on conflict (client_id) do update set quiet_hours_start = '00:00', quiet_hours_end = '00:00',
         send_days = '{mon,tue,wed,thu,fri,sat,sun}', daily_cap_per_location = 0`,
      [row.client_id],
    );
    const admin = (await client.query(`select id from users where email = 'admin@example.com'`)).rows[0] as { id: number } | undefined;
    const made = await http.call('POST', '/api/api-token', { user_id: admin?.id, name: 'Soak', scopes: ['feeds:write'] }, auth);
    const apiToken = dataOf<{ token: string }>(made, 'API token').token;
    const endpoint = await http.call('PUT', `/api/api-endpoints/${row.location_id}`, { survey_id: row.survey_id }, auth);
    dataOf(endpoint, 'ingest endpoint');
    // The endpoint's per-minute limit is the form's; the soak's calls are its load, not a client's abuse.
    await client.query('update endpoint_configs set rate_limit_per_min = 100000000 where location_id = $1', [row.location_id]);
    const feed = await http.call(
      'POST',
      '/api/data-feeds',
      {
        name: 'Soak uploads',
        trigger_event: 'invoice_paid',
        survey_id: row.survey_id,
        location_id: row.location_id,
        field_mapping: { first_name: 'First', email: 'Email', transaction_id: 'Txn', transaction_date: 'Date' },
      },
      auth,
    );
    return {
      clientId: row.client_id,
      timeZone: row.timezone,
      surveyId: row.survey_id,
      locationId: row.location_id,
      keyQuestionId: row.key_id,
      lowScore: row.key_type === 'nps_0_10' ? 0 : 1,
      session,
      apiToken,
      feedId: dataOf<{ id: number }>(feed, 'feed').id,
    };
  } finally {
    await client.end();
  }
}

function dataOf<T>(answer: { status: number; json: unknown } | null, what: string): T {
  const data = answer && typeof answer.json === 'object' && answer.json && 'data' in answer.json ? answer.json.data : null;
  if (!answer || answer.status >= 300 || !data) throw new Error(`${what} failed: ${answer?.status} ${JSON.stringify(answer?.json)}`);
  return data as T;
}
