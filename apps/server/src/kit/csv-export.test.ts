import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCsv } from '@admin/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../lib/http-error.ts';
import { EXPORT_PACING, EXPORTS_BUSY_MESSAGE, type ExportPage, MAX_RUNNING_EXPORTS, nextBatchRows, sendCsv } from './csv-export.ts';

const columns = [
  { key: 'n', label: 'Row' },
  { key: 'name', label: 'Name' },
];
/** Values that need RFC 4180 quoting or formula neutralising, one per row in turn. */
const tricky = ['plain', 'a, b', 'say "hi"', 'two\nlines', '=1+2', 'cr\r\nlf'];

/**
 * `total` rows over keyset pages (the cursor is the last row's number), every page answered after a
 * turn of the microtask queue only, as the embedded database answers. `onRead` sees each call.
 */
function source(total: number, onRead: (cursor: number, limit: number) => void = () => undefined): ExportPage {
  return async (cursor, limit) => {
    const from = cursor ? Number(cursor) : 0;
    onRead(from, limit);
    await Promise.resolve();
    const rows = [];
    for (let n = from + 1; n <= Math.min(total, from + limit); n++) rows.push({ n, name: tricky[n % tricky.length] });
    const last = rows.at(-1)?.n;
    return { rows, nextCursor: last !== undefined && last < total ? String(last) : null };
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A listening server whose `GET /export` streams `read` through the kit, on a real loopback socket. */
async function serve(read: () => ExportPage): Promise<string> {
  app = Fastify();
  app.get('/export', (_request, reply) =>
    sendCsv(reply, { fileName: 'test.csv', columns, read: read(), pacing: { ...EXPORT_PACING, firstRows: 40, maxRows: 40 } }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Starts a GET and answers its response once the headers are in, unread. */
const open = (url: string) => new Promise<IncomingMessage>((resolve, reject) => get(url, resolve).on('error', reject));
const bodyOf = (res: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
    });
    res.on('end', () => resolve(text));
    res.on('error', reject);
    res.resume();
  });
/** Waits until `value()` stops changing over several turns of the event loop's timers. */
async function settled(value: () => number): Promise<number> {
  let last = -1;
  for (let still = 0; still < 10; ) {
    await new Promise((r) => setTimeout(r, 20));
    const now = value();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last;
}

describe('CSV export pacing', () => {
  it('sizes the next batch toward the target time, at most doubling or halving, within bounds', () => {
    const pacing = { targetMs: 20, firstRows: 500, minRows: 100, maxRows: 5000 };
    expect(nextBatchRows(1000, 20, pacing)).toBe(1000);
    expect(nextBatchRows(1000, 40, pacing)).toBe(500);
    expect(nextBatchRows(1000, 400, pacing)).toBe(500);
    expect(nextBatchRows(1000, 5, pacing)).toBe(2000);
    expect(nextBatchRows(150, 400, pacing)).toBe(100);
    expect(nextBatchRows(4000, 1, pacing)).toBe(5000);
  });
});

describe('CSV export over a real socket', () => {
  it('writes every row once, in order, quoted and neutralised, across many pages', async () => {
    const base = await serve(() => source(1000));
    const res = await open(`${base}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = await bodyOf(res);
    expect(text.startsWith('\uFEFFRow,Name\r\n')).toBe(true);
    const records = parseCsv(text);
    expect(records[0]).toEqual(['Row', 'Name']);
    const rows = records.slice(1);
    expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    for (const [n, name] of rows) {
      const want = tricky[Number(n) % tricky.length] ?? '';
      expect(name).toBe(want.startsWith('=') ? `'${want}` : want);
    }
  });

  it('lets the event loop turn between two pages, so requests that arrived meanwhile are served', async () => {
    // A page read before the loop turned since the previous one means no I/O, no timer and no
    // other request could run in between: the whole export would hold the server.
    let pages = 0;
    let turnedSinceLastRead = true;
    let heldOn = 0;
    const base = await serve(() =>
      source(2000, () => {
        pages++;
        if (!turnedSinceLastRead) heldOn++;
        turnedSinceLastRead = false;
        setImmediate(() => {
          turnedSinceLastRead = true;
        });
      }),
    );
    const text = await bodyOf(await open(`${base}/export`));
    expect(parseCsv(text)).toHaveLength(2001);
    expect(pages).toBe(50);
    expect(heldOn).toBe(0);
  });

  it('reads no further than the client takes, and stops reading when the client goes away', async () => {
    let pages = 0;
    const total = 2_000_000;
    const base = await serve(() =>
      source(total, () => {
        pages++;
      }),
    );
    const res = await open(`${base}/export`);
    res.pause();
    const whileStalled = await settled(() => pages);
    // Socket buffers hold some pages; the rest wait for the client.
    expect(whileStalled).toBeLessThan(total / 40 / 2);
    res.destroy();
    const afterLeaving = await settled(() => pages);
    expect(afterLeaving).toBeLessThanOrEqual(whileStalled + 1);
  });

  it(`writes at most ${MAX_RUNNING_EXPORTS} exports at once; another is answered 429 until one ends`, async () => {
    const base = await serve(() => source(200_000));
    const running = await Promise.all(Array.from({ length: MAX_RUNNING_EXPORTS }, () => open(`${base}/export`)));
    for (const res of running) {
      expect(res.statusCode).toBe(200);
      res.pause();
    }
    const refused = await open(`${base}/export`);
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(await bodyOf(refused))).toMatchObject({ statusCode: 429, message: EXPORTS_BUSY_MESSAGE });

    for (const res of running) res.destroy();
    // The places are given back when the server sees the clients gone.
    let again = await open(`${base}/export`);
    for (let tries = 0; again.statusCode === 429 && tries < 100; tries++) {
      await bodyOf(again);
      await new Promise((r) => setTimeout(r, 20));
      again = await open(`${base}/export`);
    }
    expect(again.statusCode).toBe(200);
    again.destroy();
  });

  it('answers a first page that fails with its error, and gives its place back', async () => {
    let fail = true;
    const read = source(10);
    const base = await serve(() => async (cursor, limit) => {
      if (fail) throw new HttpError(400, 'Bad cursor.');
      return read(cursor, limit);
    });
    for (let i = 0; i < MAX_RUNNING_EXPORTS + 1; i++) {
      const res = await open(`${base}/export`);
      expect(res.statusCode).toBe(400);
      await bodyOf(res);
    }
    fail = false;
    const res = await open(`${base}/export`);
    expect(res.statusCode).toBe(200);
    expect(parseCsv(await bodyOf(res))).toHaveLength(11);
  });
});
