import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crlfRecordEnds, inlinedText } from './copy-csv.ts';

/** What pg's Client#escapeLiteral does with standard_conforming_strings on (quotes doubled; E'' with backslashes doubled). */
const escapeLiteral = (s: string) =>
  s.includes('\\') ? ` E'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'` : `'${s.replace(/'/g, "''")}'`;

describe('COPY statements and record ends', () => {
  it('inlines every parameter as a literal, $10 apart from $1', () => {
    const values = Array.from({ length: 11 }, (_, i) => `v${i}`);
    const text = inlinedText(
      sql`select ${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}, ${"it's"}, ${42}, ${'a\\b'}`,
      escapeLiteral,
    );
    expect(text).toBe(`select ${values.map((v) => `'${v}'`).join(', ')}, 'it''s', 42,  E'a\\\\b'`);
  });

  it('refuses what it cannot write as a literal', () => {
    expect(inlinedText(sql`select ${new Date(0)}`, escapeLiteral)).toBeNull();
    expect(inlinedText(sql`select ${true}`, escapeLiteral)).toBeNull();
  });

  it('turns LF into CRLF between records only, however the bytes are split into chunks', () => {
    const csv = 'a,"b\nc",d\n"x ""y""\n",,\nlast,"",\n';
    const expected = 'a,"b\nc",d\r\n"x ""y""\n",,\r\nlast,"",\r\n';
    fc.assert(
      fc.property(fc.array(fc.nat(csv.length), { maxLength: 6 }), (cuts) => {
        const at = [...new Set([0, ...cuts, csv.length])].sort((a, b) => a - b);
        const crlf = crlfRecordEnds();
        const bytes = Buffer.from(csv);
        const out = at.slice(1).map((end, i) => crlf(bytes.subarray(at[i], end)));
        expect(Buffer.concat(out).toString()).toBe(expected);
      }),
    );
  });
});
