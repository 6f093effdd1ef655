import type { seededRandom } from './random.ts';

/**
 * The shape of the demo's year before its last month (history.ts, decision 070): twelve periods of
 * a twelfth of a year each, ending where the last month's invitations begin, the volume of each
 * with its season, and the NPS each client's answers make in it.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The last month is the surveys' and feeds' own (surveys.ts, feeds.ts): the history ends where it begins. */
export const HISTORY_END_DAYS = 30;
export const PERIODS = 12;
export const PERIOD_MS = (365 / PERIODS) * DAY_MS;

/** Invitations per active location in a period of average season: "tens a month", sized to the seed's time budget. */
export const INVITATIONS_PER_LOCATION = 5;

/** Where a client's NPS goes over the year: up to where it is now, steady, or high until the last month's fall. */
export type Trend = 'improving' | 'steady' | 'declining';

/** The fall of a declining client in its last month: well over AT_RISK_NPS_DROP (10), whatever the draw. */
const DECLINE_POINTS = 28;
/** How far below its present NPS an improving client started the year. */
const IMPROVEMENT_POINTS = 30;

/** The month a business is busiest, by industry (0 = January); its volume swings a quarter either way. */
const PEAK_MONTH: Record<string, number> = {
  home_services: 6,
  hospitality: 7,
  retail: 11,
  automotive: 4,
  legal: 2,
  financial: 3,
  dental: 8,
  healthcare: 0,
  senior_care: 10,
};

export type Period = { index: number; start: number; end: number };

/** The twelve periods, oldest first: [start, end) in epoch ms, the last ending 30 days before the anchor. */
export function periodsOf(anchor: Date): Period[] {
  const end = anchor.getTime() - HISTORY_END_DAYS * DAY_MS;
  return Array.from({ length: PERIODS }, (_, index) => ({
    index,
    start: Math.round(end - (PERIODS - index) * PERIOD_MS),
    end: Math.round(end - (PERIODS - index - 1) * PERIOD_MS),
  }));
}

/** The season's factor for a period of this industry: 0.75 at the quietest month, 1.25 at the busiest. */
export function seasonOf(period: Period, industry: string): number {
  const month = new Date((period.start + period.end) / 2).getUTCMonth();
  const peak = PEAK_MONTH[industry] ?? 5;
  return 1 + 0.25 * Math.cos((2 * Math.PI * (month - peak)) / 12);
}

/**
 * Each client's trend, from its NPS in the last month (null: no NPS answers): in every account
 * coordinator's book the client with the lowest NPS declines (its high year makes the fall, so
 * each book has a client at risk), then every other client improves, the rest stay steady; `quiet`
 * (the client whose data stopped) stays steady.
 */
export function trendsOf(
  clients: readonly { id: number; nps: number | null; coordinatorId: number | null }[],
  quiet: number | null,
): Map<number, Trend> {
  const lowest = new Map<number, { id: number; nps: number }>();
  for (const c of clients) {
    if (c.nps === null || c.id === quiet || c.coordinatorId === null) continue;
    const low = lowest.get(c.coordinatorId);
    if (!low || c.nps < low.nps) lowest.set(c.coordinatorId, { id: c.id, nps: c.nps });
  }
  const declining = new Set([...lowest.values()].map((c) => c.id));
  let turn = 0;
  return new Map(
    clients.map((c) => {
      if (declining.has(c.id)) return [c.id, 'declining'];
      if (c.id === quiet) return [c.id, 'steady'];
      turn += 1;
      return [c.id, turn % 2 === 1 ? 'improving' : 'steady'];
    }),
  );
}

/** The NPS a client's answers make in a period: where its trend puts it, from its NPS now (40 without one). */
export function targetNps(trend: Trend, now: number | null, period: Period): number {
  const base = now ?? 40;
  const progress = period.index / (PERIODS - 1);
  const value =
    trend === 'improving'
      ? base - IMPROVEMENT_POINTS + (IMPROVEMENT_POINTS - 5) * progress
      : trend === 'declining'
        ? base + DECLINE_POINTS + 4 * (1 - progress)
        : base + 4 * Math.sin(period.index * 1.3);
  return Math.max(-100, Math.min(100, value));
}

export type Mood = 'promoter' | 'passive' | 'detractor';

/**
 * `n` moods whose NPS is as near `nps` as n allows (promoters − detractors over n, with about a
 * quarter passive), shuffled by the seeded random: exact shares rather than draws, so a client's
 * period says what its trend says even with a dozen answers.
 */
export function moodsFor(n: number, nps: number, rnd: ReturnType<typeof seededRandom>): Mood[] {
  const t = nps / 100;
  let detractors = Math.max(0, (0.75 - t) / 2);
  let promoters = detractors + t;
  if (promoters > 1) [promoters, detractors] = [1, 0];
  if (promoters < 0) [promoters, detractors] = [0, -t];
  const p = Math.round(promoters * n);
  const d = Math.min(n - p, Math.round(detractors * n));
  const moods: Mood[] = [
    ...Array<Mood>(p).fill('promoter'),
    ...Array<Mood>(d).fill('detractor'),
    ...Array<Mood>(n - p - d).fill('passive'),
  ];
  for (let i = moods.length - 1; i > 0; i--) {
    const j = rnd.int(0, i);
    [moods[i], moods[j]] = [moods[j] ?? 'passive', moods[i] ?? 'passive'];
  }
  return moods;
}

/** A key score for a mood, as answer.ts scores them: 0–10 on an NPS survey, 1–5 on the others. */
export function scoreOf(mood: Mood, nps: boolean, rnd: ReturnType<typeof seededRandom>): number {
  if (nps) return mood === 'promoter' ? rnd.int(9, 10) : mood === 'passive' ? rnd.int(7, 8) : rnd.pick([2, 3, 4, 5, 5, 6, 6, 6]);
  return mood === 'promoter' ? 5 : mood === 'passive' ? rnd.pick([3, 4]) : rnd.pick([1, 2, 2]);
}
