import { type Query, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from './client.ts';

/**
 * Most statement texts this process names. A list's text changes with its sort and with how many
 * values a filter holds (`in ($1, $2)`), so the texts are many but the common ones few; each named
 * text is prepared once on each pooled connection and kept there, so the bound is what every
 * connection may hold (docs/decisions/081-named-list-statements.md). Texts past it run unnamed.
 */
export const MAX_NAMED_STATEMENTS = 64;

const dialect = new PgDialect();
const names = new Map<string, string>();

/** The name a statement text runs under in this process (`list_1`, `list_2` …), or undefined past the bound. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
    name = `list_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/** A statement as its text and parameters, built once (e.g. to key a cache by) and run with `namedRows`. */
export const buildQuery = (statement: SQL): Query => dialect.sqlToQuery(statement);

/**
 * The rows of a read that runs on every request of a busy screen (a list's page, its count, the
 * page's lookups), as a named prepared statement on PostgreSQL: each connection parses and plans
 * the text once, not per request, and the driver sends only its parameters after the first time
 * (bench/api). On PGlite the name is not used. Same rows as `rowsOf(await db.execute(statement))`.
 */
export async function namedRows(db: Db, statement: SQL | Query): Promise<Record<string, unknown>[]> {
  const query = statement instanceof SQL ? buildQuery(statement) : statement;
  return rowsOf(await db._.session.prepareQuery(query, undefined, statementName(query.sql), false).execute());
}
