import { eq, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { loginAttempts, loginRefusalSummaries, systemLogs } from '../../db/schema/index.ts';

/**
 * Sign-in throttling (modules/identity/routes.ts uses it): the back-off per account and address,
 * the attempt recorded under a lock before its password is checked, and refused sign-ins summed
 * into one System Logs row per address and window.
 */

type LoginLimits = Config['loginLimits'];

/**
 * The wait, in seconds after the last failure, before the next attempt may run: none while
 * `failures` is below the free attempts, then `baseDelaySeconds`, doubling with each further
 * failure, never longer than the window.
 */
export function backOffSeconds(failures: number, freeAttempts: number, limits: LoginLimits): number {
  if (failures < freeAttempts) return 0;
  return Math.min(limits.baseDelaySeconds * 2 ** (failures - freeAttempts), limits.windowMinutes * 60);
}

/** Failed sign-ins within the window: for the account at this address, and for the address overall. */
export type ThrottleState = {
  /** Failures for (account, address) since that pair's last success. */
  pairFailures: number;
  pairLastFailure: Date | null;
  /** Failures from the address, any account. */
  ipFailures: number;
  ipLastFailure: Date | null;
};

/**
 * The throttle state in one query over one range of `login_attempts_ip_at_idx` (the address's
 * attempts in the window). That range stays small: throttled attempts are not rows, and the
 * back-off lets through only a few dozen failures per address and window (besides the address's
 * successful sign-ins). Exported so bench/login can show its plan.
 */
export function throttleStateQuery(email: string, ip: string, windowMinutes: number, now: Date): SQL {
  const since = new Date(now.getTime() - windowMinutes * 60_000).toISOString();
  const account = email.toLowerCase();
  return sql`
    select
      count(*) filter (where not succeeded)::int as ip_failures,
      (extract(epoch from max(at) filter (where not succeeded)) * 1000)::float8 as ip_last,
      count(*) filter (where not succeeded and email = ${account} and at > last_ok)::int as pair_failures,
      (extract(epoch from max(at) filter (where not succeeded and email = ${account} and at > last_ok)) * 1000)::float8 as pair_last
    from (
      select email, succeeded, at,
        -- A success resets the pair: only its failures after the last success count.
        coalesce(max(at) filter (where succeeded and email = ${account}) over (), '-infinity'::timestamptz) as last_ok
      from ${loginAttempts}
      where ip = ${ip} and at > ${since}::timestamptz
    ) recent`;
}

export async function throttleState(db: Db, email: string, ip: string, windowMinutes: number, now: Date): Promise<ThrottleState> {
  const result = await db.execute(throttleStateQuery(email, ip, windowMinutes, now));
  const row = rowsOf(result)[0] ?? {};
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)));
  return {
    pairFailures: Number(row.pair_failures ?? 0),
    pairLastFailure: date(row.pair_last),
    ipFailures: Number(row.ip_failures ?? 0),
    ipLastFailure: date(row.ip_last),
  };
}

/**
 * Whole seconds until an attempt may run (0 = now), the longer of the pair's and the address's
 * back-off, each counted from its last failure.
 */
