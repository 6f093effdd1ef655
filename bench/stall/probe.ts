/**
 * bench/stall's probes: a GET sent every `everyMs` whether or not the previous one has answered
 * (open loop), so a server that stalls for 10 s shows as 200 slow answers, not one; each answer's
 * latency from the moment it was due. A probe with no answer after `timeoutMs` counts as a failure
 * at that latency.
 */
export type ProbeStats = {
  count: number;
  failures: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  over200: number;
  /** The slowest answers and when they were due, in seconds from the probe's start: where the stalls were. */
  worst: { atS: number; ms: number }[];
  /** p99 and answers over 200 ms per 30 s of the probe: which phase (storing, admitting, sending) a stall belongs to. */
  timeline: { fromS: number; p99: number; over200: number }[];
};

const WINDOW_MS = 30_000;

const round = (ms: number) => Math.round(ms * 10) / 10;

const quantile = (sorted: number[], q: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0);

export function statsOf(timed: { at: number; ms: number }[], failures: number): ProbeStats {
  const s = timed.map((t) => t.ms).sort((a, b) => a - b);
  const at = (q: number) => quantile(s, q);
  const windows = new Map<number, number[]>();
  for (const t of timed) {
    const w = Math.floor(t.at / WINDOW_MS);
    windows.set(w, [...(windows.get(w) ?? []), t.ms]);
  }
  const timeline = [...windows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([w, list]) => {
      const sorted = list.sort((a, b) => a - b);
      return { fromS: (w * WINDOW_MS) / 1000, p99: quantile(sorted, 0.99), over200: sorted.filter((ms) => ms > 200).length };
    });
  return {
    count: s.length,
    failures,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: round(s[s.length - 1] ?? 0),
    over200: s.filter((ms) => ms > 200).length,
    worst: [...timed]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((t) => ({ atS: Math.round(t.at / 100) / 10, ms: round(t.ms) })),
    timeline,
  };
}

export type Probe = { stop(): Promise<ProbeStats> };

/** Starts GETting `url` every `everyMs`; `stop()` waits for the ones in flight and answers their statistics. */
export function startProbe(url: string, headers: Record<string, string>, everyMs: number, timeoutMs = 30_000): Probe {
  const samples: { at: number; ms: number }[] = [];
  const inFlight = new Set<Promise<void>>();
  let failures = 0;
  let stopped = false;
  const started = performance.now();
  let tick = 0;

  const once = async (due: number) => {
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer();
      if (!res.ok) failures++;
      samples.push({ at: due - started, ms: performance.now() - due });
    } catch {
      failures++;
      samples.push({ at: due - started, ms: timeoutMs });
    }
  };

  const schedule = () => {
    if (stopped) return;
    const due = started + tick * everyMs;
    tick++;
    const p = once(due).finally(() => inFlight.delete(p));
    inFlight.add(p);
    // The next probe at its due time, even when this one has not answered yet.
    setTimeout(schedule, Math.max(0, started + tick * everyMs - performance.now()));
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      await Promise.all([...inFlight]);
      return statsOf(samples, failures);
    },
  };
}
