/**
 * The soak's HTTP client: spreads calls over the API processes as a load balancer would (the next
 * one on a refused connection), and counts every answer by kind, so the run can say that no call
 * got a 500 and that every 503 carried Retry-After.
 */
export type Tally = {
  calls: number;
  ok: number;
  /** 4xx answers (an expected refusal, e.g. 409 for an answered link, counts here). */
  clientErrors: number;
  unavailable503: number;
  unavailableWithoutRetryAfter: number;
  /** Any other 5xx: must stay 0. */
  serverErrors: number;
  /** Samples of them: status, method, path, body start. */
  serverErrorSamples: string[];
  /** No answer: the process was killed or is restarting. */
  noAnswer: number;
};

export type Answer = { status: number; json: unknown; retryAfter: string | null };

export function newTally(): Tally {
  return {
    calls: 0,
    ok: 0,
    clientErrors: 0,
    unavailable503: 0,
    unavailableWithoutRetryAfter: 0,
    serverErrors: 0,
    serverErrorSamples: [],
    noAnswer: 0,
  };
}

export type Http = {
  tally: Tally;
  /** One call to one API (round-robin); null when no process answered. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer | null>;
  /** The same call to a given API base URL. */
  callAt(base: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer | null>;
};

export function soakHttp(bases: readonly string[]): Http {
  const tally = newTally();
  let next = 0;
  const callAt = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    tally.calls++;
    const isText = typeof body === 'string';
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': isText ? 'text/csv' : 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: isText ? body : JSON.stringify(body) }),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = text;
      }
      const retryAfter = res.headers.get('retry-after');
      if (res.status < 400) tally.ok++;
      else if (res.status < 500) tally.clientErrors++;
      else if (res.status === 503) {
        tally.unavailable503++;
        if (!retryAfter) tally.unavailableWithoutRetryAfter++;
      } else {
        tally.serverErrors++;
        if (tally.serverErrorSamples.length < 20) tally.serverErrorSamples.push(`${res.status} ${method} ${path}: ${text.slice(0, 200)}`);
      }
      return { status: res.status, json, retryAfter };
    } catch {
      tally.noAnswer++;
      return null;
    }
  };
  return {
    tally,
    callAt,
    async call(method, path, body, headers) {
      // A killed process refuses the connection: the next one is tried, as a balancer's health check would.
      for (let tried = 0; tried < bases.length; tried++) {
        const base = bases[next++ % bases.length] ?? '';
        const answer = await callAt(base, method, path, body, headers);
        if (answer) return answer;
      }
      return null;
    },
  };
}
