import { describe, expect, it } from 'vitest';
import { FeedFileError, type FeedRecord, parseFeedFile, readFeedStream } from './parse.ts';

const options = { delimiter: 'comma' as const, hasHeader: true };

/** Reads chunks through the streaming reader, answering its batches and what it returned. */
async function read(chunks: (string | Buffer)[], batchSize = 2) {
  const batches: FeedRecord[][] = [];
  const result = await readFeedStream(chunks, options, batchSize, async (records) => {
    batches.push(records);
  });
  return { batches, ...result };
}

describe('readFeedStream', () => {
  it('hands the records over in batches, whatever the chunks', async () => {
    const { batches, rowsRead, columns } = await read(['na', 'me,email\nAl', 'ex,a@x.com\r\nSam,s@x.com\n"Kim, J",k@x.com\n']);
    expect(columns).toEqual(['name', 'email']);
    expect(rowsRead).toBe(3);
    expect(batches.map((b) => b.map((r) => [r.rowNumber, r.raw.name]))).toEqual([
      // Numbered by their line: the header is line 1.
      [
        [2, 'Alex'],
        [3, 'Sam'],
      ],
      [[4, 'Kim, J']],
    ]);
  });

  it('keeps a character split between two chunks whole', async () => {
    const bytes = Buffer.from('name\nJosé\n', 'utf8');
    const split = bytes.indexOf(0xa9); // the second byte of é
    const { batches } = await read([bytes.subarray(0, split), bytes.subarray(split)]);
    expect(batches[0]?.[0]?.raw.name).toBe('José');
  });

  it('refuses bytes that are not UTF-8, naming the line', async () => {
    const latin1 = Buffer.from('name\nok\nJos\xe9\n', 'latin1');
    await expect(read([latin1])).rejects.toThrow(/not UTF-8 text \(near line 1\)/);
  });

  it('refuses a NUL character, naming its line', async () => {
    await expect(read(['name\nok\nbad\u0000\n'])).rejects.toThrow('Line 3 holds a NUL character');
  });

  it('refuses a quote that is never closed, naming the line it opens on', async () => {
    const error = await read(['name,note\nAlex,fine\n"Sam,open\nKim,late\n']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedFileError);
    expect((error as Error).message).toBe('Line 3 opens a quote that is never closed.');
  });

  it('refuses a file over the limit without reading on', async () => {
    const chunk = Buffer.from(`${'a'.repeat(999)}\n`.repeat(10_000));
    await expect(read(['x\n', ...Array.from({ length: 7 }, () => chunk)])).rejects.toThrow(/larger than 60 MB/);
  });

  it('passes on a failure of the input itself (a connection that closed)', async () => {
    async function* broken() {
      yield 'name\nAlex\n';
      throw new Error('aborted');
    }
    const error = await readFeedStream(broken(), options, 10, async () => undefined).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(FeedFileError);
    expect((error as Error).message).toBe('aborted');
  });
});

describe('parseFeedFile', () => {
  it('refuses a quote opening inside a field, as the fuzz suite sent it', () => {
    expect(() => parseFeedFile('hN"P97', options)).toThrow(FeedFileError);
  });

  it('names the line of an unclosed quote', () => {
    expect(() => parseFeedFile('a,b\n1,2\n"open,1\n', options)).toThrow('Line 3 opens a quote that is never closed.');
  });
});
