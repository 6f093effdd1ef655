import type { Readable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

const dialect = new PgDialect();

/**
 * A statement's text with its parameters written in as literals: `COPY (query) TO STDOUT` takes no
 * bind parameters. Strings go through the connection's own `escapeLiteral` (quotes doubled, and an
 * `E''` literal when a backslash is present), numbers as digits; anything else answers null and the
 * caller falls back to an export that binds them.
 */
export function inlinedText(statement: SQL, escapeLiteral: (text: string) => string): string | null {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const literals: string[] = [];
  for (const p of params) {
    if (p === null) literals.push('null');
    else if (typeof p === 'number' && Number.isFinite(p)) literals.push(String(p));
    else if (typeof p === 'string') literals.push(escapeLiteral(p));
    else return null;
  }
  // `$12` before `$1`: the pattern takes every digit, so `$1` never matches inside `$12`.
  return text.replace(/\$(\d+)/g, (whole, n: string) => literals[Number(n) - 1] ?? whole);
}

/**
 * `COPY (statement) TO STDOUT WITH (FORMAT csv)` on a connection of the pool's own, as a stream of
 * bytes. The connection goes back to the pool when the copy has ended; if the stream fails or is
 * destroyed first (the client went away mid-export) the connection is closed instead, since it may
 * still be in the middle of the copy.
 */
export async function copyCsv(pool: pg.Pool, statement: SQL): Promise<Readable | null> {
  const client = await pool.connect();
  const text = inlinedText(statement, (s) => client.escapeLiteral(s));
  if (text === null) {
    client.release();
    return null;
  }
  const stream = client.query(copyTo(`copy (${text}) to stdout with (format csv)`));
  let released = false;
  const release = (broken: boolean) => {
    if (released) return;
    released = true;
    client.release(broken);
  };
  stream.once('end', () => release(false));
  stream.once('error', () => release(true));
  stream.once('close', () => release(true));
  return stream;
}

/**
 * CSV as PostgreSQL writes it, with the record ends RFC 4180 asks for: LF becomes CRLF between
 * records, never inside a quoted field (a quote toggles "inside"; a doubled quote toggles twice).
 * Stateful across chunks, so a quoted field split between two chunks stays inside.
 */
export function crlfRecordEnds(): (chunk: Buffer) => Buffer {
  let quoted = false;
  return (chunk) => {
    const startedQuoted = quoted;
    let ends = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x22) quoted = !quoted;
      else if (b === 0x0a && !quoted) ends++;
    }
    if (ends === 0) return chunk;
    const out = Buffer.allocUnsafe(chunk.length + ends);
    let o = 0;
    let start = 0;
    // Second pass: the same toggling, from the state this chunk started in.
    let inside = startedQuoted;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x22) inside = !inside;
      else if (b === 0x0a && !inside) {
        o += chunk.copy(out, o, start, i);
        out[o++] = 0x0d;
        start = i;
      }
    }
    o += chunk.copy(out, o, start, chunk.length);
    return out;
  };
}

/**
 * A text column as the CSV cell `csvRecords` (kit/csv.ts) writes for it, computed by the database for
 * `COPY`: a leading = + - @ tab or CR gets a single quote (formula injection), and an empty text is
 * written like a null, unquoted (COPY would quote it to tell the two apart).
 */
export function csvCell(expr: SQL): SQL {
  return sql`nullif(case when left(${expr}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || (${expr}) else (${expr}) end, '')`;
}
