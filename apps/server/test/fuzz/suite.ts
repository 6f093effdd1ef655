import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addScheduledReport, bearer, type DbKind, login, startTestApp, type TestContext, testDatabaseKinds } from '../helpers.ts';
import { describeRequest, type FuzzRequest, requestArbitrary, truncate } from './generators.ts';
import { captureLoggedErrors, describeError, harvest, hash, machineAccess, modelOf, opKey, problemWith } from './harness.ts';

/**
 * Fuzz suite: walks the app's route table and throws requests generated from each route's own
 * zod schemas (roughly valid values with some fields made nasty, unknown and prototype keys,
 * broken JSON, odd content types, wrong tokens) at it. Whatever a client sends, the server must
 * answer below 500, with the error envelope for errors, and keep answering.
 *
 * The routes are dealt round-robin into shards, one test file per engine and shard (fuzz-*.test.ts),
 * so the files run side by side; every route is in exactly one shard of each engine.
 *
 * FUZZ_RUNS=n   requests per operation (default 100; more for a deeper local run), shared between the
 *               engines the run tests: with PostgreSQL too, each engine sends half, from seeds of its
 *               own, so the run still sends n different requests per operation and each engine's
 *               share differs from the other's (decision 085)
 * FUZZ_SEED=n   base seed (each operation derives its own from it, the engine, and its method and path)
 * FUZZ_TRACE=text prints each request of the operations whose `METHOD /path` contains text, with its answer
 * FUZZ_REPORT=1 records every failure instead of stopping at each operation's first, and prints
 *               them grouped by status and cause (the error the server logged, or what is wrong with
 *               the answer), with the operations it hit and the shortest request that showed it, to
 *               collect all the distinct causes in one run. The test still fails if any.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_611);
const REPORT = process.env.FUZZ_REPORT === '1';
/** FUZZ_TRACE=text prints every request (and its answer) of the operations whose `METHOD /path` contains text. */
const TRACE = process.env.FUZZ_TRACE;

type Failure = {
  op: string;
  status: number | 'rejected';
  problem: string;
  /** Root cause of the error the server logged while answering, e.g. `invalid input syntax for type bigint: "abc"`. */
  serverError: string | null;
  /** The logged error's own message when the root cause is wrapped (`Failed query: select …`). */
  serverDetail: string | null;
  request: FuzzRequest;
  answer: string;
};

/** `invalid input syntax for type bigint: "abc"` and the like, with quoted values blanked, to group failures. */
function normalise(text: string): string {
  return text.replace(/"[^"]*"/g, '"…"').slice(0, 240);
}

/** How many shards the route table is dealt into (one fuzz-<engine>-<n>.test.ts file each). */
export const FUZZ_SHARDS = 2;

