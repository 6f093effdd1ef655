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

/**
 * The system clock moved by an offset a browser test sets through `/api/test-clock` (only when
 * `CLOCK_CONTROL=on`, docs/decisions/030-test-clock.md): time keeps running from where it was set.
 */
export type ControlledClock = Clock & { offsetMs(): number; setOffset(ms: number): void };

export function controlledClock(): ControlledClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    offsetMs: () => offset,
    setOffset: (ms) => {
      offset = ms;
    },
  };
}