export function retryAfterSeconds(state: ThrottleState, limits: LoginLimits, now: Date): number {
  const until = (failures: number, free: number, last: Date | null) =>
    last ? last.getTime() + backOffSeconds(failures, free, limits) * 1000 - now.getTime() : 0;
  const waitMs = Math.max(
    until(state.pairFailures, limits.perAccountAndIp, state.pairLastFailure),
    until(state.ipFailures, limits.perIp, state.ipLastFailure),
  );
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/** Arbitrary constant: the advisory-lock namespace of sign-in throttling (per address within it). */
const THROTTLE_LOCK_CLASS = 724_5002;

export type Admission = { admitted: true; attemptId: number } | { admitted: false; retryAfterSeconds: number };

/**
 * Decides whether a sign-in attempt may check its password and, if so, records it at once as a
 * failure (`markAttemptSucceeded` corrects it). Check and record happen under a lock on the
 * address, so a burst of parallel attempts is counted one by one: without it every attempt of the
 * burst would read the same count before any had been recorded, and all would run.
 */
export async function admitLoginAttempt(db: Db, email: string, ip: string, limits: LoginLimits): Promise<Admission> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${THROTTLE_LOCK_CLASS}::int, hashtext(${ip}::text))`);
    // Read the clock after the lock: a wait behind other attempts must not date this one earlier.
    const now = new Date();
    const wait = retryAfterSeconds(await throttleState(tx, email, ip, limits.windowMinutes, now), limits, now);
    if (wait > 0) return { admitted: false, retryAfterSeconds: wait };
    const [row] = await tx
      .insert(loginAttempts)
      .values({ email: email.toLowerCase(), ip, succeeded: false, at: now })
      .returning({ id: loginAttempts.id });
    if (!row) throw new Error('login attempt insert returned nothing');
    return { admitted: true, attemptId: row.id };
  });
}

export async function markAttemptSucceeded(db: Db, attemptId: number): Promise<void> {
  await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, attemptId));
}

/** How many accounts a refusal summary lists; past it, `moreAccounts` says there were others. */
export const SUMMARY_MAX_ACCOUNTS = 20;

export type Refusal = {
  ip: string;
  email: string;
  kind: 'failed' | 'throttled';
  requestId: string;
  windowMinutes: number;
  now: Date;
};

/**
 * Counts a refused sign-in in its address's summary for the current fixed window and shows the
 * totals in that summary's one System Logs row, in one statement. The summary's primary key
 * serialises concurrent refusals from one address (the second waits on the first's row), so a
 * flood makes exactly one log row per address and window, and the row always shows the latest
 * totals. The log row's id comes from the System Logs sequence when the summary is first made
 * (later refusals draw a number too and discard it; ids only need to be unique).
 */
export async function recordRefusal(db: Db, refusal: Refusal): Promise<void> {
  const windowMs = refusal.windowMinutes * 60_000;
  const windowStart = new Date(Math.floor(refusal.now.getTime() / windowMs) * windowMs).toISOString();
  const at = refusal.now.toISOString();
  const account = refusal.email.toLowerCase();
  const failed = refusal.kind === 'failed' ? 1 : 0;
  const throttled = refusal.kind === 'throttled' ? 1 : 0;
  await db.execute(sql`
    with summary as (
      insert into ${loginRefusalSummaries} as s
        (ip, window_start, system_log_id, failed, throttled, accounts, more_accounts, first_at, last_at)
      values (${refusal.ip}, ${windowStart}::timestamptz, nextval(pg_get_serial_sequence('system_logs', 'id')),
        ${failed}::int, ${throttled}::int, array[${account}::text], false, ${at}::timestamptz, ${at}::timestamptz)
      on conflict (ip, window_start) do update set
        failed = s.failed + excluded.failed,
        throttled = s.throttled + excluded.throttled,
        accounts = case
          when ${account}::text = any(s.accounts) or cardinality(s.accounts) >= ${SUMMARY_MAX_ACCOUNTS}::int then s.accounts
          else s.accounts || ${account}::text end,
        more_accounts = s.more_accounts
          or (not ${account}::text = any(s.accounts) and cardinality(s.accounts) >= ${SUMMARY_MAX_ACCOUNTS}::int),
        first_at = least(s.first_at, excluded.first_at),
        last_at = greatest(s.last_at, excluded.last_at)
      returning s.*
    )
    insert into ${systemLogs} (id, at, level, service, action, message, after, request_id, ip)
    select system_log_id, first_at, 'warn', 'auth', 'auth.login.refused_summary',
      format('Refused sign-ins from %s in the %s minutes from %s: %s wrong password(s), %s throttled attempt(s); accounts: %s%s',
        ip, ${refusal.windowMinutes}::int, to_char(window_start at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'),
        failed, throttled, array_to_string(accounts, ', '), case when more_accounts then ', and others' else '' end),
      jsonb_build_object(
        'windowStart', window_start, 'windowMinutes', ${refusal.windowMinutes}::int,
        'failed', failed, 'throttled', throttled,
        'accounts', to_jsonb(accounts), 'moreAccounts', more_accounts,
        'firstAt', first_at, 'lastAt', last_at),
      ${refusal.requestId}::text, ip
    from summary
    on conflict (id) do update set message = excluded.message, after = excluded.after`);
}
