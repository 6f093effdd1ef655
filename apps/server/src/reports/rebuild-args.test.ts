import { describe, expect, it } from 'vitest';
import { parseRebuildArgs } from './rebuild-args.ts';

describe('reports:rebuild arguments', () => {
  it('reads a range and an optional client, in either spelling', () => {
    expect(parseRebuildArgs(['--from', '2026-01-01', '--to', '2026-03-31'])).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      clientId: null,
    });
    expect(parseRebuildArgs(['--from=2026-01-01', '--to=2026-01-01', '--client', '3'])).toEqual({
      from: '2026-01-01',
      to: '2026-01-01',
      clientId: 3,
    });
  });

  it('says what is wrong, naming the option', () => {
    expect(parseRebuildArgs(['--to', '2026-03-31'])).toEqual({ error: 'The --from option is required: a date as YYYY-MM-DD.' });
    expect(parseRebuildArgs(['--from', '2026-02-30', '--to', '2026-03-31'])).toMatchObject({ error: expect.stringMatching(/--from/) });
    expect(parseRebuildArgs(['--from', '2026-03-01', '--to', '2026-02-01'])).toMatchObject({ error: expect.stringMatching(/on or after/) });
    expect(parseRebuildArgs(['--from', '2026-03-01', '--to', '2026-03-02', '--client', '0'])).toMatchObject({
      error: expect.stringMatching(/--client/),
    });
    expect(parseRebuildArgs(['--from', '2026-03-01', '--to', '2026-03-02', '--client', '99999999999'])).toMatchObject({
      error: expect.stringMatching(/--client/),
    });
    expect(parseRebuildArgs(['--from'])).toEqual({ error: 'The --from option needs a value.' });
    expect(parseRebuildArgs(['--days', '3'])).toMatchObject({ error: expect.stringMatching(/Unknown option --days/) });
  });
});
