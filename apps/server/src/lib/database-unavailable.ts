/**
 * Whether an error says the PostgreSQL server cannot be reached right now — stopped, restarting,
 * failing over, or the connection cut — rather than that a statement was wrong. The error handler
 * (plugins/errors.ts) answers those with 503 and `Retry-After` instead of 500: the request was
 * fine and the pg Pool reconnects by itself once the server is back (docs/decisions/076-soak-and-503.md).
 */

/** Seconds a client is told to wait (`Retry-After`) while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * SQLSTATEs of a server going away or not yet accepting: admin_shutdown, crash_shutdown,
 * cannot_connect_now ("the database system is starting up"), and class 08 (connection exception).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '08007']);

/** Socket errors of a server that is down or dropped the connection. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);

/** node-postgres' own words when a connection ends, cannot be made in time, or was lost. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
];

/** Looks through the error and its causes (drizzle wraps the driver's error in `cause`). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = 'code' in e ? e.code : undefined;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    const message = 'message' in e ? e.message : undefined;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return true;
    // AggregateError (a connect tried on IPv4 and IPv6, both refused) keeps the causes in `errors`.
    if ('errors' in e && Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}
