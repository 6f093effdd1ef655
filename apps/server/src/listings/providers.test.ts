import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, providerJson } from './http.ts';
import { hoursOfPeriods } from './providers.ts';

describe('Places opening hours', () => {
  it('reads periods (day 0 = Sunday) as our week, a split day as first opening to last closing', () => {
    const hours = hoursOfPeriods([
      { open: { day: 1, hour: 8, minute: 0 }, close: { day: 1, hour: 12, minute: 0 } },
      { open: { day: 1, hour: 13, minute: 0 }, close: { day: 1, hour: 17, minute: 30 } },
      { open: { day: 6, hour: 9, minute: 0 }, close: { day: 6, hour: 12, minute: 0 } },
    ]);
    expect(hours).toMatchObject({ mon: { open: '08:00', close: '17:30' }, sat: { open: '09:00', close: '12:00' }, sun: null, tue: null });
  });
  it('"always open" (an open with no close) is every day all day', () => {
    expect(hoursOfPeriods([{ open: { day: 0, hour: 0, minute: 0 } }]).wed).toEqual({ open: '00:00', close: '23:59' });
  });
});

describe('provider calls', () => {
  let server: http.Server;
  let base: string;
  const answers: number[] = [];
  let calls = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      calls++;
      const status = answers.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const call = (allowPrivate = true) =>
    providerJson({ method: 'GET', url: `${base}/x`, headers: {}, allowPrivate, provider: 'Fake', backoffMs: 1 });

  it('refuses the server’s own network unless PROVIDERS_ALLOW_PRIVATE is on, before connecting', async () => {
    const before = calls;
    await expect(call(false)).rejects.toThrow(/PROVIDERS_ALLOW_PRIVATE=on/);
    expect(calls).toBe(before);
  });

  it('tries a 429 or 5xx again with back-off, then gives up naming the status; a 4xx is not retried', async () => {
    answers.push(429, 503);
    expect(await call()).toEqual({ status: 200 });
    answers.push(500, 500, 500);
    await expect(call()).rejects.toThrow('Fake answered 500.');
    const before = calls;
    answers.push(403);
    await expect(call()).rejects.toBeInstanceOf(ProviderError);
    expect(calls - before).toBe(1);
    answers.push(404);
    expect(await call()).toBeNull();
  });
});
