import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

/**
 * People who can hold a session (staff) and the users of each client's own portal.
 * Ids start at 1001 (see the migration) because 1000 is the reserved "Default for New User".
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** Mobile phone, E.164: where a client user's SMS alerts go. */
    phone: text('phone'),
    /** scrypt hash; null = cannot sign in (client portal users). */
    passwordHash: text('password_hash'),
    isSuperadmin: smallint('is_superadmin').notNull().default(0),
    currentClientId: integer('current_client_id').references(() => clients.id),
    /** Legacy column: holds a token hash only, never a token. */
    apiToken: text('api_token'),
    status: text('status').notNull().default('active'),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`)],
);

/** Which users belong to a client (its portal users; alert recipients later). */
export const clientUsers = pgTable(
  'client_users',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull().default('staff'),
    /** The channels (email, sms) this user accepts survey alerts on. */
    alertChannels: text('alert_channels').array().notNull().default(sql`'{email}'`),
    /** active, or inactive (deactivated in this client: no alerts, not listed as a recipient). */
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The record's version (its user's name, e-mail and phone included): set by every write of Client Manager's Users panel. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.userId] }), index('client_users_user_idx').on(t.userId)],
);

/** Sign-in sessions. Only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    idleExpiresAt: timestamp('idle_expires_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Sign-in attempts, kept in the database (not in process memory) so the throttle holds across
 * several server processes (docs/decisions/012-sign-in-throttling.md). A row is written as a
 * failure before the password is checked and turned into a success afterwards, so attempts still
 * in flight already count. Attempts refused by the throttle are not rows here: they are counted
 * in `login_refusal_summaries`.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    succeeded: boolean('succeeded').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The throttle reads one address's attempts within the window: one range of this index.
  (t) => [
    index('login_attempts_ip_at_idx').on(t.ip, t.at),
    // The housekeeping job's range of old attempts (housekeeping/prune.ts).
    index('login_attempts_at_idx').on(t.at),
  ],
);

/**
 * Refused sign-ins (wrong password or throttled) summed per address and fixed window, so a flood
 * makes one System Logs row per address per window (`system_log_id`, updated in place) instead
 * of one per request. The primary key makes concurrent first refusals meet in one row.
 */
export const loginRefusalSummaries = pgTable(
  'login_refusal_summaries',
  {
    ip: text('ip').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    /** The System Logs row showing this summary; not a foreign key because both rows are written by one statement. */
    systemLogId: bigint('system_log_id', { mode: 'number' }).notNull(),
    failed: integer('failed').notNull().default(0),
    throttled: integer('throttled').notNull().default(0),
    /** The accounts tried, lower-cased, at most LOGIN_SUMMARY_MAX_ACCOUNTS. */
    accounts: text('accounts').array().notNull(),
    /** True once more accounts were tried than the list keeps. */
    moreAccounts: boolean('more_accounts').notNull().default(false),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ip, t.windowStart] }), index('login_refusal_summaries_window_idx').on(t.windowStart)],
);
