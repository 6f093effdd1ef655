/**
 * The load generator of bench/deliverability/ingest.ts, in a worker thread of its own: SNS posts
 * from another machine, so the HTTP client's work must not share the server's event loop.
 * workerData: { url, envelopes, callers }; posts back { seconds, latencies, failures }.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { url, envelopes, callers } = workerData;
const latencies = [];
const failures = [];
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: callers }, async () => {
    for (let i = next++; i < envelopes.length; i = next++) {
      const t = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain; charset=UTF-8' }, body: envelopes[i] });
      const body = await res.text();
      latencies.push(performance.now() - t);
      if (res.status !== 200 && failures.length < 5) failures.push(`${res.status} ${body.slice(0, 200)}`);
    }
  }),
);
parentPort.postMessage({ seconds: (performance.now() - t0) / 1000, latencies, failures });
