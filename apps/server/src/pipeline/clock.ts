import type { Clock } from './types.ts';

/** The real time: what the server and `npm run worker` use. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock a test moves by hand (`advance`, `set`) instead of sleeping. */
export type MovableClock = Clock & { set(at: Date): void; advance(ms: number): void };

export function movableClock(start: Date): MovableClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = at.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
