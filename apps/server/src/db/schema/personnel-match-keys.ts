import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

/**
 * How many of a client's people not merged away share each match key (`reason` is one of
 * MATCH_REASONS, `key` that person column's value, never ''), so Merge Personnel Data's
 * suggestions read the keys held by two or more people without grouping the whole client
 * (docs/decisions/074-merge-match-keys.md). Kept by the statement triggers of migration
 * 0046_personnel_match_keys on every insert, update, delete and truncate of personnel; a key
 * nobody holds any more stays with `n = 0`.
 */
export const personnelMatchKeys = pgTable(
  'personnel_match_keys',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    reason: text('reason').notNull(),
    key: text('key').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.reason, t.key] }),
    // Holds the key and count too, so the suggestions read the shared keys from the index alone.
    index('personnel_match_keys_shared_key_idx').on(t.clientId, t.reason, t.key, t.n).where(sql`${t.n} >= 2`),
  ],
);
