import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv-parse.ts';

const syntaxError = (input: string): CsvSyntaxError => {
  try {
    parseCsv(input);
  } catch (err) {
    if (err instanceof CsvSyntaxError) return err;
    throw err;
  }
  throw new Error('parsed');
};

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, CRLF or LF, and a BOM', () => {
    expect(parseCsv('\uFEFFname,note\r\n"Smith, Jo","say ""hi""\nthere"\r\nx,y\n')).toEqual([
      ['name', 'note'],
      ['Smith, Jo', 'say "hi"\nthere'],
      ['x', 'y'],
    ]);
  });

  it('refuses a quote that is never closed, naming the line it opens on', () => {
    expect(syntaxError('name,code\nA,1\n"B,2\nC,3\n').message).toBe('Line 3 opens a quote that is never closed');
    expect(syntaxError('name,code\r\nA,1\r\n"B,2\r\nC,3').line).toBe(3);
    expect(syntaxError('name,code\rA,1\r"B,2').line).toBe(3);
    // Lines inside an earlier quoted field count as the editor shows them.
    expect(syntaxError('name,note\nA,"two\nlines"\nB,"open\n').line).toBe(4);
    expect(syntaxError('"').line).toBe(1);
  });
});