/** The fuzz suite over one shard of the routes (every FUZZ_SHARDS-th, from `shard`) on one engine. */
export function fuzzSuite(kind: DbKind, shard: number): void {
  describe.skipIf(!testDatabaseKinds().includes(kind))(
    `fuzz: routes of shard ${shard + 1}/${FUZZ_SHARDS} with requests from their own schemas (${kind})`,
    () => {
      let ctx: TestContext;
      let token = '';
      /** An API token (feeds:write) for machine routes (`{ token: scope }` access), which refuse sessions. */
      let apiToken = '';
      const logged: Error[] = [];
      beforeAll(async () => {
        ctx = await startTestApp(kind, { clockControl: true });
        captureLoggedErrors(ctx.app, logged);
        token = await login(ctx.app, 'admin@example.com');
        apiToken = await machineAccess(ctx.app, token);
        await addScheduledReport(ctx.app, bearer(token));
      });
      afterAll(() => ctx.close());

      /** The server still answers: health, and the admin's own user (signing in again if the session went). */
      async function stillAnswers(): Promise<string | null> {
        const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
        if (health.statusCode !== 200) return `GET /healthz → ${health.statusCode} ${truncate(health.body)}`;
        let me = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
        if (me.statusCode === 401) {
          token = await login(ctx.app, 'admin@example.com');
          me = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
        }
        return me.statusCode === 200 ? null : `GET /api/user → ${me.statusCode} ${truncate(me.body)}`;
      }

      it(
        'answers every generated bad request below 500 with the error envelope, and keeps answering',
        async () => {
          const started = performance.now();
          const pools = await harvest(ctx.app, token);
          const routes = ctx.app.routeTable.map(modelOf).filter((_, i) => i % FUZZ_SHARDS === shard);
          const machine = new Set(ctx.app.routeTable.filter((r) => typeof r.access === 'object').map((r) => opKey(modelOf(r))));
          expect(routes.length).toBeGreaterThan(10 / FUZZ_SHARDS);
          const failures: Failure[] = [];
          const firstFailures: string[] = [];
          const counts: string[] = [];
          let requests = 0;
          const runs = Math.ceil(RUNS / testDatabaseKinds().length);

          for (const route of routes) {
            const op = opKey(route);
            const opStarted = performance.now();
            let sent = 0;
            const statuses = new Map<number | 'rejected', number>();
            const property = fc.asyncProperty(requestArbitrary(route, pools.forRoute(route.url)), async (req) => {
              sent++;
              logged.length = 0;
              const headers: Record<string, string> = {};
              if (req.auth === 'admin') Object.assign(headers, bearer(machine.has(op) ? apiToken : token));
              if (req.auth === 'bogus') headers.authorization = `Bearer ${req.bogusToken}`;
              if (req.contentType !== null) headers['content-type'] = req.contentType;
              if (req.cookie !== null) headers.cookie = req.cookie;
              let status: number | 'rejected';
              let problem: string | null;
              let answer = '';
              try {
                const res = await ctx.app.inject({
                  method: req.method as 'GET',
                  url: req.url,
                  headers,
                  remoteAddress: req.remoteAddress,
                  ...(req.body === null ? {} : { payload: req.body }),
                });
                status = res.statusCode;
                answer = res.body;
                problem = problemWith(res.statusCode, res.body);
                if (res.statusCode === 401 && req.auth === 'admin') token = await login(ctx.app, 'admin@example.com');
              } catch (err) {
                status = 'rejected';
                problem = `inject rejected: ${err instanceof Error ? err.message : String(err)}`;
              }
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              if (TRACE && op.includes(TRACE)) console.log(`${status} ${describeRequest(req)}\n    → ${truncate(answer, 200)}`);
              if (problem === null) return;
              const [first] = logged;
              const server = first ? describeError(first) : null;
              const serverError = server?.cause ?? null;
              failures.push({ op, status, problem, serverError, serverDetail: server?.detail ?? null, request: req, answer });
              if (!REPORT) {
                throw new Error(
                  [
                    `${op}: ${problem}`,
                    `  request:  ${describeRequest(req)}`,
                    `  response: ${status} ${truncate(answer, 600)}`,
                    ...(server ? [`  server:   ${server.cause}${server.detail ? ` (in: ${truncate(server.detail)})` : ''}`] : []),
                  ].join('\n'),
                );
              }
            });
            try {
              await fc.assert(property, { seed: SEED ^ hash(`${kind} ${op}`), numRuns: runs, endOnFailure: true });
              if (sent < runs) firstFailures.push(`${op}: only ${sent} of ${runs} requests were sent`);
            } catch (err) {
              // fast-check's report carries the property's own error (the request and answer) as its cause.
              const own = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
              const replay = err instanceof Error ? /\{ seed: [^}]*\}/.exec(err.message)?.[0] : undefined;
              firstFailures.push(replay ? `${own}\n  replay:   fc.assert(…, ${replay})` : own);
            }
            const afterwards = await stillAnswers();
            if (afterwards) firstFailures.push(`${op}: the server stopped answering afterwards: ${afterwards}`);
            requests += sent;
            const histogram = [...statuses.entries()]
              .sort(([a], [b]) => String(a).localeCompare(String(b)))
              .map(([s, n]) => `${s}×${n}`)
              .join(' ');
            counts.push(`  ${op}: ${sent} requests, ${((performance.now() - opStarted) / 1000).toFixed(1)} s (${histogram})`);
          }

          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          console.log(
            `fuzz (${kind}, shard ${shard + 1}/${FUZZ_SHARDS}): ${routes.length} operations, ${requests} requests, ${seconds} s, ${failures.length} failing\n${counts.join('\n')}`,
          );
          if (REPORT) console.log(report(failures));
          if (REPORT && failures.length > 0) firstFailures.push(`${failures.length} failures, grouped in the report above`);
          if (firstFailures.length > 0) throw new Error(`${firstFailures.length} operation(s) failed:\n\n${firstFailures.join('\n\n')}`);
        },
        20 * 60_000,
      );
    },
  );
}

/** Failures grouped by status and cause, with the operations each hit and its shortest request. */
function report(failures: Failure[]): string {
  type Group = { count: number; ops: Map<string, number>; example: Failure };
  const groups = new Map<string, Group>();
  const size = (f: Failure) => f.request.url.length + (f.request.body?.length ?? 0);
  for (const f of failures) {
    // Fastify's own errors name themselves in `code` (FST_ERR_BAD_URL …).
    const code = /"code":"([A-Z0-9_]+)"/.exec(f.answer)?.[1];
    const key = `${f.status}: ${normalise(f.serverError ?? f.problem)}${code ? ` (${code})` : ''}`;
    const group = groups.get(key) ?? { count: 0, ops: new Map<string, number>(), example: f };
    groups.set(key, group);
    group.count++;
    group.ops.set(f.op, (group.ops.get(f.op) ?? 0) + 1);
    if (size(f) < size(group.example)) group.example = f;
  }
  const lines = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { count, ops, example: e }]) =>
      [
        `● ${key} — ×${count}`,
        `    operations: ${[...ops.entries()].map(([op, n]) => `${op} ×${n}`).join(', ')}`,
        `    e.g. ${describeRequest(e.request)}`,
        `    answer: ${e.status} ${truncate(e.answer)}`,
        ...(e.serverDetail ? [`    in: ${truncate(e.serverDetail)}`] : []),
      ].join('\n'),
    );
  return `fuzz report: ${failures.length} failures in ${groups.size} groups\n${lines.join('\n')}`;
}
