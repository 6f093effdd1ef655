/**
 * The callers of bench/pipeline/endpoint.ts in a worker thread of their own (BENCH_CALLERS=thread,
 * the default): real callers run elsewhere, so their HTTP client work does not wait in the
 * server's event loop, nor the server's in theirs. Their CPU still counts in the process's CPU.
 *
 * Given the calls to make, it answers each call's time (ms), the failed calls and the rows accepted.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { dataEnvelope, ingestResultSchema } from '@admin/shared';

export type CallersTask = {
  kind: 'ingest' | 'healthz';
  url: string;
  headers: Record<string, string>;
  count: number;
  concurrency: number;
  rowsPerCall: number;
  /** The transaction date of every row, `yyyy-MM-dd`. */
  day: string;
};

export type CallersResult = Run & { accepted: number };

/** Call `i`'s rows: each row of the whole run is a new customer and transaction. */
export function payload(i: number, rowsPerCall: number, day: string): string {
  return JSON.stringify(
    Array.from({ length: rowsPerCall }, (_, j) => {
      const n = i * rowsPerCall + j;
      return {
        first_name: `Bench${n}`,
        last_name: 'Caller',
        email: `bench.endpoint.${n}@example.com`,
        transaction_id: `EP-${n}`,
        transaction_date: day,
      };
    }),
  );
}

const ingestAnswer = dataEnvelope(ingestResultSchema);

/** How many rows an ingest answer accepted (0 when it is not one). */
function acceptedIn(body: unknown): number {
  const answer = ingestAnswer.safeParse(body);
  return answer.success ? answer.data.data.accepted.length : 0;
}

/** What a load took: each call's time (ms), the calls that failed, its wall time (s). */
export type Run = { times: number[]; failed: number; seconds: number };

/** `count` calls of `one(i)` with `concurrency` in flight, in this thread. */
export async function concurrently(count: number, concurrency: number, one: (i: number) => Promise<boolean>): Promise<Run> {
  const times: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        if (!(await one(i))) failed++;
        times.push(performance.now() - t);
      }
    }),
  );
  return { times, failed, seconds: (performance.now() - started) / 1000 };
}

export async function runCallers(task: CallersTask): Promise<CallersResult> {
  let accepted = 0;
  const run = await concurrently(task.count, task.concurrency, async (i) => {
    if (task.kind === 'healthz') return (await fetch(task.url)).status === 200;
    const res = await fetch(task.url, { method: 'POST', headers: task.headers, body: payload(i, task.rowsPerCall, task.day) });
    const rows = acceptedIn(await res.json());
    accepted += rows;
    return res.status === 200 && rows === task.rowsPerCall;
  });
  return { ...run, accepted };
}

if (parentPort && workerData) {
  const port = parentPort;
  void runCallers(workerData as CallersTask).then((result) => port.postMessage(result));
}
