import { describe, expect, it } from 'vitest';
import { csvField, csvFileName, csvRecords, neutralise } from './csv.ts';

describe('CSV encoding', () => {
  it('quotes only fields that need it, doubling quotes (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
  });

  it('neutralises cells that a spreadsheet would run as formulas', () => {
    for (const bad of ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(bad)).toBe(`'${bad}`);
    expect(neutralise('a=b')).toBe('a=b');
    expect(neutralise(null)).toBe('');
    expect(neutralise(-5)).toBe("'-5");
    expect(neutralise(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
  });

  it('writes records with CRLF', () => {
    expect(
      csvRecords([
        ['Time', 'Message'],
        ['t', '=cmd|"x"'],
      ]),
    ).toBe(`Time,Message\r\nt,"'=cmd|""x"""\r\n`);
  });

  it('names files <screen>-<yyyy-mm-dd>.csv', () => {
    expect(csvFileName('system-logs', new Date('2026-11-22T10:00:00Z'))).toBe('system-logs-2026-11-22.csv');
  });
});
